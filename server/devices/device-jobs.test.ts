import { createHash, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAthlete } from "../athletes/athletes";
import { openDb, type DbHandle } from "../db/client";
import { blobs, deviceJobs, oauthApplications, results, resultStrokes } from "../db/schema";
import { openTestDb, usePrivateDatabase } from "../../test/support/test-db";
import { drainEmbeddedRuns } from "../jobs/embedded-runner";
import { uploadResult } from "../results/upload-result";
import * as container from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { consumeDeviceFetch, expireDeviceFetches, getDeviceJobFor, requestDeviceDelete, requestDeviceFetch } from "./device-jobs";

// The real container code, with every decoding entry point watched: the fetch job must call none of them.
vi.mock("../svc/container", async (importOriginal) => {
  const real = await importOriginal<typeof import("../svc/container")>();
  return { ...real, decodeSvc: vi.fn(real.decodeSvc), openPayload: vi.fn(real.openPayload), deriveFileKey: vi.fn(real.deriveFileKey) };
});

const keyring = loadKeyring({});
let handle: DbHandle;
// A database of its own: its work spans the whole database (test/support/test-db.ts usePrivateDatabase).
let dropPrivateDatabase: () => Promise<void> = async () => {};
let owner: SessionUser;
let deviceId: number;
let sessionId: number;
let original: Buffer;
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const drain = () => drainEmbeddedRuns(handle.db, { retryBackoff: () => 0, maxWaitMs: 0, logger: { info() {}, warn() {}, error() {} } });
let appIds: number[];
const requester = () => ({ subjectUserId: owner.id, applicationId: appIds[0] });

/** Two bare data-surface applications of the owner, so jobs can be bound to one and read from the other. */
async function createApplications(ownerId: number): Promise<number[]> {
  const rows = await handle.db
    .insert(oauthApplications)
    .values(
      [1, 2].map((n) => ({
        ownerUserId: ownerId,
        clientId: `test-${randomUUID()}`,
        name: `App ${n}`,
        surface: "data" as const,
        clientType: "public" as const,
        redirectUris: ["https://app.example/cb"],
        scopes: ["devices:files"],
        reviewStatus: "not_required" as const,
      })),
    )
    .returning({ id: oauthApplications.id });
  return rows.map((r) => r.id);
}

beforeAll(async () => {
  dropPrivateDatabase = await usePrivateDatabase();
  handle = await openTestDb();
  owner = await createUser(handle.db, { name: "Owner", email: `owner-${randomUUID()}@test.example`, password: "long enough password" });
  appIds = await createApplications(owner.id);
  const track = await createTrack(handle.db, owner.id, { name: "Basin" });
  const athlete = await createAthlete(handle.db, owner.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" });
  original = Buffer.from(container.encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: 77 }).content, keyring));
  const metadata = JSON.stringify({ distance: 200, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athlete.id] });
  const uploaded = await uploadResult(
    handle.db,
    { user: owner, createdVia: "web", keyPairId: null, file: { filename: "morning.svc", bytes: original }, metadata },
    { keyring },
  );
  sessionId = uploaded.id;
  const [row] = await handle.db.select({ deviceId: results.deviceId }).from(results).where(eq(results.id, sessionId));
  deviceId = row.deviceId!;
  await drain();
});
afterAll(async () => {
  await handle.close();
  await dropPrivateDatabase();
});

describe("device fetch", () => {
  it("copies the stored original byte for byte without decoding it", async () => {
    // The watch works: the upload in beforeAll decoded the file through it.
    expect(container.decodeSvc).toHaveBeenCalled();
    vi.mocked(container.decodeSvc).mockClear();
    vi.mocked(container.openPayload).mockClear();
    vi.mocked(container.deriveFileKey).mockClear();
    const job = await requestDeviceFetch(handle.db, { requester: requester(), deviceId, filename: "morning.svc" });
    expect(job).toMatchObject({ kind: "fetch", state: "queued", sourceResultId: sessionId });
    expect(job.publicId).toMatch(/^dvj_[A-Za-z0-9_-]{22}$/);
    await drain();
    const done = await getDeviceJobFor(handle.db, requester(), job.publicId);
    expect(done).toMatchObject({ state: "succeeded", sha256: sha(original), byteSize: original.byteLength });
    expect(container.decodeSvc).not.toHaveBeenCalled();
    expect(container.openPayload).not.toHaveBeenCalled();
    expect(container.deriveFileKey).not.toHaveBeenCalled();

    // Another application of the same person cannot see or take it.
    await expect(getDeviceJobFor(handle.db, { subjectUserId: owner.id, applicationId: appIds[1] }, job.publicId)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(consumeDeviceFetch(handle.db, { subjectUserId: owner.id, applicationId: appIds[1] }, job.publicId)).rejects.toMatchObject({
      code: "not_found",
    });

    const file = await consumeDeviceFetch(handle.db, requester(), job.publicId);
    expect(file.byteSize).toBe(original.byteLength);
    expect(sha(Buffer.from(await new Response(file.stream).arrayBuffer()))).toBe(sha(original));
    expect(file.filename).toBe("morning.svc");
    await expect(consumeDeviceFetch(handle.db, requester(), job.publicId)).rejects.toMatchObject({ code: "not_found" });
    expect((await getDeviceJobFor(handle.db, requester(), job.publicId)).state).toBe("consumed");
    expect(
      await handle.db
        .select()
        .from(blobs)
        .where(eq(blobs.key, `device-fetch/${job.publicId}`)),
    ).toEqual([]);
  });

  it("a unit or file that is not the person's is not found", async () => {
    await expect(requestDeviceFetch(handle.db, { requester: requester(), deviceId, filename: "other.svc" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      requestDeviceFetch(handle.db, {
        requester: { subjectUserId: owner.id + 100000, applicationId: appIds[0] },
        deviceId,
        filename: "morning.svc",
      }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("50 concurrent downloads: exactly one gets the file", async () => {
    const job = await requestDeviceFetch(handle.db, { requester: requester(), deviceId, filename: "morning.svc" });
    await drain();
    const racing = process.env.DATABASE_URL ? openDb({ databaseUrl: process.env.DATABASE_URL, maxConnections: 25 }) : handle;
    try {
      const attempts = await Promise.allSettled(Array.from({ length: 50 }, () => consumeDeviceFetch(racing.db, requester(), job.publicId)));
      const won = attempts.filter((a) => a.status === "fulfilled");
      expect(won).toHaveLength(1);
      const winner = (won[0] as PromiseFulfilledResult<{ stream: ReadableStream<Uint8Array> }>).value;
      expect(sha(Buffer.from(await new Response(winner.stream).arrayBuffer()))).toBe(sha(original));
      for (const lost of attempts.filter((a) => a.status === "rejected"))
        expect((lost as PromiseRejectedResult).reason).toMatchObject({ code: "not_found" });
    } finally {
      if (racing !== handle) await racing.close();
    }
  });
});

describe("device fetch expiry", () => {
  it("a copy not downloaded in time is deleted and its job expired; delete jobs and fresh copies stay", async () => {
    const job = await requestDeviceFetch(handle.db, { requester: requester(), deviceId, filename: "morning.svc" });
    await drain();
    const [row] = await handle.db
      .select({ expiresAt: deviceJobs.expiresAt, blobKey: deviceJobs.blobKey })
      .from(deviceJobs)
      .where(eq(deviceJobs.publicId, job.publicId));
    expect(row.blobKey).not.toBeNull();
    // Just before its lifetime ends nothing happens.
    await expireDeviceFetches(handle.db, new Date(row.expiresAt!.getTime() - 1000));
    expect((await getDeviceJobFor(handle.db, requester(), job.publicId)).state).toBe("succeeded");
    expect(await expireDeviceFetches(handle.db, new Date(row.expiresAt!.getTime() + 1000))).toBeGreaterThanOrEqual(1);
    expect((await getDeviceJobFor(handle.db, requester(), job.publicId)).state).toBe("expired");
    expect(await handle.db.select().from(blobs).where(eq(blobs.key, row.blobKey!))).toEqual([]);
    await expect(consumeDeviceFetch(handle.db, requester(), job.publicId)).rejects.toMatchObject({ code: "not_found" });
    // A second sweep finds nothing left of it.
    const [after] = await handle.db
      .select({ state: deviceJobs.state, blobKey: deviceJobs.blobKey })
      .from(deviceJobs)
      .where(eq(deviceJobs.publicId, job.publicId));
    expect(after).toEqual({ state: "expired", blobKey: null });
  });
});

describe("device delete", () => {
  it("removes the unit's stored originals; the results keep their processed data", async () => {
    const strokesBefore = await handle.db
      .select({ i: resultStrokes.strokeIndex })
      .from(resultStrokes)
      .where(eq(resultStrokes.resultId, sessionId));
    const job = await requestDeviceDelete(handle.db, { subjectUserId: owner.id, deviceId });
    await drain();
    const done = await getDeviceJobFor(handle.db, { subjectUserId: owner.id, applicationId: null }, job.publicId);
    expect(done).toMatchObject({ kind: "delete", state: "succeeded", deletedFiles: 1 });
    const [row] = await handle.db.select({ blob: results.originalBlobId }).from(results).where(eq(results.id, sessionId));
    expect(row.blob).toBeNull();
    expect(
      await handle.db.select({ i: resultStrokes.strokeIndex }).from(resultStrokes).where(eq(resultStrokes.resultId, sessionId)),
    ).toEqual(strokesBefore);
    await expect(requestDeviceFetch(handle.db, { requester: requester(), deviceId, filename: "morning.svc" })).rejects.toMatchObject({
      code: "not_found",
    });
    const [state] = await handle.db.select({ state: deviceJobs.state }).from(deviceJobs).where(eq(deviceJobs.id, job.id));
    expect(state.state).toBe("succeeded");
  });
});
