import { and, asc, desc, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import { getBlob } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { refreshTrainingLoads } from "../load/store-load";
import { athletes, trainingDerived, trainings, trainingSetCorrections, trainingSets, trainingSetStrokes, vessels } from "../db/schema";
import { AppError, notFound } from "../errors";
import { strokeColumns, STROKE_ROWS_PER_INSERT } from "../results/stroke-rows";
import { getKeyring } from "../config/keyring";
import { processTrainingSvc, type ProcessedTraining, type SetSpan } from "../svc/process/training";
import type { Keyring, VesselType } from "../svc/types";
import type { NormalizedTemplate } from "../workouts/template";
import { matchTrainingToPlan } from "../plans/plan-links";
import { emitTrainingEvent } from "../webhooks/emit-event";
import { trainingOriginalKey } from "./create-training";
import {
  applySetOperation,
  inheritIds,
  isDetected,
  reapplyCorrections,
  ZSetOperation,
  type LayoutSet,
  type SetOperation,
} from "./set-layout";
import { trainingVisible } from "./training-view";

/**
 * Corrections of a training's sets by a person (docs/trainings.md
 * "Corrected sets"): merge, split, move a boundary to a stroke, mark as rest
 * or work, and undo. Each is stored with who made it and when; the sets,
 * their strokes, splits and summaries are measured again by the core from
 * the original file, in one transaction with the correction's row and its
 * `training.updated` webhook event (docs/webhooks.md).
 */
export interface CorrectionDeps {
  keyring?: Keyring;
  now?: Date;
  /** Runs inside the writing transaction after every write (tests fail there to prove atomicity). */
  afterWrites?: (tx: Db) => Promise<void>;
}

export interface CorrectionOutcome {
  correctionId: number;
  workSetCount: number;
  /** The layout now, ids included. */
  sets: LayoutSet[];
}

interface TrainingForCorrection {
  id: number;
  ownerUserId: number;
  vessel: string;
  sensitivity: number;
  templateSnapshot: unknown;
  status: string;
}

/**
 * The training if `userId` may correct its sets: its owner and its paddler's
 * own account. Someone who cannot see it gets the same 404 as for a missing
 * one; someone who sees it (a coach of the paddler's team) gets 403.
 */
async function trainingToCorrect(db: Db, userId: number, trainingId: number, lock: boolean): Promise<TrainingForCorrection> {
  const query = db
    .select({
      id: trainings.id,
      ownerUserId: trainings.ownerUserId,
      vessel: vessels.type,
      sensitivity: trainings.sensitivity,
      templateSnapshot: trainings.templateSnapshot,
      status: trainings.status,
      paddlerUserId: athletes.userId,
    })
    .from(trainings)
    .innerJoin(vessels, eq(vessels.id, trainings.vesselId))
    .leftJoin(athletes, eq(athletes.id, trainings.athleteId))
    .where(and(eq(trainings.id, trainingId), trainingVisible(userId)));
  const [row] = lock ? await query.for("update", { of: trainings }) : await query;
  if (!row) throw notFound("Training");
  if (row.ownerUserId !== userId && row.paddlerUserId !== userId)
    throw new AppError("forbidden", "Only the training's owner and its paddler can correct its sets.");
  if (row.status !== "ready") throw new AppError("conflict", "The sets can be corrected once the training is processed.");
  return row;
}

/** The stored sets as a layout, in order. */
export async function storedLayout(db: Db, trainingId: number): Promise<LayoutSet[]> {
  const rows = await db
    .select({
      id: trainingSets.id,
      kind: trainingSets.kind,
      start_s: trainingSets.startS,
      end_s: trainingSets.endS,
      step_index: trainingSets.stepIndex,
    })
    .from(trainingSets)
    .where(eq(trainingSets.trainingId, trainingId))
    .orderBy(asc(trainingSets.position));
  return rows.map((r) => ({ ...r, start_s: round3(r.start_s), end_s: round3(r.end_s) }));
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** Runs the core with the layout's sets as the spans; a file it refused before a correction it will not refuse now, so any error is ours. */
async function measure(
  db: Db,
  training: TrainingForCorrection,
  layout: LayoutSet[],
  keyring: Keyring | undefined,
): Promise<ProcessedTraining> {
  const original = await getBlob(db, trainingOriginalKey(training.id));
  if (!original)
    throw new AppError("unprocessable", "The original file of this training is no longer stored, so its sets cannot be measured again.");
  return measureBytes(original.bytes, training, layout, keyring);
}

function measureBytes(
  bytes: Uint8Array,
  training: Pick<TrainingForCorrection, "vessel" | "sensitivity" | "templateSnapshot">,
  layout: LayoutSet[],
  keyring: Keyring | undefined,
): ProcessedTraining {
  const template = training.templateSnapshot as NormalizedTemplate | null;
  const spans: SetSpan[] = layout.map(({ kind, start_s, end_s, step_index }) => ({ kind, start_s, end_s, step_index }));
  return processTrainingSvc(
    bytes,
    { vessel: training.vessel as VesselType, steps: template?.steps, sensitivity: training.sensitivity, spans },
    keyring ?? getKeyring(),
  );
}

/** Applies one operation to a training's sets; `input` is checked here (a bad one is `invalid` and nothing is written). */
export async function correctTrainingSets(
  db: Db,
  userId: number,
  trainingId: number,
  input: unknown,
  deps: CorrectionDeps = {},
): Promise<CorrectionOutcome> {
  const parsed = ZSetOperation.safeParse(input);
  if (!parsed.success)
    throw new AppError(
      "invalid",
      `Not a set correction: ${parsed.error.issues.map((i) => `${i.path.join(".") || "operation"}: ${i.message}`).join("; ")}`,
    );
  const op = parsed.data;
  await trainingToCorrect(db, userId, trainingId, false);
  const outcome = await db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const training = await trainingToCorrect(tx, userId, trainingId, true);
    const before = await storedLayout(tx, trainingId);
    if (op.op === "move") await checkStroke(tx, trainingId, op.to_s);
    const after = applySetOperation(before, op);
    const processed = await measure(tx, training, after, deps.keyring);
    const stored = await writeLayout(tx, trainingId, after, processed, { needsReview: false, now: deps.now });
    const [row] = await tx
      .insert(trainingSetCorrections)
      .values({ trainingId, userId, operation: op, before, after: stored, createdAt: deps.now ?? new Date() })
      .returning({ id: trainingSetCorrections.id });
    await emitTrainingEvent(tx, "training.updated", trainingId);
    await deps.afterWrites?.(tx);
    return { correctionId: row.id, workSetCount: stored.filter((s) => s.kind === "work").length, sets: stored };
  });
  // The plan's rep-by-rep comparison follows the corrected sets (docs/plans.md); no set changes.
  await matchTrainingToPlan(db, trainingId);
  return outcome;
}

/** A boundary moves to a stroke: `to_s` must be one of the recording's catches (to the millisecond). */
async function checkStroke(tx: Db, trainingId: number, toS: number) {
  const [derived] = await tx
    .select({ catches: trainingDerived.strokeCatches })
    .from(trainingDerived)
    .where(eq(trainingDerived.trainingId, trainingId));
  const catches = (derived?.catches as number[] | null) ?? null;
  if (catches && !catches.some((c) => Math.abs(c - toS) < 0.0015))
    throw new AppError("invalid", "A boundary moves to a stroke: choose one of the recording's strokes.");
}

/** Undoes the latest correction not undone yet: its `before` comes back, ids included. */
export async function undoSetCorrection(db: Db, userId: number, trainingId: number, deps: CorrectionDeps = {}): Promise<CorrectionOutcome> {
  await trainingToCorrect(db, userId, trainingId, false);
  const outcome = await db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const training = await trainingToCorrect(tx, userId, trainingId, true);
    const [last] = await tx
      .select({ id: trainingSetCorrections.id, before: trainingSetCorrections.before })
      .from(trainingSetCorrections)
      .where(and(eq(trainingSetCorrections.trainingId, trainingId), isNull(trainingSetCorrections.undoneAt)))
      .orderBy(desc(trainingSetCorrections.id))
      .limit(1);
    if (!last) throw new AppError("conflict", "There is no correction to undo.");
    const before = last.before as LayoutSet[];
    const processed = await measure(tx, training, before, deps.keyring);
    const stored = await writeLayout(tx, trainingId, before, processed, { needsReview: false, now: deps.now });
    await tx
      .update(trainingSetCorrections)
      .set({ undoneAt: deps.now ?? new Date(), undoneByUserId: userId })
      .where(eq(trainingSetCorrections.id, last.id));
    await emitTrainingEvent(tx, "training.updated", trainingId);
    await deps.afterWrites?.(tx);
    return { correctionId: last.id, workSetCount: stored.filter((s) => s.kind === "work").length, sets: stored };
  });
  // The plan's rep-by-rep comparison follows the corrected sets (docs/plans.md); no set changes.
  await matchTrainingToPlan(db, trainingId);
  return outcome;
}

/** The corrections in force (not undone), oldest first. */
export async function activeCorrections(
  db: Db,
  trainingId: number,
): Promise<{ id: number; operation: SetOperation; before: LayoutSet[]; after: LayoutSet[]; userId: number | null; createdAt: Date }[]> {
  const rows = await db
    .select()
    .from(trainingSetCorrections)
    .where(and(eq(trainingSetCorrections.trainingId, trainingId), isNull(trainingSetCorrections.undoneAt)))
    .orderBy(asc(trainingSetCorrections.id));
  return rows.map((r) => ({
    id: r.id,
    operation: r.operation as SetOperation,
    before: r.before as LayoutSet[],
    after: r.after as LayoutSet[],
    userId: r.userId,
    createdAt: r.createdAt,
  }));
}

/**
 * Reprocessing a corrected training (a new core): the corrections are
 * re-applied to the new detection when their sets' bounds still lie within
 * 2 s of it; otherwise the corrected sets are kept as they are (measured by
 * the new core) and the training is marked as needing review. Corrections
 * are never dropped. Null when the training has no correction in force.
 */
export async function layoutAfterReprocessing(
  db: Db,
  trainingId: number,
  bytes: Uint8Array,
  detected: ProcessedTraining,
  training: Pick<TrainingForCorrection, "vessel" | "sensitivity" | "templateSnapshot">,
  keyring: Keyring | undefined,
): Promise<{ layout: LayoutSet[]; processed: ProcessedTraining; needsReview: boolean; correctionIds: number[] } | null> {
  const corrections = await activeCorrections(db, trainingId);
  if (corrections.length === 0) return null;
  const stored = await storedLayout(db, trainingId);
  const reapplied = reapplyCorrections(
    detected.detected_sets.map((s) => ({ ...s, id: null })),
    corrections,
  );
  // A failed processing in between cleared the sets: the last correction's result is the corrected layout then.
  const kept = stored.length ? stored : corrections[corrections.length - 1].after;
  const layout = reapplied ? inheritIds(reapplied, kept) : kept;
  const [row] = await db.select({ needsReview: trainings.needsReview }).from(trainings).where(eq(trainings.id, trainingId));
  return {
    layout,
    processed: measureBytes(bytes, training, layout, keyring),
    needsReview: reapplied ? (row?.needsReview ?? false) : true,
    correctionIds: corrections.map((c) => c.id),
  };
}

/** Inside the caller's transaction: the corrections in force must still be those the layout was derived from. */
export async function assertSameCorrections(tx: Db, trainingId: number, ids: number[]): Promise<void> {
  const now = await activeCorrections(tx, trainingId);
  if (now.length !== ids.length || now.some((c, k) => c.id !== ids[k]))
    throw new AppError("conflict", "The sets were corrected while the training was being processed; it will be processed again.");
}

/**
 * Writes a layout measured by the core, keeping ids: a set whose id is
 * stored is updated in place, one whose id is gone (an undo brings back a
 * merged-away set) is inserted with it, one without an id gets a new one;
 * stored sets not in the layout are deleted. Strokes, derived figures and
 * the training's facts are replaced. Returns the layout with every id.
 */
export async function writeLayout(
  tx: Db,
  trainingId: number,
  layout: LayoutSet[],
  processed: ProcessedTraining,
  options: { needsReview: boolean; now?: Date },
): Promise<LayoutSet[]> {
  const sets = processed.sets;
  if (sets.length !== layout.length || sets.some((s, k) => s.kind !== layout[k].kind))
    throw new Error(`the core measured ${sets.length} sets for a layout of ${layout.length}`);
  const keep = layout.flatMap((s) => (s.id !== null ? [s.id] : []));
  await tx
    .delete(trainingSets)
    .where(and(eq(trainingSets.trainingId, trainingId), keep.length ? notInArray(trainingSets.id, keep) : undefined));
  // Positions are unique per training: park the surviving rows out of the way before renumbering.
  await tx
    .update(trainingSets)
    .set({ position: sql`-${trainingSets.position}` })
    .where(eq(trainingSets.trainingId, trainingId));
  const existing = new Set(
    (await tx.select({ id: trainingSets.id }).from(trainingSets).where(eq(trainingSets.trainingId, trainingId))).map((r) => r.id),
  );
  const ids: number[] = [];
  for (const [k, s] of sets.entries()) {
    const values = { ...trainingSetRow(trainingId, k + 1, s), corrected: !isDetected(s, processed.detected_sets) };
    const id = layout[k].id;
    if (id !== null && existing.has(id)) {
      await tx.update(trainingSets).set(values).where(eq(trainingSets.id, id));
      ids.push(id);
    } else {
      const [row] = await tx
        .insert(trainingSets)
        .values(id !== null ? { id, ...values } : values)
        .returning({ id: trainingSets.id });
      ids.push(row.id);
    }
  }
  await tx.delete(trainingSetStrokes).where(inArray(trainingSetStrokes.setId, ids));
  const strokeRows = sets.flatMap((s, k) => (s.strokes ?? []).map((stroke, index) => ({ setId: ids[k], ...strokeColumns(stroke, index) })));
  for (let k = 0; k < strokeRows.length; k += STROKE_ROWS_PER_INSERT)
    await tx.insert(trainingSetStrokes).values(strokeRows.slice(k, k + STROKE_ROWS_PER_INSERT));
  const derived = trainingDerivedRow(processed);
  await tx
    .insert(trainingDerived)
    .values({ trainingId, ...derived })
    .onConflictDoUpdate({ target: trainingDerived.trainingId, set: derived });
  await tx
    .update(trainings)
    .set({
      date: processed.date,
      timeOfDay: processed.time_of_day,
      startAt: new Date(processed.start_unix_ms),
      utcOffsetMin: processed.utc_offset_min,
      distanceM: processed.effort.dist,
      durationMs: processed.effort.duration_ms,
      workSetCount: sets.filter((s) => s.kind === "work").length,
      needsReview: options.needsReview,
    })
    .where(eq(trainings.id, trainingId));
  // The load follows the sets and the track it is measured from (docs/load.md "When load is stored").
  await refreshTrainingLoads(tx, trainingId);
  return layout.map((s, k) => ({ ...s, id: ids[k], start_s: sets[k].start_s, end_s: sets[k].end_s, step_index: sets[k].step_index }));
}

/** Every catch of the recording, for "move a boundary to a stroke". */
export function strokeCatchesOf(processed: ProcessedTraining): number[] {
  return processed.strokes.map((s) => round3(s.catch_s));
}

/** Clears "needs review" without changing a set (the person looked and the sets stand). */
export async function markTrainingReviewed(db: Db, userId: number, trainingId: number): Promise<void> {
  await trainingToCorrect(db, userId, trainingId, false);
  await db.update(trainings).set({ needsReview: false }).where(eq(trainings.id, trainingId));
}

/** A processed set as its `training_sets` row (processing and corrections both write through writeLayout). */
function trainingSetRow(trainingId: number, position: number, s: ProcessedTraining["sets"][number]) {
  return {
    trainingId,
    position,
    kind: s.kind,
    startS: s.start_s,
    endS: s.end_s,
    distanceM: s.distance_m,
    durationMs: s.duration_ms,
    strokeCount: s.stroke_count,
    stepIndex: s.step_index,
    complete: s.complete,
    summary: s.summary,
    track: s.track,
    heartRate: s.heart_rate,
  };
}

/** A processed training's `training_derived` columns. */
function trainingDerivedRow(processed: ProcessedTraining) {
  return {
    effortStartS: processed.effort.start_s,
    effortEndS: processed.effort.end_s,
    summary: processed.summary,
    dataQuality: processed.data_quality,
    track: processed.track,
    templateMatch: processed.template_match,
    detectedSets: processed.detected_sets,
    strokeCatches: strokeCatchesOf(processed),
  };
}
