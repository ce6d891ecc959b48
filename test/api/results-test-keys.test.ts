import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { simulatedSvc } from "@/e2e/svc-files";
import { athletes, results, tracks } from "@/server/db/schema";
import { createTestKeyPair, createSandbox, listTestKeyPairs, resetSandbox } from "@/server/sandbox/sandbox";
import { listKeyPairs, revokeKeyPair } from "@/server/keys/key-pairs";
import { makeOwnerAndApp } from "@/test/support/oauth-fixtures";
import { apiHarness } from "./harness";
import { call, personWithKey, resultsDocument, send, uploadRequest, type OpenApiCheck, type Person } from "./results-client";

/** A database of the file's own (test/api/harness). */
const harness = apiHarness();

/**
 * Test keys (docs/sandbox.md "Test keys"): a key pair made from the
 * application's page acts as its sandbox person. Through the results API's
 * route handlers, in both directions: a test key cannot read, list, upload
 * against or delete a real person's data, and a real key cannot reach the
 * sandbox person's. Every answer to a known key names its mode in
 * Paddle-Key-Mode.
 */
let api: OpenApiCheck;
let real: Person;
let realTrack: number;
let realAthlete: number;
let realResult: number;
let developer: Awaited<ReturnType<typeof makeOwnerAndApp>>;
let sandboxUserId: number;
let sandboxTrack: number;
let sandboxAthlete: number;
let sandboxResult: number;
let testKey: string;

const metadata = (trackId: number, athleteId: number) =>
  JSON.stringify({ distance: 500, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] });

let seed = 900;
async function upload(authorization: string, trackId: number, athleteId: number) {
  const response = await send(
    await uploadRequest(
      {
        file: { bytes: simulatedSvc({ vessel: "K1", distanceM: 500, seed: seed++ }), filename: "s.svc" },
        metadata: metadata(trackId, athleteId),
      },
      { authorization, "x-forwarded-proto": "https" },
    ),
  );
  return { response, body: await api.check("post", "/results", response) };
}

const get = async (path: string, authorization: string, template: string) => {
  const response = await call("GET", path, { headers: { authorization } });
  return { response, body: await api.check("get", template, response) };
};
const del = async (id: number, authorization: string) => {
  const response = await call("DELETE", `/api/v1/results/${id}`, { headers: { authorization } });
  return { response, body: await api.check("delete", "/results/{id}", response) };
};

beforeAll(async () => {
  api = await resultsDocument();
  const db = harness.db;
  real = await personWithKey("real");
  realTrack = await real.track("Real basin");
  realAthlete = await real.athlete({ name: "Rhea", surname: "Real", subscriptionActiveUntil: "2099-12-31" });
  developer = await makeOwnerAndApp(db);
  const sandbox = await createSandbox(db, developer.owner, developer.application.id, { weeks: 1, sessionsPerWeek: 1 });
  sandboxUserId = sandbox.userId;
  [{ id: sandboxTrack }] = await db.select({ id: tracks.id }).from(tracks).where(eq(tracks.ownerUserId, sandboxUserId));
  [{ id: sandboxAthlete }] = await db.select({ id: athletes.id }).from(athletes).where(eq(athletes.userId, sandboxUserId));
  [{ id: sandboxResult }] = await db.select({ id: results.id }).from(results).where(eq(results.ownerUserId, sandboxUserId));
  const made = await createTestKeyPair(db, developer.owner.id, developer.application.id, { name: "CI upload tests" });
  testKey = `Bearer ${made.keyPair.publicKey}.${made.secretKey}`;
  const uploaded = await upload(real.key.authorization, realTrack, realAthlete);
  expect(uploaded.response.status).toBe(201);
  realResult = uploaded.body.data.id;
}, 60_000);

describe("test keys: made from the application's page, labelled, stored hashed", () => {
  it("acts as the sandbox person, is bound to the application, and is listed as a test key for its owner", async () => {
    const db = harness.db;
    const [listed] = await listTestKeyPairs(db, developer.owner.id, developer.application.id);
    expect(listed).toMatchObject({ name: "CI upload tests", mode: "test", sandboxPerson: true, ownerUserId: sandboxUserId });
    expect(listed.application?.id).toBe(developer.application.id);
    // The owner's keys list shows it, labelled; the owner's own keys are live.
    const ownKey = await personWithKey("developer-own");
    expect((await listKeyPairs(db, ownKey.userId)).map((k) => k.mode)).toEqual(["live"]);
    expect((await listKeyPairs(db, developer.owner.id)).find((k) => k.id === listed.id)?.mode).toBe("test");
    // Nobody else can make one for this application, or see it.
    const stranger = await makeOwnerAndApp(db);
    await expect(createTestKeyPair(db, stranger.owner.id, developer.application.id, { name: "x" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(createTestKeyPair(db, stranger.owner.id, stranger.application.id, { name: "x" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await listTestKeyPairs(db, stranger.owner.id, developer.application.id)).toEqual([]);
    await expect(revokeKeyPair(db, stranger.owner.id, listed.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("every answer to a known key names its mode: test for a test key, live for a real one; a refused credential names none", async () => {
    const testAnswer = await get("/api/v1/results", testKey, "/results");
    expect(testAnswer.response.status).toBe(200);
    expect(testAnswer.response.headers.get("paddle-key-mode")).toBe("test");
    const liveAnswer = await get("/api/v1/results", real.key.authorization, "/results");
    expect(liveAnswer.response.headers.get("paddle-key-mode")).toBe("live");
    // Errors after the key is known carry it too; the bare public key of a reference endpoint as well.
    const missing = await get(`/api/v1/results/${realResult}`, testKey, "/results/{id}");
    expect(missing.response.status).toBe(404);
    expect(missing.response.headers.get("paddle-key-mode")).toBe("test");
    const publicOnly = await get("/api/v1/vessels", `Bearer ${testKey.slice("Bearer ".length).split(".")[0]}`, "/vessels");
    expect(publicOnly.response.status).toBe(200);
    expect(publicOnly.response.headers.get("paddle-key-mode")).toBe("test");
    const refused = await get("/api/v1/results", "Bearer svcpk_unknown.svcsk_unknown", "/results");
    expect(refused.response.status).toBe(401);
    expect(refused.response.headers.get("paddle-key-mode")).toBeNull();
  });
});

describe("a test key cannot reach a real person's data", () => {
  it("list: only the sandbox person's results", async () => {
    const { body } = await get("/api/v1/results?per_page=100", testKey, "/results");
    const ids = body.data.map((r: { id: number }) => r.id);
    expect(ids).toContain(sandboxResult);
    expect(ids).not.toContain(realResult);
  });

  it("get: a real person's result, track and athlete are 404", async () => {
    const result = await get(`/api/v1/results/${realResult}`, testKey, "/results/{id}");
    expect(result.response.status).toBe(404);
    expect(result.body).toMatchObject({ error: "not_found" });
    expect((await get(`/api/v1/tracks/${realTrack}`, testKey, "/tracks/{id}")).response.status).toBe(404);
    expect((await get(`/api/v1/athletes/${realAthlete}`, testKey, "/athletes/{id}")).response.status).toBe(404);
  });

  it("upload: naming a real person's track or athlete is 403 and stores nothing; its own succeed", async () => {
    const before = await harness.db.select({ id: results.id }).from(results);
    const foreignTrack = await upload(testKey, realTrack, sandboxAthlete);
    expect(foreignTrack.response.status).toBe(403);
    expect(foreignTrack.body).toMatchObject({ error: "forbidden", message: `track_id ${realTrack} is unknown or not accessible` });
    const foreignAthlete = await upload(testKey, sandboxTrack, realAthlete);
    expect(foreignAthlete.response.status).toBe(403);
    expect(foreignAthlete.body).toMatchObject({ error: "forbidden" });
    expect(await harness.db.select({ id: results.id }).from(results)).toHaveLength(before.length);

    const own = await upload(testKey, sandboxTrack, sandboxAthlete);
    expect(own.response.status).toBe(201);
    expect(own.response.headers.get("paddle-key-mode")).toBe("test");
    const [row] = await harness.db
      .select({ owner: results.ownerUserId, application: results.createdByApplicationId })
      .from(results)
      .where(eq(results.id, own.body.data.id));
    expect(row).toEqual({ owner: sandboxUserId, application: developer.application.id });
  });

  it("delete: a real person's result is 404 and stays", async () => {
    const refused = await del(realResult, testKey);
    expect(refused.response.status).toBe(404);
    expect(refused.body).toMatchObject({ error: "not_found" });
    expect((await get(`/api/v1/results/${realResult}`, real.key.authorization, "/results/{id}")).response.status).toBe(200);
  });
});

describe("a real key cannot reach the sandbox person", () => {
  it("list: no sandbox result", async () => {
    const { body } = await get("/api/v1/results?per_page=100", real.key.authorization, "/results");
    const ids = body.data.map((r: { id: number }) => r.id);
    expect(ids).toContain(realResult);
    expect(ids).not.toContain(sandboxResult);
  });

  it("get: the sandbox's result, track and athlete are 404", async () => {
    const result = await get(`/api/v1/results/${sandboxResult}`, real.key.authorization, "/results/{id}");
    expect(result.response.status).toBe(404);
    expect(result.body).toMatchObject({ error: "not_found" });
    expect((await get(`/api/v1/tracks/${sandboxTrack}`, real.key.authorization, "/tracks/{id}")).response.status).toBe(404);
    expect((await get(`/api/v1/athletes/${sandboxAthlete}`, real.key.authorization, "/athletes/{id}")).response.status).toBe(404);
  });

  it("upload: naming the sandbox's track or athlete is 403", async () => {
    const foreignTrack = await upload(real.key.authorization, sandboxTrack, realAthlete);
    expect(foreignTrack.response.status).toBe(403);
    expect(foreignTrack.body).toMatchObject({ error: "forbidden", message: `track_id ${sandboxTrack} is unknown or not accessible` });
    const foreignAthlete = await upload(real.key.authorization, realTrack, sandboxAthlete);
    expect(foreignAthlete.response.status).toBe(403);
    expect(foreignAthlete.body).toMatchObject({ error: "forbidden" });
  });

  it("delete: the sandbox's result is 404 and stays", async () => {
    const refused = await del(sandboxResult, real.key.authorization);
    expect(refused.response.status).toBe(404);
    expect((await get(`/api/v1/results/${sandboxResult}`, testKey, "/results/{id}")).response.status).toBe(200);
  });
});

describe("test keys over the sandbox's life", () => {
  it("survive a reset (the new season answers to them), and the owner revokes them", async () => {
    const db = harness.db;
    await resetSandbox(db, developer.owner.id, developer.application.id);
    const after = await get("/api/v1/results", testKey, "/results");
    expect(after.response.status).toBe(200);
    expect(after.body.pagination.total).toBe(1);
    const [listed] = await listTestKeyPairs(db, developer.owner.id, developer.application.id);
    await revokeKeyPair(db, developer.owner.id, listed.id);
    expect((await get("/api/v1/results", testKey, "/results")).response.status).toBe(401);
  }, 60_000);
});
