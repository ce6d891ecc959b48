import { emitExportEvent } from "../webhooks/emit-event";
import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { commitBlob, openBlob, stageBlob } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { exportJobs, type ExportJobState } from "../db/schema";
import { AppError, notFound } from "../errors";
import { withIdempotencyKey, type IdempotencyClaim } from "../idempotency/idempotency";
import { expireJobFiles } from "../blobs/expire-job-files";
import { sendEvent } from "../events/send-event";
import { buildExport, type ExportOptions } from "./builders";
import type { ExportSource } from "./export-source";

/**
 * Export jobs (issue 10, docs/exports.md): the row a client polls, and the
 * steps of the `build-export` function that advance it. Every step is
 * idempotent, because a step runs at least once (docs/jobs.md).
 */

export type ExportJob = typeof exportJobs.$inferSelect;

/** A finished file stays downloadable this long, then it and its blob are deleted. */
export const EXPORT_FILE_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** What pollers are told to wait between status requests (docs/exports.md "Polling"). */
export const EXPORT_RETRY_AFTER_S = 2;

/** Who asks: the token's subject and application, or a web user (application null). */
export interface ExportRequester {
  subjectUserId: number;
  applicationId: number | null;
}

/** The builder the job calls. Only the restart test replaces it, to stop a build midway (export-restart.test.ts). */
export const exportBuilder = { build: buildExport };

/** "exp_" + 128 random bits: not guessable, and not UUID-shaped (the Data API never emits UUIDs). */
export const newExportJobId = () => `exp_${randomBytes(16).toString("base64url")}`;

const sourceColumns = (source: ExportSource) => ({
  sourceKind: source.kind,
  sourceId: source.kind === "session" ? source.sessionId : source.trainingId,
});
export function sourceOf(job: Pick<ExportJob, "sourceKind" | "sourceId">): ExportSource {
  if (job.sourceKind === "session") return { kind: "session", sessionId: job.sourceId };
  if (job.sourceKind === "training") return { kind: "training", trainingId: job.sourceId };
  throw new Error(`Unknown export source kind ${job.sourceKind}`);
}
export function optionsOf(job: ExportJob): ExportOptions {
  return {
    format: job.format as ExportOptions["format"],
    athlete: job.athlete as ExportOptions["athlete"],
    splits: job.splits,
    lang: job.lang as ExportOptions["lang"],
    mode: job.mode as ExportOptions["mode"],
    healthAllowed: job.healthAllowed,
  };
}

/**
 * Queues an export: the job row and its event commit together (with the
 * Idempotency-Key's row when a claim is given), so a job never exists
 * without its run, nor a run without its job. The caller has already checked
 * that the requester may read the source.
 */
export async function requestExport(
  db: Db,
  input: { requester: ExportRequester; source: ExportSource; options: ExportOptions; idempotency: IdempotencyClaim | null },
): Promise<{ job: ExportJob; replayed: boolean }> {
  const { outcome, replayed } = await withIdempotencyKey(db, input.idempotency, async (tx) => {
    const [job] = await tx
      .insert(exportJobs)
      .values({
        publicId: newExportJobId(),
        subjectUserId: input.requester.subjectUserId,
        applicationId: input.requester.applicationId,
        ...sourceColumns(input.source),
        ...input.options,
        state: "queued",
        progress: 0,
      })
      .returning({ id: exportJobs.id, publicId: exportJobs.publicId });
    await sendEvent(tx, { name: "export/requested", data: { exportJobId: job.id } });
    return { kind: "resource" as const, type: "export_job", id: job.publicId };
  });
  if (outcome.kind !== "resource" || outcome.type !== "export_job") throw new Error("Idempotency-Key outcome is not an export job");
  const [job] = await db.select().from(exportJobs).where(eq(exportJobs.publicId, outcome.id));
  // The key outlives nothing it refers to, except a job deleted with its account.
  if (!job) throw notFound("Export");
  return { job: withLazyExpiry(job, new Date()), replayed };
}

/** A succeeded file past its lifetime reads as expired even before the cleanup step has run. */
function withLazyExpiry(job: ExportJob, now: Date): ExportJob {
  if (job.state === "succeeded" && job.expiresAt && job.expiresAt <= now) return { ...job, state: "expired", blobKey: null };
  return job;
}

/**
 * One job as its requester sees it: the job id alone is not a capability; it
 * must also belong to the same subject and the same application (or both web).
 */
export async function getExportJobFor(db: Db, requester: ExportRequester, publicId: string, now = new Date()): Promise<ExportJob> {
  const [job] = await db
    .select()
    .from(exportJobs)
    .where(
      and(
        eq(exportJobs.publicId, publicId),
        eq(exportJobs.subjectUserId, requester.subjectUserId),
        requester.applicationId === null ? isNull(exportJobs.applicationId) : eq(exportJobs.applicationId, requester.applicationId),
      ),
    );
  if (!job) throw notFound("Export");
  return withLazyExpiry(job, now);
}

/** The finished file, as a stream; not found before success, after expiry, or when its blob is gone. */
export async function readExportFile(
  db: Db,
  job: ExportJob,
): Promise<{ stream: ReadableStream<Uint8Array>; byteSize: number; contentType: string; filename: string }> {
  if (job.state !== "succeeded" || !job.blobKey || !job.filename) throw notFound("Export file");
  const blob = await openBlob(db, job.blobKey);
  if (!blob) throw notFound("Export file");
  return { stream: blob.stream, byteSize: blob.byteSize, contentType: job.contentType ?? blob.contentType, filename: job.filename };
}

async function loadJob(db: Db, exportJobId: number): Promise<ExportJob> {
  const [job] = await db.select().from(exportJobs).where(eq(exportJobs.id, exportJobId));
  if (!job) throw notFound("Export");
  return job;
}

/** Step 1: queued → running (a repeat, or a job already past it, changes nothing). */
export async function markExportRunning(db: Db, exportJobId: number): Promise<{ state: ExportJobState }> {
  await db
    .update(exportJobs)
    .set({ state: "running", startedAt: sql`now()`, progress: null })
    .where(and(eq(exportJobs.id, exportJobId), eq(exportJobs.state, "queued")));
  return { state: (await loadJob(db, exportJobId)).state };
}

/**
 * Step 2: build the file with the shared builder and store it: its bytes
 * are staged first, then its blob row and the state change commit together. Idempotent: a job that already succeeded
 * returns its file's reference without building again.
 */
export async function buildAndStoreExport(
  db: Db,
  exportJobId: number,
  now = new Date(),
): Promise<{ blobKey: string; byteSize: number; expiresAt: string }> {
  const job = await loadJob(db, exportJobId);
  if (job.state === "succeeded" && job.blobKey && job.expiresAt)
    return { blobKey: job.blobKey, byteSize: job.byteSize ?? 0, expiresAt: job.expiresAt.toISOString() };
  if (job.state !== "running" && job.state !== "queued") throw new AppError("conflict", `Export is ${job.state}`);
  const file = await exportBuilder.build(db, sourceOf(job), { userId: job.subjectUserId }, optionsOf(job));
  const blobKey = `exports/${job.publicId}`;
  const expiresAt = new Date(now.getTime() + EXPORT_FILE_LIFETIME_MS);
  // The bytes first, then the row with the state change (docs/blobs.md); a crash between leaves content the sweeper removes.
  const content = await stageBlob(db, file.bytes);
  await db.transaction(async (tx) => {
    // A crash after an earlier attempt's commit is caught above; a row left by a rolled-back one cannot exist.
    await commitBlob(tx as unknown as Db, { key: blobKey, content, contentType: file.contentType });
    await tx
      .update(exportJobs)
      .set({
        state: "succeeded",
        progress: 100,
        blobKey,
        contentType: file.contentType,
        filename: file.filename,
        byteSize: file.bytes.byteLength,
        finishedAt: now,
        expiresAt,
      })
      .where(eq(exportJobs.id, exportJobId));
    await emitExportEvent(tx as unknown as Db, "export.completed", exportJobId);
  });
  return { blobKey, byteSize: file.bytes.byteLength, expiresAt: expiresAt.toISOString() };
}

/** The job failed for good: a message for clients (never a stack trace). */
export async function markExportFailed(db: Db, exportJobId: number, message: string): Promise<void> {
  await db.transaction(async (tx) => {
    const failed = await tx
      .update(exportJobs)
      .set({ state: "failed", error: message.slice(0, 500), progress: null, finishedAt: sql`now()` })
      .where(and(eq(exportJobs.id, exportJobId), inArray(exportJobs.state, ["queued", "running"])))
      .returning({ id: exportJobs.id });
    if (failed.length) await emitExportEvent(tx as unknown as Db, "export.failed", exportJobId);
  });
}

/**
 * Deletes the files of every succeeded export past its lifetime (at most
 * `limit`), marking them expired; returns how many. The `build-export`
 * function calls it when its own file expires, so one overdue cleanup also
 * catches any other that was missed.
 */
export async function expireExportFiles(db: Db, options: { now?: Date; limit?: number } = {}): Promise<number> {
  return expireJobFiles(db, exportJobs, { now: options.now ?? new Date(), limit: options.limit });
}
