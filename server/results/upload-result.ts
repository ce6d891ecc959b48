import { emitSessionEvent } from "../webhooks/emit-event";
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { commitBlob, stageBlob, type StagedContent } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { isForeignKeyViolation, isUniqueViolation } from "../db/pg-errors";
import { refreshResultLoads } from "../load/store-load";
import { devices, resultCrew, resultDerived, results, resultWeather } from "../db/schema";
import { AppError } from "../errors";
import { sendEvent } from "../events/send-event";
import { InvalidSvcError } from "../svc/errors";
import { getKeyring } from "../config/keyring";
import { ProcessingError } from "../svc/process/errors";
import { processSvc } from "../svc/process/process";
import type { ProcessedSession } from "../svc/process/types";
import type { Keyring, VesselType } from "../svc/types";
import type { SessionUser } from "../users/users";
import { resultBlobPrefix } from "./delete-result";
import {
  checkUploadAgainstDatabase,
  lockUploadReferences,
  parseUploadMetadata,
  type ResolvedUpload,
  type UploadMetadata,
} from "./upload-metadata";
import { derivedRow, effortColumns } from "./result-figures";
import { insertStrokeRows } from "./stroke-rows";

export interface UploadInput {
  user: SessionUser;
  createdVia: "web" | "api" | "demo";
  keyPairId: number | null;
  /** Application the key pair is bound to (Data API "session" surface). */
  applicationId?: number | null;
  file: { filename: string | null; bytes: Buffer } | null;
  /** The metadata part as sent: a JSON object in a string. */
  metadata: string | undefined;
}

export interface UploadedResult {
  id: number;
  dist: number;
  date: string;
  time_of_day: string;
  duration: number;
  software_version: string;
  vessel: { id: number; type: string; npeople: number };
  track: { id: number; name: string };
  athletes_count: number;
}

/**
 * An upload, end to end (docs/results-api.md "POST /results"): permission,
 * file and metadata rules, database rules, processing in the request, then
 * the result, its crew, weather, strokes, derived data, device and original
 * file in one transaction — with the replay job queued in the same
 * transaction, so a failure at any point leaves nothing behind.
 */
export interface UploadDeps {
  keyring?: Keyring;
  now?: Date;
  /** Runs inside the transaction after every write (tests use it to fail at the last moment). */
  afterWrites?: (tx: Db, resultId: number) => Promise<void>;
  /** The file's bytes, already staged by a caller that runs the upload inside its own transaction (docs/blobs.md). */
  stagedOriginal?: StagedContent;
}

export async function uploadResult(db: Db, input: UploadInput, deps: UploadDeps = {}): Promise<UploadedResult> {
  if (!input.user.canCreateSessions) throw new AppError("forbidden", "Your role does not allow creating sessions (permission accesoNuevo)");
  if (!input.file || input.file.bytes.length === 0)
    throw new AppError("invalid", "file part missing or empty", { file: ["Choose the .svc file"] });
  if (!input.file.filename || !/\.svc$/i.test(input.file.filename))
    throw new AppError("invalid", "the file name must end in .svc", { file: ["The file name must end in .svc"] });
  const meta = parseUploadMetadata(input.metadata);
  const now = deps.now ?? new Date();
  const sha256 = createHash("sha256").update(input.file.bytes).digest("hex");
  const resolved = await checkUploadAgainstDatabase(db, input.user, meta, now.toISOString().slice(0, 10));
  await refuseRepeatedFile(db, input.user.id, sha256);

  let processed: ProcessedSession;
  try {
    // Supported vessel rows are exactly the six types the core knows (migration 0001).
    processed = processSvc(
      input.file.bytes,
      {
        vessel: resolved.vessel.type as VesselType,
        ...(meta.distanceM !== null ? { distanceM: meta.distanceM } : { durationMs: meta.durationMs! }),
      },
      deps.keyring ?? getKeyring(),
    );
  } catch (error) {
    if (error instanceof InvalidSvcError)
      throw new AppError("unprocessable", `file corrupt, truncated or not a valid device session (${error.reason})`);
    if (error instanceof ProcessingError) throw new AppError("unprocessable", `the session cannot be processed: ${error.message}`);
    throw error;
  }

  // The file's bytes first, then the result with its blob row (docs/blobs.md "Consistency"):
  // a failed transaction leaves only content that no row names, which the sweeper removes.
  const original = deps.stagedOriginal ?? (await stageBlob(db, input.file.bytes));
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      // The track or an athlete may have been deleted since the check above.
      await lockUploadReferences(tx as unknown as Db, input.user, meta);
      const resultId = await storeResult(tx as unknown as Db, { input, meta, resolved, processed, sha256, now, original });
      await deps.afterWrites?.(tx as unknown as Db, resultId);
      return resultId;
    });
  } catch (error) {
    // Two uploads of one file raced past the first check: the unique index let one win.
    if (isUniqueViolation(error, "results_owner_original_sha256_uq")) await refuseRepeatedFile(db, input.user.id, sha256);
    // Should the lock ever be bypassed, a vanished reference still gets the 403 of a missing one, not a 500.
    if (isForeignKeyViolation(error)) await lockUploadReferences(db, input.user, meta);
    throw error;
  }
  return {
    id,
    dist: processed.effort.dist,
    date: processed.date,
    time_of_day: processed.time_of_day,
    duration: processed.effort.duration_ms,
    software_version: processed.device.firmware,
    vessel: { id: resolved.vessel.id, type: resolved.vessel.type, npeople: resolved.vessel.npeople },
    track: resolved.track,
    athletes_count: meta.crew.filter((c) => c.kind === "internal").length,
  };
}

/**
 * The same original file (SHA-256 of its bytes) stored twice by one owner is a
 * retry or a mistake, never a second session: 409 naming the existing result
 * (issue 14, defect 13). A unique index enforces it under concurrency.
 */
async function refuseRepeatedFile(db: Db, ownerUserId: number, sha256: string): Promise<void> {
  const [existing] = await db
    .select({ id: results.id })
    .from(results)
    .where(and(eq(results.ownerUserId, ownerUserId), eq(results.originalSha256, sha256)));
  if (!existing) return;
  const message = `this file was already uploaded: it is result ${existing.id}`;
  throw new AppError("conflict", message, { file: [message] }, { existing_result_id: existing.id });
}

interface StoreInput {
  input: UploadInput;
  meta: UploadMetadata;
  resolved: ResolvedUpload;
  processed: ProcessedSession;
  sha256: string;
  now: Date;
  /** The original file's bytes, already staged in the blob store. */
  original: StagedContent;
}

async function storeResult(tx: Db, { input, meta, resolved, processed, sha256, now, original }: StoreInput): Promise<number> {
  const [device] = await tx
    .insert(devices)
    .values({
      ownerUserId: input.user.id,
      hardwareModel: processed.device.hardware_model,
      serial: processed.device.serial,
      firmware: processed.device.firmware,
      lastSeenAt: now,
    })
    .onConflictDoUpdate({
      target: [devices.ownerUserId, devices.serial],
      set: { firmware: processed.device.firmware, hardwareModel: processed.device.hardware_model, lastSeenAt: now },
    })
    .returning({ id: devices.id });

  const [result] = await tx
    .insert(results)
    .values({
      ownerUserId: input.user.id,
      deviceId: device.id,
      trackId: resolved.track.id,
      vesselId: resolved.vessel.id,
      categoryId: meta.categoryId,
      paceId: meta.paceId,
      createdVia: input.createdVia,
      keyPairId: input.keyPairId,
      createdByApplicationId: input.applicationId ?? null,
      ...effortColumns(processed),
      targetDistanceM: meta.distanceM,
      targetDurationMs: meta.durationMs,
      competition: meta.competition,
      description: meta.description,
      important: meta.important,
      status: "processed",
      softwareVersion: processed.device.firmware,
      hardware: processed.device.hardware,
      hardwareModel: processed.device.hardware_model,
      originalFilename: input.file!.filename,
      originalSha256: sha256,
    })
    .returning({ id: results.id });

  await tx.insert(resultCrew).values(
    meta.crew.map((seat, index) =>
      seat.kind === "internal"
        ? { resultId: result.id, seat: index + 1, athleteId: seat.athleteId }
        : {
            resultId: result.id,
            seat: index + 1,
            externalName: seat.name,
            externalSurname: seat.surname,
            externalWeightKg: seat.weightKg,
          },
    ),
  );
  if (meta.meteo) await tx.insert(resultWeather).values({ resultId: result.id, ...meta.meteo });
  await insertStrokeRows(tx, result.id, processed.strokes);
  await tx.insert(resultDerived).values({ resultId: result.id, ...derivedRow(processed) });
  await refreshResultLoads(tx, result.id);
  const blob = await commitBlob(tx, {
    key: `${resultBlobPrefix(result.id)}original.svc`,
    content: original,
    contentType: "application/octet-stream",
  });
  await tx.update(results).set({ originalBlobId: blob.id }).where(eq(results.id, result.id));
  await sendEvent(tx, { name: "result/stored", data: { resultId: result.id } });
  await emitSessionEvent(tx, "session.created", result.id);
  return result.id;
}
