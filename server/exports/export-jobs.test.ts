import { randomUUID } from "node:crypto";
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import { getBlob } from "../blobs/blob-store";
import type { DbHandle } from "../db/client";
import { blobs, exportJobs, jobRuns } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { requestFingerprint } from "../idempotency/idempotency";
import { drainEmbeddedRuns, relayAppEvents } from "../jobs/embedded-runner";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { buildExport, type ExportOptions } from "./builders";
import { expireExportFiles, getExportJobFor, readExportFile, requestExport, type ExportRequester } from "./export-jobs";

const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let sessionId: number;
let requester: ExportRequester;
const options: ExportOptions = { format: "json", athlete: 1, splits: 4, lang: "en", mode: "full", healthAllowed: true };
/** Works queued runs, but does not wait 24 hours for the expiry sleep. */
const drain = () => drainEmbeddedRuns(handle.db, { retryBackoff: () => 0, maxWaitMs: 0 });

beforeAll(async () => {
  handle = await openTestDb();
  coach = await createUser(handle.db, { name: "Coach", email: `coach-${randomUUID()}@test.example`, password: "long enough password" });
  const athlete = await createAthlete(handle.db, coach.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" });
  const track = await createTrack(handle.db, coach.id, { name: "Basin" });
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: 3 }).content, keyring));
  const uploaded = await uploadResult(
    handle.db,
    {
      user: coach,
      createdVia: "web",
      keyPairId: null,
      file: { filename: "k1.svc", bytes },
      metadata: JSON.stringify({ distance: 200, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athlete.id] }),
    },
    { keyring },
  );
  sessionId = uploaded.id;
  requester = { subjectUserId: coach.id, applicationId: null };
  await drain();
});
afterAll(async () => {
  await handle.close();
});

describe("export jobs", () => {
  it("queues a job, builds the file with the shared builder and serves exactly those bytes", async () => {
    const { job, replayed } = await requestExport(handle.db, {
      requester,
      source: { kind: "session", sessionId },
      options,
      idempotency: null,
    });
    expect(replayed).toBe(false);
    expect(job).toMatchObject({ state: "queued", progress: 0, sourceKind: "session", sourceId: sessionId });
    expect(job.publicId).toMatch(/^exp_[A-Za-z0-9_-]{22}$/);
    await drain();
    const done = await getExportJobFor(handle.db, requester, job.publicId);
    expect(done).toMatchObject({ state: "succeeded", progress: 100, contentType: "application/json" });
    expect(done.expiresAt!.getTime() - done.finishedAt!.getTime()).toBe(24 * 3600_000);
    const file = await readExportFile(handle.db, done);
    const direct = await buildExport(handle.db, { kind: "session", sessionId }, { userId: coach.id }, options);
    expect(file.byteSize).toBe(direct.bytes.byteLength);
    expect(Buffer.compare(Buffer.from(await new Response(file.stream).arrayBuffer()), Buffer.from(direct.bytes))).toBe(0);
    expect(file.filename).toBe(direct.filename);
  });

  it("is bound to its subject and application: anyone else gets not found", async () => {
    const { job } = await requestExport(handle.db, { requester, source: { kind: "session", sessionId }, options, idempotency: null });
    await expect(getExportJobFor(handle.db, { subjectUserId: coach.id, applicationId: 12345 }, job.publicId)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(getExportJobFor(handle.db, { subjectUserId: coach.id + 100000, applicationId: null }, job.publicId)).rejects.toMatchObject(
      { code: "not_found" },
    );
    await expect(readExportFile(handle.db, job)).rejects.toMatchObject({ code: "not_found" });
  });

  it("replays the same job for the same Idempotency-Key", async () => {
    const claim = {
      scope: `web:user:${coach.id}`,
      key: randomUUID(),
      fingerprint: requestFingerprint({ method: "POST", path: `/sessions/${sessionId}/exports`, body: { format: "json" } }),
    };
    const first = await requestExport(handle.db, { requester, source: { kind: "session", sessionId }, options, idempotency: claim });
    const second = await requestExport(handle.db, { requester, source: { kind: "session", sessionId }, options, idempotency: claim });
    expect(second.replayed).toBe(true);
    expect(second.job.publicId).toBe(first.job.publicId);
    await relayAppEvents(handle.db);
    const runs = await handle.db.select().from(jobRuns).where(eq(jobRuns.eventName, "export/requested"));
    expect(runs.filter((run) => run.event.data.exportJobId === first.job.id)).toHaveLength(1);
  });

  it("fails with a message (no stack) when the build fails for good", async () => {
    const { job } = await requestExport(handle.db, {
      requester,
      source: { kind: "session", sessionId },
      options: { ...options, athlete: 4 },
      idempotency: null,
    });
    await drain();
    const failed = await getExportJobFor(handle.db, requester, job.publicId);
    expect(failed.state).toBe("failed");
    expect(failed.error).toMatch(/not found/i);
    expect(failed.error).not.toMatch(/\n\s+at /);
    expect(failed.blobKey).toBeNull();
  });

  it("expires finished files: the status says expired, the file and its blob are gone", async () => {
    const { job } = await requestExport(handle.db, { requester, source: { kind: "session", sessionId }, options, idempotency: null });
    await drain();
    const done = await getExportJobFor(handle.db, requester, job.publicId);
    const later = new Date(done.expiresAt!.getTime() + 1000);
    // Past its lifetime it reads as expired even before the cleanup ran.
    expect((await getExportJobFor(handle.db, requester, job.publicId, later)).state).toBe("expired");
    expect(await expireExportFiles(handle.db, { now: later })).toBeGreaterThanOrEqual(1);
    const [row] = await handle.db.select().from(exportJobs).where(eq(exportJobs.id, job.id));
    expect(row).toMatchObject({ state: "expired", blobKey: null });
    expect(await getBlob(handle.db, done.blobKey!)).toBeNull();
    expect(
      await handle.db
        .select({ key: blobs.key })
        .from(blobs)
        .where(like(blobs.key, `exports/${job.publicId}%`)),
    ).toEqual([]);
    await expect(readExportFile(handle.db, await getExportJobFor(handle.db, requester, job.publicId))).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
