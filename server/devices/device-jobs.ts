import { emitDeviceJobCompleted } from "../webhooks/emit-event";
import { randomBytes } from "node:crypto";
import { and, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { commitBlob, deleteBlobs, openBlobContent, touchBlobContent } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { blobs, deviceJobs, results, type DeviceJobKind } from "../db/schema";
import { notFound } from "../errors";
import { expireJobFiles } from "../blobs/expire-job-files";
import { sendEvent } from "../events/send-event";
import { getOwnDevice } from "./devices";

/**
 * Device file jobs (issue 10, docs/exports.md "Device files"). A fetch copies
 * one stored original .svc file — the encrypted bytes exactly as uploaded,
 * never decoded — into a private temporary blob that can be downloaded
 * once. A delete removes the stored originals of one unit; the results keep
 * their processed data.
 */

export type DeviceJob = typeof deviceJobs.$inferSelect;

/** A fetched copy not downloaded within this time is deleted. */
export const DEVICE_FETCH_LIFETIME_MS = 60 * 60 * 1000;

/** Who asks: the unit's owner, through an application (fetch) or the web app (null). */
export interface DeviceJobRequester {
  subjectUserId: number;
  applicationId: number | null;
}

/** "dvj_" + 128 random bits, like export job ids. */
const newDeviceJobId = () => `dvj_${randomBytes(16).toString("base64url")}`;

async function insertJob(
  db: Db,
  values: { kind: DeviceJobKind; requester: DeviceJobRequester; deviceId: number; filename?: string; sourceResultId?: number },
): Promise<DeviceJob> {
  const [job] = await db
    .insert(deviceJobs)
    .values({
      publicId: newDeviceJobId(),
      kind: values.kind,
      subjectUserId: values.requester.subjectUserId,
      applicationId: values.requester.applicationId,
      deviceId: values.deviceId,
      filename: values.filename ?? null,
      sourceResultId: values.sourceResultId ?? null,
    })
    .returning();
  await sendEvent(db, { name: "device/job-requested", data: { deviceJobId: job.id } });
  return job;
}

/**
 * Queues a copy of one original file of the requester's unit. With several
 * uploads of the same name, the newest is meant (the manifest's first).
 * A unit or file that is not theirs is not found.
 */
export async function requestDeviceFetch(
  db: Db,
  input: { requester: DeviceJobRequester; deviceId: number; filename: string },
): Promise<DeviceJob> {
  await getOwnDevice(db, input.requester.subjectUserId, input.deviceId);
  const [file] = await db
    .select({ resultId: results.id })
    .from(results)
    .where(
      and(
        eq(results.deviceId, input.deviceId),
        eq(results.ownerUserId, input.requester.subjectUserId),
        eq(results.originalFilename, input.filename),
        isNotNull(results.originalBlobId),
      ),
    )
    .orderBy(desc(results.createdAt), desc(results.id))
    .limit(1);
  if (!file) throw notFound("Device file");
  return db.transaction((tx) =>
    insertJob(tx, {
      kind: "fetch",
      requester: input.requester,
      deviceId: input.deviceId,
      filename: input.filename,
      sourceResultId: file.resultId,
    }),
  );
}

/** Queues the deletion of every stored original of one of the requester's units (web app only). */
export async function requestDeviceDelete(db: Db, input: { subjectUserId: number; deviceId: number }): Promise<DeviceJob> {
  await getOwnDevice(db, input.subjectUserId, input.deviceId);
  return db.transaction((tx) =>
    insertJob(tx, { kind: "delete", requester: { subjectUserId: input.subjectUserId, applicationId: null }, deviceId: input.deviceId }),
  );
}

/** A job as its requester sees it: same person and same application (or both web), else not found. */
export async function getDeviceJobFor(db: Db, requester: DeviceJobRequester, publicId: string, now = new Date()): Promise<DeviceJob> {
  const [job] = await db
    .select()
    .from(deviceJobs)
    .where(
      and(
        eq(deviceJobs.publicId, publicId),
        eq(deviceJobs.subjectUserId, requester.subjectUserId),
        requester.applicationId === null ? isNull(deviceJobs.applicationId) : eq(deviceJobs.applicationId, requester.applicationId),
      ),
    );
  if (!job) throw notFound("Device job");
  if (job.state === "succeeded" && job.kind === "fetch" && job.expiresAt && job.expiresAt <= now)
    return { ...job, state: "expired", blobKey: null };
  return job;
}

async function loadJob(db: Db, deviceJobId: number): Promise<DeviceJob> {
  const [job] = await db.select().from(deviceJobs).where(eq(deviceJobs.id, deviceJobId));
  if (!job) throw notFound("Device job");
  return job;
}

/**
 * The fetch step: the job's own blob for the original's stored bytes, byte
 * for byte (no decoding, no decryption: the bytes are never even read). The
 * store keeps bytes by content, so the private copy is a second row naming
 * the original's content; it outlives a later delete of the original until
 * it is downloaded or expires. Idempotent: a finished copy is returned.
 */
export async function copyOriginalForFetch(
  db: Db,
  deviceJobId: number,
  now = new Date(),
): Promise<{ byteSize: number; sha256: string; expiresAt: string }> {
  const job = await loadJob(db, deviceJobId);
  if (job.state === "succeeded" && job.sha256 && job.expiresAt)
    return { byteSize: job.byteSize ?? 0, sha256: job.sha256, expiresAt: job.expiresAt.toISOString() };
  const blobKey = `device-fetch/${job.publicId}`;
  const expiresAt = new Date(now.getTime() + DEVICE_FETCH_LIFETIME_MS);
  return db.transaction(async (tx) => {
    // Locks the original's row, so a concurrent delete job cannot remove it between this read and the copy's insert.
    const [original] = await tx
      .select({ byteSize: blobs.byteSize, sha256: blobs.sha256 })
      .from(results)
      .innerJoin(blobs, eq(blobs.id, results.originalBlobId))
      .where(and(eq(results.id, job.sourceResultId ?? 0), eq(results.ownerUserId, job.subjectUserId), eq(results.deviceId, job.deviceId)))
      .for("share", { of: blobs });
    if (!original) throw notFound("Device file");
    const copy = await commitBlob(tx as unknown as Db, { key: blobKey, content: original, contentType: "application/octet-stream" });
    await tx
      .update(deviceJobs)
      .set({ state: "succeeded", blobKey, byteSize: copy.byteSize, sha256: copy.sha256, finishedAt: now, expiresAt })
      .where(eq(deviceJobs.id, deviceJobId));
    await emitDeviceJobCompleted(tx as unknown as Db, deviceJobId);
    return { byteSize: copy.byteSize, sha256: copy.sha256, expiresAt: expiresAt.toISOString() };
  });
}

/**
 * The delete step: detaches and deletes every stored original of the unit
 * (results keep their processed data, strokes and summaries). Idempotent.
 */
export async function deleteDeviceOriginals(db: Db, deviceJobId: number): Promise<{ deletedFiles: number }> {
  const job = await loadJob(db, deviceJobId);
  if (job.state === "succeeded") return { deletedFiles: job.deletedFiles ?? 0 };
  return db.transaction(async (tx) => {
    const originals = await tx
      .select({ resultId: results.id, blobId: results.originalBlobId })
      .from(results)
      .where(and(eq(results.deviceId, job.deviceId), eq(results.ownerUserId, job.subjectUserId), isNotNull(results.originalBlobId)))
      .for("update");
    const blobIds = originals.flatMap((row) => (row.blobId === null ? [] : [row.blobId]));
    if (originals.length) {
      await tx
        .update(results)
        .set({ originalBlobId: null })
        .where(
          inArray(
            results.id,
            originals.map((row) => row.resultId),
          ),
        );
      await tx.delete(blobs).where(inArray(blobs.id, blobIds));
    }
    await tx
      .update(deviceJobs)
      .set({ state: "succeeded", deletedFiles: blobIds.length, finishedAt: sql`now()` })
      .where(eq(deviceJobs.id, deviceJobId));
    await emitDeviceJobCompleted(tx as unknown as Db, deviceJobId);
    return { deletedFiles: blobIds.length };
  });
}

/** Marks a job running (queued only), or failed with a message for people. */
export async function markDeviceJobRunning(db: Db, deviceJobId: number): Promise<void> {
  await db
    .update(deviceJobs)
    .set({ state: "running" })
    .where(and(eq(deviceJobs.id, deviceJobId), eq(deviceJobs.state, "queued")));
}
export async function markDeviceJobFailed(db: Db, deviceJobId: number, message: string): Promise<void> {
  await db.transaction(async (tx) => {
    const failed = await tx
      .update(deviceJobs)
      .set({ state: "failed", error: message.slice(0, 500), finishedAt: sql`now()` })
      .where(and(eq(deviceJobs.id, deviceJobId), inArray(deviceJobs.state, ["queued", "running"])))
      .returning({ id: deviceJobs.id });
    if (failed.length) await emitDeviceJobCompleted(tx as unknown as Db, deviceJobId);
  });
}

/**
 * The one download of a fetched copy: the state change and the copy's
 * deletion commit together, so of any number of concurrent attempts exactly
 * one gets the file (the others wait on the row, then find it consumed) and
 * a crash before the commit leaves the copy downloadable. The bytes are
 * opened in the transaction and stream after the commit, which also restarts
 * their content's grace period (docs/blobs.md): the sweeper leaves them to
 * the download even though no row names them any more.
 */
export async function consumeDeviceFetch(
  db: Db,
  requester: DeviceJobRequester,
  publicId: string,
): Promise<{ stream: ReadableStream<Uint8Array>; byteSize: number; filename: string }> {
  let opened: ReadableStream<Uint8Array> | null = null;
  const consumed = await db
    .transaction(async (tx) => {
      // FOR UPDATE: a concurrent attempt waits here, then re-reads the row as consumed and finds nothing.
      const [job] = await tx
        .select({ id: deviceJobs.id, blobKey: deviceJobs.blobKey, filename: deviceJobs.filename })
        .from(deviceJobs)
        .where(
          and(
            eq(deviceJobs.publicId, publicId),
            eq(deviceJobs.kind, "fetch"),
            eq(deviceJobs.state, "succeeded"),
            sql`${deviceJobs.expiresAt} > now()`,
            eq(deviceJobs.subjectUserId, requester.subjectUserId),
            requester.applicationId === null ? isNull(deviceJobs.applicationId) : eq(deviceJobs.applicationId, requester.applicationId),
          ),
        )
        .for("update");
      if (!job?.blobKey) throw notFound("Device file");
      const [copy] = await tx.select({ sha256: blobs.sha256, byteSize: blobs.byteSize }).from(blobs).where(eq(blobs.key, job.blobKey));
      if (!copy) throw notFound("Device file");
      await tx
        .update(deviceJobs)
        .set({ state: "consumed", consumedAt: sql`now()`, blobKey: null })
        .where(eq(deviceJobs.id, job.id));
      await touchBlobContent(tx as unknown as Db, copy.sha256);
      await deleteBlobs(tx, [job.blobKey]);
      // Opened before the commit (object storage that cannot serve it leaves the copy unconsumed);
      // Postgres-held bytes are read after it, on the pool (this transaction's connection is gone by then).
      opened = await openBlobContent(tx as unknown as Db, copy, db);
      if (!opened) throw notFound("Device file");
      return { stream: opened, byteSize: copy.byteSize, filename: job.filename ?? "original.svc" };
    })
    .catch(async (error: unknown) => {
      // The commit failed after the bytes were opened: release the object storage connection.
      await (opened as ReadableStream<Uint8Array> | null)?.cancel().catch(() => undefined);
      throw error;
    });
  return consumed;
}

/** Deletes fetched copies never downloaded in time, marking them expired; returns how many. */
export async function expireDeviceFetches(db: Db, now = new Date()): Promise<number> {
  return expireJobFiles(db, deviceJobs, { now, where: eq(deviceJobs.kind, "fetch") });
}
