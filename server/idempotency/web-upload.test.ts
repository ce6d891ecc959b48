import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestDb } from "../../test/support/test-db";
import { simulatedTrainingFile, vesselIdOf } from "../../test/support/trainings";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { idempotencyKeys, results, trainings } from "../db/schema";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createUser, getSessionUser, type SessionUser } from "../users/users";

/**
 * The web upload page's Idempotency-Key (docs/web-app.md "Upload: retries"),
 * through the real route modules on real Postgres. Only who is signed in is
 * given (next-auth reads its cookie through Next's request scope, which a
 * test has not); everything after is the route's own.
 */
let signedIn: SessionUser | null = null;
vi.mock("@/server/auth/current-user", () => ({ getCurrentUser: async () => signedIn }));

const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let metadata: Record<string, unknown>;
let seed = 9300;
const sessionFile = () => Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: ++seed }).content, keyring));

beforeAll(async () => {
  handle = await openTestDb();
  const user = await createUser(handle.db, {
    name: "Coach",
    email: `web-key-${randomUUID()}@test.example`,
    password: "long enough password",
  });
  coach = (await getSessionUser(handle.db, user.id))!;
  signedIn = coach;
  const track = await createTrack(handle.db, coach.id, { name: "Basin" });
  const ana = await createAthlete(handle.db, coach.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" });
  metadata = {
    distance: 200,
    vessel_id: await vesselIdOf(handle.db, "K1"),
    track_id: track.id,
    category_id: 1,
    pace_id: 1,
    athletes: [ana.id],
  };
});
afterAll(async () => {
  await handle.close();
});

/** The form's request as a browser sends it: multipart with its length, the key in a header. */
async function post(path: "/api/uploads" | "/api/uploads/trainings", bytes: Buffer, meta: unknown, key?: string) {
  const form = new FormData();
  form.append("metadata", JSON.stringify(meta));
  form.append("file", new Blob([new Uint8Array(bytes)]), "upload.svc");
  const encoded = new Response(form);
  const body = Buffer.from(await encoded.arrayBuffer());
  const headers: Record<string, string> = {
    "content-type": encoded.headers.get("content-type")!,
    "content-length": String(body.length),
  };
  if (key !== undefined) headers["idempotency-key"] = key;
  const route = path === "/api/uploads" ? await import("@/app/api/uploads/route") : await import("@/app/api/uploads/trainings/route");
  const response = await route.POST(new Request(`https://localhost:3000${path}`, { method: "POST", headers, body }));
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { data?: { id: number } } };
}

const resultCount = async () => (await handle.db.select({ n: count() }).from(results).where(eq(results.ownerUserId, coach.id)))[0].n;

describe("web upload: Idempotency-Key", () => {
  it("the same key and file again (a double submit, a retry after a lost answer) answer the one result; at once, too", async () => {
    const bytes = sessionFile();
    const key = randomUUID();
    const before = await resultCount();
    const first = await post("/api/uploads", bytes, metadata, key);
    expect(first.status).toBe(201);
    const again = await post("/api/uploads", bytes, metadata, key);
    expect(again).toEqual(first);
    expect(await resultCount()).toBe(before + 1);

    // Two submits racing: the second waits for the first's key and replays it.
    const racing = sessionFile();
    const raceKey = randomUUID();
    const both = await Promise.all([post("/api/uploads", racing, metadata, raceKey), post("/api/uploads", racing, metadata, raceKey)]);
    expect(both.map((a) => a.status)).toEqual([201, 201]);
    expect(both[0].body.data!.id).toBe(both[1].body.data!.id);
    expect(await resultCount()).toBe(before + 2);
  });

  it("the same key with another file or other details is 409 idempotency_key_reused and writes nothing", async () => {
    const key = randomUUID();
    expect((await post("/api/uploads", sessionFile(), metadata, key)).status).toBe(201);
    const before = await resultCount();
    const otherFile = await post("/api/uploads", sessionFile(), metadata, key);
    const otherDetails = await post("/api/uploads", sessionFile(), { ...metadata, description: "other" }, key);
    for (const answer of [otherFile, otherDetails])
      expect(answer).toEqual({
        status: 409,
        body: {
          error: "idempotency_key_reused",
          message: "This upload was already sent with another file or other details. Choose the file again to upload it anew.",
          field_errors: {},
          detail: "Idempotency-Key: already used for a different request (another path or body); use a new key for a new request",
        },
      });
    expect(await resultCount()).toBe(before);
  });

  it("a file already uploaded under another key, or without one, is still the 409 naming the existing session", async () => {
    const bytes = sessionFile();
    const first = await post("/api/uploads", bytes, metadata, randomUUID());
    for (const key of [randomUUID(), undefined]) {
      const repeat = await post("/api/uploads", bytes, metadata, key);
      expect(repeat.status).toBe(409);
      expect(repeat.body).toMatchObject({ error: "conflict", existing_result_id: first.body.data!.id });
    }
  });

  it("a refused upload keeps no key: the corrected form with the same key uploads", async () => {
    const bytes = sessionFile();
    const key = randomUUID();
    const refused = await post("/api/uploads", bytes, { ...metadata, track_id: null }, key);
    expect(refused.status).toBe(400);
    expect(await handle.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
    expect((await post("/api/uploads", bytes, metadata, key)).status).toBe(201);
  });

  it("a key that is empty, too long or not printable ASCII is a 400 naming the header", async () => {
    for (const [key, message] of [
      ["", "Idempotency-Key: must not be empty"],
      ["k".repeat(256), "Idempotency-Key: at most 255 characters"],
      ["caf\u00e9", "Idempotency-Key: printable ASCII characters only"],
    ] as const) {
      const answer = await post("/api/uploads", sessionFile(), metadata, key).catch((error: unknown) => ({ status: 0, body: { error } }));
      // A header value outside ISO-8859-1 cannot even be sent; the others reach the route.
      if (answer.status === 0) continue;
      expect(answer).toEqual({ status: 400, body: { error: "invalid", message, field_errors: {} } });
    }
  });

  it("a training's upload: the same key and file answer the one queued training", async () => {
    const { bytes } = simulatedTrainingFile({ spec: "3x30s/30s", seed: 9399, warmupS: 20, cooldownS: 10, keyring });
    const meta = { vessel_id: metadata.vessel_id, title: "Tuesday" };
    const key = randomUUID();
    const first = await post("/api/uploads/trainings", bytes, meta, key);
    expect(first.status).toBe(201);
    expect(await post("/api/uploads/trainings", bytes, meta, key)).toEqual(first);
    expect((await handle.db.select({ n: count() }).from(trainings).where(eq(trainings.ownerUserId, coach.id)))[0].n).toBe(1);
    const reused = await post("/api/uploads/trainings", bytes, { ...meta, title: "Wednesday" }, key);
    expect(reused.status).toBe(409);
    expect(reused.body.error).toBe("idempotency_key_reused");
  });
});
