import postgres from "postgres";
import { beforeAll, describe, expect, it } from "vitest";
import { simulatedSvc } from "@/e2e/svc-files";
import { apiHarness } from "./harness";
import { personWithKey, send, uploadRequest, type Person } from "./results-client";

/**
 * Issue 29 §2: a multipart upload whose body is shorter than its
 * Content-Length — the client went away mid-file — stores nothing: no result,
 * no device, no blob or blob content, no job run, no event, no idempotency
 * record. Through the results API's upload route with a body stream that
 * stops (ends early, or fails as an aborted socket does).
 */
const harness = apiHarness();
let coach: Person;
let metadata: string;

beforeAll(async () => {
  coach = await personWithKey("truncated-upload");
  const trackId = await coach.track("Truncated basin");
  const athleteId = await coach.athlete({ name: "Ana", surname: "Test", subscriptionActiveUntil: "2099-12-31" });
  metadata = JSON.stringify({ distance: 200, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] });
});

const TABLES = ["results", "devices", "blobs", "blob_contents", "job_runs", "event_outbox", "webhook_events", "idempotency_keys"];

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const sql = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
  try {
    for (const table of TABLES) counts[table] = (await sql`select count(*)::int as n from ${sql(table)}`)[0].n as number;
  } finally {
    await sql.end();
  }
  return counts;
}

/** The upload as a client sends it, with its full Content-Length, but a body that stops after `keep` of its bytes. */
async function truncatedUpload(keep: number, ending: "ends" | "fails"): Promise<Response> {
  const whole = await uploadRequest(
    { file: { bytes: simulatedSvc({ vessel: "K1", distanceM: 200, seed: 9_301 }), filename: "race.svc" }, metadata },
    { authorization: coach.key.authorization, "x-forwarded-proto": "https", "idempotency-key": `truncated-${ending}-${keep}` },
  );
  const bytes = new Uint8Array(await whole.arrayBuffer());
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, Math.floor(bytes.length * keep)));
      if (ending === "ends") controller.close();
      else controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
    },
  });
  return send(new Request(whole.url, { method: "POST", headers: whole.headers, body, duplex: "half" } as RequestInit));
}

describe.skipIf(!process.env.DATABASE_URL)("an upload whose client went away stores nothing", () => {
  it.each([
    [0.5, "ends"],
    [0.95, "ends"],
    [0.5, "fails"],
  ] as const)("body cut at %s of its length (%s): a 4xx, and no row anywhere", async (keep, ending) => {
    void harness;
    const before = await rowCounts();
    const response = await truncatedUpload(keep, ending);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await rowCounts()).toEqual(before);
  });
});
