import { emitTrainingEvent } from "../webhooks/emit-event";
import { matchTrainingToPlan } from "../plans/plan-links";
import { eq } from "drizzle-orm";
import { getBlob } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { devices, trainingDerived, trainings, trainingSets, vessels } from "../db/schema";
import { AppError } from "../errors";
import { InvalidSvcError } from "../svc/errors";
import { getKeyring } from "../config/keyring";
import { ProcessingError } from "../svc/process/errors";
import { processTrainingSvc, type ProcessedTraining } from "../svc/process/training";
import type { Keyring, VesselType } from "../svc/types";
import type { NormalizedTemplate } from "../workouts/template";
import { trainingOriginalKey } from "./create-training";
import { assertSameCorrections, layoutAfterReprocessing, storedLayout, writeLayout } from "./set-corrections";
import { isDetected, type LayoutSet } from "./set-layout";

/** Stable codes of a failed training, with the message people read (docs/trainings.md "States"). */
export const TRAINING_FAILURES = {
  invalid_file: "The file is damaged, cut short or not a recording from a paddling sensor.",
  no_sets:
    "No work sets were found: the recording has no stretch of hard paddling long enough to count as a set. Upload it again with a higher sensitivity if the pieces were light.",
  no_speed: "The recording has no usable speed (no satellite fix), so distances and sets cannot be measured.",
  set_incomplete: "The recording ends before its work could be measured.",
  original_missing: "The original file of this training is no longer stored.",
  processing_error: "Processing failed on our side. It will not be retried on its own; contact the operator if it happens again.",
} as const;
export type TrainingFailureCode = keyof typeof TRAINING_FAILURES;

export interface ProcessDeps {
  keyring?: Keyring;
  now?: Date;
  /** Runs inside the writing transaction after every write (tests fail there to prove atomicity). */
  afterWrites?: (tx: Db, trainingId: number) => Promise<void>;
}

export type ProcessOutcome =
  { status: "ready"; workSetCount: number; processingCoreVersion: number } | { status: "failed"; code: TrainingFailureCode };

/** Marks a training as being processed (idempotent; a vanished training is a permanent not_found). */
export async function markTrainingProcessing(db: Db, trainingId: number): Promise<{ status: string }> {
  const [row] = await db
    .update(trainings)
    .set({ status: "processing", failureCode: null, failureMessage: null })
    .where(eq(trainings.id, trainingId))
    .returning({ status: trainings.status });
  if (!row) throw new AppError("not_found", `training ${trainingId} not found`);
  return row;
}

/** A failure with a stable code; earlier figures go with it, so a failed training never shows stale sets. */
export async function markTrainingFailed(db: Db, trainingId: number, code: TrainingFailureCode, now: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    await clearFigures(tx as unknown as Db, trainingId);
    await tx
      .update(trainings)
      .set({ ...EMPTY_FACTS, status: "failed", failureCode: code, failureMessage: TRAINING_FAILURES[code], processedAt: now })
      .where(eq(trainings.id, trainingId));
    await emitTrainingEvent(tx as unknown as Db, "training.failed", trainingId);
  });
}

const EMPTY_FACTS = {
  date: null,
  timeOfDay: null,
  startAt: null,
  utcOffsetMin: null,
  distanceM: null,
  durationMs: null,
  workSetCount: null,
  processingCoreVersion: null,
};

async function clearFigures(tx: Db, trainingId: number) {
  await tx.delete(trainingSets).where(eq(trainingSets.trainingId, trainingId)); // strokes go by cascade
  await tx.delete(trainingDerived).where(eq(trainingDerived.trainingId, trainingId));
}

/**
 * Processes a stored training from its original file: runs the core with the
 * template snapshot and sensitivity, then in ONE transaction replaces the
 * derived data, the sets and their strokes and writes the facts, status
 * `ready` and the core's version. A file the core refuses ends as `failed`
 * with a stable code; anything unexpected throws (the job retries it).
 * Safe to run again: each run replaces what the last one wrote. The first
 * processing that ends ready emits `training.ready`; a later one of a
 * training that was ready (a reprocessing run) emits `training.updated`
 * (docs/webhooks.md "Event types").
 */
export async function processStoredTraining(db: Db, trainingId: number, deps: ProcessDeps = {}): Promise<ProcessOutcome> {
  const now = deps.now ?? new Date();
  const [training] = await db
    .select({
      id: trainings.id,
      ownerUserId: trainings.ownerUserId,
      vessel: vessels.type,
      sensitivity: trainings.sensitivity,
      templateSnapshot: trainings.templateSnapshot,
    })
    .from(trainings)
    .innerJoin(vessels, eq(vessels.id, trainings.vesselId))
    .where(eq(trainings.id, trainingId));
  if (!training) throw new AppError("not_found", `training ${trainingId} not found`);
  await markTrainingProcessing(db, trainingId);

  const original = await getBlob(db, trainingOriginalKey(trainingId));
  if (!original) return fail(db, trainingId, "original_missing", now);
  const template = training.templateSnapshot as NormalizedTemplate | null;
  let processed: ProcessedTraining;
  try {
    processed = processTrainingSvc(
      original.bytes,
      { vessel: training.vessel as VesselType, steps: template?.steps, sensitivity: training.sensitivity },
      deps.keyring ?? getKeyring(),
    );
  } catch (error) {
    if (error instanceof InvalidSvcError) return fail(db, trainingId, "invalid_file", now);
    if (error instanceof ProcessingError)
      return fail(
        db,
        trainingId,
        error.code === "no_speed" ? "no_speed" : error.code === "effort_incomplete" ? "set_incomplete" : "no_sets",
        now,
      );
    throw error;
  }

  // A person corrected the sets: re-apply the corrections, or keep the corrected sets for review (docs/trainings.md "Corrected sets").
  const corrected = await layoutAfterReprocessing(db, trainingId, original.bytes, processed, training, deps.keyring);
  if (corrected) processed = corrected.processed;
  const workSetCount = processed.sets.filter((s) => s.kind === "work").length;
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    // Serializes two processings of one training: the second waits and then replaces the first's figures.
    const [locked] = await t
      .select({ id: trainings.id, coreVersion: trainings.processingCoreVersion })
      .from(trainings)
      .where(eq(trainings.id, trainingId))
      .for("update");
    if (!locked) throw new AppError("not_found", `training ${trainingId} not found`);
    // A core version is stored only while the training's last processing ended ready (a failure clears it):
    // then this run replaces sets an integrator may have read, as a session's reprocessing is a session.updated.
    const wasReady = locked.coreVersion !== null;
    if (corrected) await assertSameCorrections(t, trainingId, corrected.correctionIds);
    const [device] = await t
      .insert(devices)
      .values({
        ownerUserId: training.ownerUserId,
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
    if (corrected) {
      await writeLayout(t, trainingId, corrected.layout, processed, { needsReview: corrected.needsReview });
    } else {
      // A set found again with the same kind and bounds (to the millisecond) keeps its id, so processing again with the
      // same core changes nothing an integrator holds (docs/trainings.md "Corrections are undone exactly"); others are new.
      const stored = await storedLayout(t, trainingId);
      const layout = processed.sets.map((s): LayoutSet => {
        const same = stored.find((o) => isDetected(o, [s]));
        return { id: same?.id ?? null, kind: s.kind, start_s: s.start_s, end_s: s.end_s, step_index: s.step_index };
      });
      await writeLayout(t, trainingId, layout, processed, { needsReview: false });
    }
    await t
      .update(trainings)
      .set({
        status: "ready",
        failureCode: null,
        failureMessage: null,
        processingCoreVersion: processed.processing_core_version,
        deviceId: device.id,
        date: processed.date,
        timeOfDay: processed.time_of_day,
        startAt: new Date(processed.start_unix_ms),
        utcOffsetMin: processed.utc_offset_min,
        distanceM: processed.effort.dist,
        durationMs: processed.effort.duration_ms,
        workSetCount,
        processedAt: now,
      })
      .where(eq(trainings.id, trainingId));
    await emitTrainingEvent(t, wasReady ? "training.updated" : "training.ready", trainingId);
    await deps.afterWrites?.(t, trainingId);
  });
  // Matched to the day's plan after the figures are written, apart from them (docs/plans.md "Matching").
  await matchTrainingToPlan(db, trainingId);
  return { status: "ready", workSetCount, processingCoreVersion: processed.processing_core_version };
}

async function fail(db: Db, trainingId: number, code: TrainingFailureCode, now: Date): Promise<ProcessOutcome> {
  await markTrainingFailed(db, trainingId, code, now);
  return { status: "failed", code };
}
