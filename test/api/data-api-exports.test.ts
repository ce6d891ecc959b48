import { beforeAll, describe, expect, it } from "vitest";
import { apiHarness } from "./harness";
import { DATA_WORLD_SEED, loadDataWorld, tokenSet, type TokenSet } from "./data-world";
import { dataApiToken, get, walkPages } from "./data-api-support";

/**
 * Data API exports against the seeded world, in process: create (202,
 * Location, Retry-After), the background run (the embedded runner, through
 * drainJobs), poll, download; Idempotency-Key; the job bound to its
 * application and person; every answer validated against the served
 * document (moved from e2e/data-api-exports.spec.ts; the common
 * authorization cases are the security matrix's, security.test.ts).
 */
type Session = { id: number; competition: string; boat_class: { type: string } };

const api = apiHarness({ seed: DATA_WORLD_SEED });

/** POSTs an export request, validated against the document. */
const createExport = (sessionId: number, token: string, body: unknown, headers: Record<string, string> = {}) =>
  api.call("POST", `/sessions/${sessionId}/exports`, {
    token,
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json", ...headers },
  });

/** Works the queued runs, then reads the status document (Retry-After while it is not final) until the job is final. */
async function pollUntilFinal(jobId: string, token: string) {
  for (let i = 0; i < 5; i++) {
    const { status, body, headers } = await get(api, `/exports/${jobId}`, token);
    expect(status).toBe(200);
    if (["succeeded", "failed", "expired"].includes(body.data.status)) {
      expect(headers.get("retry-after")).toBeNull();
      return body.data;
    }
    expect(Number(headers.get("retry-after"))).toBeGreaterThan(0);
    await api.drainJobs();
  }
  throw new Error(`export ${jobId} never finished`);
}

describe("Data API: exports", () => {
  let tokens: TokenSet;
  let olafToken: string;
  let annaId: number;
  let annaK1: number;
  let olafOnly: number;

  beforeAll(async () => {
    const world = await loadDataWorld(api.db);
    annaId = world.anna.userId;
    tokens = await tokenSet(api.db, annaId);
    olafToken = (await dataApiToken(api, world.olaf.userId)).token;
    const mine: Session[] = await walkPages(api, "/sessions?limit=100", tokens.full);
    annaK1 = mine.find((s) => s.competition === "World trial")!.id;
    const his: Session[] = await walkPages(api, "/sessions?limit=100", olafToken);
    olafOnly = his.find((s) => !mine.some((m) => m.id === s.id))!.id;
  });

  it("create → 202 with Location and Retry-After → poll → download the file", async () => {
    const created = await createExport(annaK1, tokens.full, { format: "json", splits: 5 });
    expect(created.status).toBe(202);
    const job = created.body.data;
    expect(job).toMatchObject({
      status: "queued",
      format: "json",
      session_id: annaK1,
      athlete: 1,
      splits: 5,
      lang: "en",
      progress: 0,
      error: null,
    });
    expect(job.job_id).toMatch(/^exp_[A-Za-z0-9_-]{22}$/);
    expect(created.headers.get("location")).toBe(job.links.self);
    expect(job.links.self).toMatch(new RegExp(`/api/v1/exports/${job.job_id}$`));
    expect(Number(created.headers.get("retry-after"))).toBeGreaterThan(0);

    const before = await get(api, `/exports/${job.job_id}/download`, tokens.full);
    // Nothing to download until the job succeeded (no run has been worked yet).
    expect(before.status).toBe(404);
    expect(before.body.error).toBe("not_found");

    const done = await pollUntilFinal(job.job_id, tokens.full);
    expect(done).toMatchObject({ status: "succeeded", progress: 100, error: null, links: { download: `${job.links.self}/download` } });
    expect(Date.parse(done.expires_at) - Date.parse(done.finished_at)).toBe(24 * 3600_000);

    const file = await get(api, `/exports/${job.job_id}/download`, tokens.full);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("application/json");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="[^"]+\.json"/);
    expect(file.body).toBeTruthy();
  });

  it("the job is bound to its application and person: 404 for everyone else", async () => {
    const created = await createExport(annaK1, tokens.full, { format: "json" });
    const jobId = created.body.data.job_id;
    await pollUntilFinal(jobId, tokens.full);
    const otherAppOfAnna = (await dataApiToken(api, annaId)).token;
    for (const token of [otherAppOfAnna, olafToken, tokens.partner]) {
      for (const path of [`/exports/${jobId}`, `/exports/${jobId}/download`]) {
        const answer = await get(api, path, token);
        expect(answer.status, path).toBe(404);
        expect(answer.body.error).toBe("not_found");
      }
    }
    const unknown = await get(api, `/exports/exp_${"A".repeat(22)}`, tokens.full);
    expect(unknown.status).toBe(404);
    const malformed = await get(api, `/exports/${encodeURIComponent("not a job!")}`, tokens.full);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_description).toMatch(/^job_id: /);
  });

  it("a session outside the boundary, or a seat that is not there, is a 404", async () => {
    const outside = await createExport(olafOnly, tokens.full, { format: "json" });
    expect(outside.status).toBe(404);
    expect(outside.body.error).toBe("not_found");
    // The World trial is a K1: seat 2 does not exist.
    const seat = await createExport(annaK1, tokens.full, { format: "json", athlete: 2 });
    expect(seat.status).toBe(404);
    expect(seat.body.error_description).toBe(outside.body.error_description);
  });

  it("a bad ExportRequest is a 400 naming the field", async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /^format: /],
      [{ format: "docx" }, /^format: /],
      [{ format: "json", athlete: 5 }, /^athlete: /],
      [{ format: "json", athlete: 1.5 }, /^athlete: /],
      [{ format: "json", athlete: "1" }, /^athlete: /],
      [{ format: "json", splits: 0 }, /^splits: /],
      [{ format: "json", splits: 21 }, /^splits: /],
      [{ format: "json", splits: 1e300 }, /^splits: /],
      [{ format: "json", lang: "fr" }, /^lang: /],
      [{ format: "json", colour: "red" }, /^colour: unknown field/],
      [{ format: "json\u0000" }, /^format: /],
      [[1, 2], /^body: /],
      ["{not json", /^body: not valid JSON/],
      [`{"format":"json","x":${"[".repeat(5000)}${"]".repeat(5000)}}`, /^(x: unknown field|body: )/],
      [JSON.stringify({ format: "json", padding: "x".repeat(20_000) }), /^body: larger than/],
    ];
    for (const [body, message] of cases) {
      const answer = await createExport(annaK1, tokens.full, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body).toMatchObject({ error: "invalid_request", error_description: expect.stringMatching(message) });
    }
    const notJson = await createExport(annaK1, tokens.full, '{"format":"json"}', { "content-type": "text/plain" });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error_description).toMatch(/^body: /);
  });

  it("Idempotency-Key: same request → same job; different request → 409; too long → 400", async () => {
    const key = `e2e-${Date.now()}`;
    const first = await createExport(annaK1, tokens.full, { format: "json", lang: "es" }, { "Idempotency-Key": key });
    expect(first.status).toBe(202);
    // Key order does not matter: it is the same request.
    const again = await createExport(annaK1, tokens.full, { lang: "es", format: "json" }, { "Idempotency-Key": key });
    expect(again.status).toBe(202);
    expect(again.body.data.job_id).toBe(first.body.data.job_id);
    expect(again.headers.get("location")).toBe(first.headers.get("location"));

    const otherBody = await createExport(annaK1, tokens.full, { format: "json", lang: "en" }, { "Idempotency-Key": key });
    expect(otherBody.status).toBe(409);
    expect(otherBody.body).toMatchObject({
      error: "idempotency_key_reused",
      error_description: expect.stringMatching(/^Idempotency-Key: /),
    });

    // Another application of the same person has its own keys.
    const partner = await createExport(annaK1, tokens.partner, { format: "json", lang: "es" }, { "Idempotency-Key": key });
    expect(partner.status).toBe(202);
    expect(partner.body.data.job_id).not.toBe(first.body.data.job_id);

    const tooLong = await createExport(annaK1, tokens.full, { format: "json" }, { "Idempotency-Key": "k".repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error_description).toMatch(/^Idempotency-Key: /);
    const longest = await createExport(annaK1, tokens.full, { format: "json" }, { "Idempotency-Key": "k".repeat(255) });
    expect(longest.status).toBe(202);
  });

  it("20 concurrent identical requests with one key create one job", async () => {
    const key = `race-${Date.now()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => createExport(annaK1, tokens.full, { format: "json", splits: 3 }, { "Idempotency-Key": key })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    expect(new Set(answers.map((a) => a.body.data.job_id)).size).toBe(1);
  });

  it("the partner surface gets its export too (privacy-safe mode)", async () => {
    const created = await createExport(annaK1, tokens.partner, { format: "json" });
    expect(created.status).toBe(202);
    const done = await pollUntilFinal(created.body.data.job_id, tokens.partner);
    expect(done.status).toBe("succeeded");
  });
});
