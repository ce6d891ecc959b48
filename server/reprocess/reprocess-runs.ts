import { and, asc, count, desc, eq, getTableColumns, gt, inArray, isNotNull, lte, max, sql } from "drizzle-orm";
import { z } from "zod";
import { getBlob } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { operatorActions, reprocessRunFailures, reprocessRuns, resultDerived, results, trainings, users, vessels } from "../db/schema";
import { AppError, notFound } from "../errors";
import { sendEvent } from "../events/send-event";
import { resultBlobPrefix } from "../results/delete-result";
import { replaceResultFigures } from "../results/result-figures";
import { InvalidSvcError } from "../svc/errors";
import { getKeyring } from "../config/keyring";
import { ProcessingError } from "../svc/process/errors";
import { processSvc } from "../svc/process/process";
import { processTrainingSvc } from "../svc/process/training";
import type { ProcessedSession } from "../svc/process/types";
import { PROCESSING_CORE_VERSION } from "../svc/process/version";
import type { Keyring, VesselType } from "../svc/types";
import { trainingOriginalKey } from "../trainings/create-training";
import { processStoredTraining } from "../trainings/process-training";
import { isUniqueViolation } from "../db/pg-errors";
import { INT4_MAX } from "../contract/values";

/**
 * Reprocessing runs (docs/processing.md "Reprocessing"): when the processing
 * core changes, the operator has every stored original processed again by
 * the current core. The `reprocess-stored-files` function drives a run in
 * batches; everything it needs to resume lives in the run's row.
 *
 * Each item is one transaction that writes its new figures (or records its
 * failure) AND advances the run's cursor and counters, so a restart resumes
 * after the last item committed and never counts or writes an item twice.
 *
 * A run whose function is lost (an event dropped, a deployment that killed
 * it without retry) would stay active forever: every item moves
 * `last_progress_at`, a run without progress for REPROCESS_STALLED_AFTER_MINUTES
 * is shown as stalled, and the operator can stop it (stopReprocessRun).
 * Every write of a run's steps is guarded by its state, so a late step of a
 * stopped run changes nothing.
 */

/**
 * Minutes without progress after which an active run is shown as stalled.
 * An item takes about a second; the longest legitimate pause is a step's
 * retries (the embedded runner backs off 2 s, 8 s, 32 s; Inngest's retries
 * stay within minutes) or a dead worker's lease expiring (60 s) — well under
 * 15 minutes. See docs/processing.md "Reprocessing".
 */
export const REPROCESS_STALLED_AFTER_MINUTES = 15;

export const isActiveReprocessState = (state: ReprocessRunView["state"]) => state === "queued" || state === "running";

export interface ReprocessRunView {
  id: number;
  state: "queued" | "running" | "completed" | "failed" | "stopped";
  targetCoreVersion: number;
  requestedVia: "web" | "cli";
  total: number;
  done: number;
  failed: number;
  skipped: number;
  lastError: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Created, started or an item counted, whichever was last. */
  lastProgressAt: string;
  /** Active, and no progress for REPROCESS_STALLED_AFTER_MINUTES (by the database's clock). */
  stalled: boolean;
}

export interface ReprocessDeps {
  keyring?: Keyring;
  /** Tests: runs inside an item's transaction after its writes (a throw rolls the item back). */
  beforeCommit?: (tx: Db, resultId: number) => Promise<void>;
  /** Tests: told after each item's transaction committed. */
  afterItem?: (resultId: number, outcome: ItemOutcome) => Promise<void>;
  afterTraining?: (trainingId: number, outcome: ItemOutcome) => Promise<void>;
}

export type ItemOutcome = "done" | "skipped" | "failed";

/** Results per step when the operator gives none: at least 25, and a run never needs more than ~500 steps (Inngest allows 1,000 per run). */
export const chooseBatchSize = (total: number) => Math.max(25, Math.ceil(total / 500));

/** The run's columns and whether it is stalled, against the database clock every instance shares. */
const runColumns = {
  ...getTableColumns(reprocessRuns),
  stalled: sql<boolean>`(${reprocessRuns.state} in ('queued', 'running') and ${reprocessRuns.lastProgressAt} < now() - ${REPROCESS_STALLED_AFTER_MINUTES}::integer * interval '1 minute')`,
};

function view(row: typeof reprocessRuns.$inferSelect & { stalled?: boolean }): ReprocessRunView {
  return {
    id: row.id,
    state: row.state,
    targetCoreVersion: row.targetCoreVersion,
    requestedVia: row.requestedVia,
    total: row.total,
    done: row.done,
    failed: row.failed,
    skipped: row.skipped,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    lastProgressAt: row.lastProgressAt.toISOString(),
    stalled: row.stalled ?? false,
  };
}

/**
 * Queues a run to the current core version. One active run at a time: a
 * partial unique index refuses a second one, whichever instance or command
 * asks (409 conflict naming the active run).
 */
export async function startReprocessRun(
  db: Db,
  input: { requestedByUserId: number | null; via: "web" | "cli"; batchSize?: number },
): Promise<ReprocessRunView> {
  if (input.batchSize !== undefined && (!Number.isInteger(input.batchSize) || input.batchSize < 1 || input.batchSize > 1000)) {
    throw new AppError("invalid", "batch size must be an integer from 1 to 1000");
  }
  try {
    return await db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const [row] = await tx
        .insert(reprocessRuns)
        .values({
          targetCoreVersion: PROCESSING_CORE_VERSION,
          requestedByUserId: input.requestedByUserId,
          requestedVia: input.via,
          batchSize: input.batchSize ?? null,
        })
        .returning();
      // The event id makes a repeated send of this run's event start nothing new.
      await sendEvent(tx, { name: "reprocess/requested", data: { runId: row.id }, id: `reprocess-run-${row.id}` });
      return view(row);
    });
  } catch (error) {
    if (!isUniqueViolation(error, "reprocess_runs_one_active_uq")) throw error;
    const active = await getActiveReprocessRun(db);
    throw new AppError(
      "conflict",
      `A reprocessing run is already in progress${active ? ` (run ${active.id}, ${active.done + active.failed + active.skipped} of ${active.total})` : ""}`,
    );
  }
}

export async function getActiveReprocessRun(db: Db): Promise<ReprocessRunView | null> {
  const [row] = await db
    .select(runColumns)
    .from(reprocessRuns)
    .where(sql`${reprocessRuns.state} in ('queued', 'running')`);
  return row ? view(row) : null;
}

export async function getReprocessRun(db: Db, runId: number): Promise<ReprocessRunView> {
  const [row] = await db.select(runColumns).from(reprocessRuns).where(eq(reprocessRuns.id, runId));
  if (!row) throw notFound("Reprocessing run");
  return view(row);
}

export async function getLatestReprocessRun(db: Db): Promise<ReprocessRunView | null> {
  const [row] = await db.select(runColumns).from(reprocessRuns).orderBy(desc(reprocessRuns.id)).limit(1);
  return row ? view(row) : null;
}

export async function listReprocessFailures(db: Db, runId: number, limit = 50) {
  return db
    .select({ itemKind: reprocessRunFailures.itemKind, itemId: reprocessRunFailures.itemId, error: reprocessRunFailures.error })
    .from(reprocessRunFailures)
    .where(eq(reprocessRunFailures.runId, runId))
    .orderBy(asc(reprocessRunFailures.itemId))
    .limit(limit);
}

/** Stored results and processed trainings by the core version of their figures (null: unknown, stored before versions were recorded). */
export async function countResultsByCoreVersion(
  db: Db,
): Promise<{ current: number; older: number; coreVersion: number; trainings: { current: number; older: number } }> {
  const [training] = await db
    .select({
      current:
        sql<number>`count(*) filter (where ${trainings.status} = 'ready' and ${trainings.processingCoreVersion} = ${PROCESSING_CORE_VERSION})`.mapWith(
          Number,
        ),
      all: count(),
    })
    .from(trainings)
    .where(trainingInScope());
  const [row] = await db
    .select({
      current: sql<number>`count(*) filter (where ${resultDerived.processingCoreVersion} = ${PROCESSING_CORE_VERSION})`.mapWith(Number),
      all: count(),
    })
    .from(results)
    .leftJoin(resultDerived, eq(resultDerived.resultId, results.id))
    .where(isNotNull(results.originalBlobId));
  return {
    current: row.current,
    older: row.all - row.current,
    coreVersion: PROCESSING_CORE_VERSION,
    trainings: { current: training.current, older: training.all - training.current },
  };
}

/**
 * Step "start": fixes the run's scope (results with an original file up to
 * the newest id now; later uploads are made by the current core) and its
 * batch size. Idempotent: a run already running is returned as it is.
 */
export async function beginReprocessRun(db: Db, runId: number): Promise<{ state: ReprocessRunView["state"] }> {
  const run = await getReprocessRun(db, runId);
  if (run.state !== "queued") return { state: run.state };
  if (run.targetCoreVersion !== PROCESSING_CORE_VERSION) {
    // An instance of another release picked it up (a deploy in progress): it cannot produce the target's figures.
    await failReprocessRun(
      db,
      runId,
      `This instance runs processing core v${PROCESSING_CORE_VERSION}; the run asked for v${run.targetCoreVersion}`,
    );
    return { state: "failed" };
  }
  const [scope] = await db
    .select({ maxId: max(results.id), total: count() })
    .from(results)
    .where(isNotNull(results.originalBlobId));
  const [trainingScope] = await db
    .select({ maxId: max(trainings.id), total: count() })
    .from(trainings)
    .where(trainingInScope());
  const total = scope.total + trainingScope.total;
  const [row] = await db
    .update(reprocessRuns)
    .set({
      state: "running",
      startedAt: new Date(),
      lastProgressAt: sql`now()`,
      total,
      maxResultId: scope.maxId ?? 0,
      maxTrainingId: trainingScope.maxId ?? 0,
      batchSize: sql`coalesce(${reprocessRuns.batchSize}, ${chooseBatchSize(total)})`,
    })
    .where(and(eq(reprocessRuns.id, runId), eq(reprocessRuns.state, "queued")))
    .returning({ state: reprocessRuns.state });
  return { state: row?.state ?? (await getReprocessRun(db, runId)).state };
}

/**
 * Step "batch-N": the next `batchSize` results after the cursor. An item
 * already at the target version is skipped; one that cannot be processed is
 * recorded as failed with its reason and keeps its previous figures; the run
 * goes on either way. Errors of the database itself are thrown (the step is
 * retried and resumes after the last committed item).
 */
export async function reprocessNextBatch(
  db: Db,
  runId: number,
  deps: ReprocessDeps = {},
): Promise<{ finished: boolean; attempted: number }> {
  const [run] = await db.select().from(reprocessRuns).where(eq(reprocessRuns.id, runId));
  if (!run || run.state !== "running") return { finished: true, attempted: 0 };
  const batchSize = run.batchSize ?? chooseBatchSize(run.total);
  const ids = await db
    .select({ id: results.id })
    .from(results)
    .where(and(gt(results.id, run.lastResultId), lte(results.id, run.maxResultId ?? 0), isNotNull(results.originalBlobId)))
    .orderBy(asc(results.id))
    .limit(batchSize);
  for (const { id } of ids) {
    const outcome = await reprocessResultInRun(db, run.id, run.targetCoreVersion, id, deps);
    if (outcome === null) return { finished: true, attempted: ids.length }; // another worker has the run (below)
    await deps.afterItem?.(id, outcome);
  }
  if (ids.length > 0) return { finished: false, attempted: ids.length };

  // Results done: the trainings, in the same way.
  const trainingIds = await db
    .select({ id: trainings.id })
    .from(trainings)
    .where(and(gt(trainings.id, run.lastTrainingId), lte(trainings.id, run.maxTrainingId ?? 0), trainingInScope()))
    .orderBy(asc(trainings.id))
    .limit(batchSize);
  for (const { id } of trainingIds) {
    const outcome = await reprocessTrainingInRun(db, run.id, run.targetCoreVersion, id, deps);
    if (outcome === null) return { finished: true, attempted: trainingIds.length };
    await deps.afterTraining?.(id, outcome);
  }
  return { finished: trainingIds.length < batchSize, attempted: trainingIds.length };
}

/** Trainings a run covers: with an original, and processed before (ready, or failed — a newer core may read what an older one could not). Queued ones are made by their own job. */
const trainingInScope = () => and(isNotNull(trainings.originalBlobId), inArray(trainings.status, ["ready", "failed"]));

/** Moves the run past one item and counts it; false when another worker already did (the caller rolls back). */
async function countItem(
  tx: Db,
  runId: number,
  kind: "result" | "training",
  itemId: number,
  outcome: ItemOutcome,
  failure: string | null,
): Promise<boolean> {
  const cursor = kind === "result" ? reprocessRuns.lastResultId : reprocessRuns.lastTrainingId;
  const counted = await tx
    .update(reprocessRuns)
    .set({
      ...(kind === "result" ? { lastResultId: itemId } : { lastTrainingId: itemId }),
      lastProgressAt: sql`now()`,
      ...(outcome === "done" ? { done: sql`${reprocessRuns.done} + 1` } : {}),
      ...(outcome === "skipped" ? { skipped: sql`${reprocessRuns.skipped} + 1` } : {}),
      ...(outcome === "failed" ? { failed: sql`${reprocessRuns.failed} + 1`, lastError: `${kind} ${itemId}: ${failure}` } : {}),
    })
    .where(and(eq(reprocessRuns.id, runId), eq(reprocessRuns.state, "running"), sql`${cursor} < ${itemId}`))
    .returning({ id: reprocessRuns.id });
  if (counted.length === 0) return false;
  if (outcome === "failed")
    await tx.insert(reprocessRunFailures).values({ runId, itemKind: kind, itemId, error: failure! }).onConflictDoNothing();
  return true;
}

/**
 * One training. The core runs first on its own: a file today's core cannot
 * process is recorded as failed and the training keeps its figures (the
 * training's own processing would clear them). Otherwise
 * processStoredTraining replaces sets, strokes, facts and version in its one
 * transaction, and the run's cursor moves inside it (its afterWrites hook).
 */
async function reprocessTrainingInRun(
  db: Db,
  runId: number,
  target: number,
  trainingId: number,
  deps: ReprocessDeps,
): Promise<ItemOutcome | null> {
  const [training] = await db
    .select({
      version: trainings.processingCoreVersion,
      status: trainings.status,
      failureCode: trainings.failureCode,
      failureMessage: trainings.failureMessage,
      vessel: vessels.type,
      sensitivity: trainings.sensitivity,
      templateSnapshot: trainings.templateSnapshot,
    })
    .from(trainings)
    .innerJoin(vessels, eq(vessels.id, trainings.vesselId))
    .where(eq(trainings.id, trainingId));
  const recordOnly = async (outcome: ItemOutcome, failure: string | null) => {
    try {
      return await db.transaction(async (raw) => {
        if (!(await countItem(raw as unknown as Db, runId, "training", trainingId, outcome, failure))) throw new ItemAlreadyCounted();
        return outcome;
      });
    } catch (error) {
      if (error instanceof ItemAlreadyCounted) return null;
      throw error;
    }
  };
  if (
    !training ||
    (training.status === "ready" && training.version === target) ||
    (training.status !== "ready" && training.status !== "failed")
  )
    return recordOnly("skipped", null);

  const original = await getBlob(db, trainingOriginalKey(trainingId));
  if (!original) return recordOnly("failed", "the original file is not stored");
  try {
    const template = training.templateSnapshot as { steps?: NonNullable<Parameters<typeof processTrainingSvc>[1]["steps"]> } | null;
    processTrainingSvc(
      original.bytes,
      { vessel: training.vessel as VesselType, steps: template?.steps, sensitivity: training.sensitivity },
      deps.keyring ?? getKeyring(),
    );
  } catch (error) {
    return recordOnly("failed", reasonOf(error));
  }
  try {
    const outcome = await processStoredTraining(db, trainingId, {
      keyring: deps.keyring,
      afterWrites: async (tx) => {
        if (!(await countItem(tx, runId, "training", trainingId, "done", null))) throw new ItemAlreadyCounted();
      },
    });
    // The core refused it after all (it did not a moment ago): its own processing marked it failed.
    if (outcome.status === "failed") return recordOnly("failed", `cannot be processed: ${outcome.code}`);
    return "done";
  } catch (error) {
    if (!(error instanceof ItemAlreadyCounted)) throw error;
    // Another worker replaced it already, or the run was stopped: undo the "processing" mark this attempt left,
    // back to what the training was (a failed one keeps its failure and reason).
    await db
      .update(trainings)
      .set({ status: training.status, failureCode: training.failureCode, failureMessage: training.failureMessage })
      .where(and(eq(trainings.id, trainingId), eq(trainings.status, "processing")));
    return null;
  }
}

class ItemAlreadyCounted extends Error {}

/**
 * One result, in one transaction with the run's cursor and counters. The
 * run row is updated first, on the condition that its cursor is still
 * before this result: that locks the run, and a worker whose lease was
 * taken over (still writing in its stalled step) finds the cursor past the
 * item and rolls back instead of writing or counting it a second time.
 */
async function reprocessResultInRun(
  db: Db,
  runId: number,
  target: number,
  resultId: number,
  deps: ReprocessDeps,
): Promise<ItemOutcome | null> {
  const before = await readForReprocessing(db, resultId);
  let processed: ProcessedSession | null = null;
  let failure: string | null = null;
  if (before && before.version !== target) {
    try {
      processed = await processStoredResult(db, resultId, before, deps.keyring);
    } catch (error) {
      failure = reasonOf(error);
    }
  }
  try {
    return await db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const now = await tx
        .select({ vesselId: results.vesselId, version: resultDerived.processingCoreVersion })
        .from(results)
        .leftJoin(resultDerived, eq(resultDerived.resultId, results.id))
        .where(eq(results.id, resultId))
        .for("update", { of: results });
      const current = now[0];
      // Gone, already at the target (a correction meanwhile reprocessed it), or its boat class changed under us (that correction reprocessed it too).
      const outcome: ItemOutcome =
        !current || current.version === target || !before || (processed && current.vesselId !== before.vesselId)
          ? "skipped"
          : failure !== null
            ? "failed"
            : "done";
      if (!(await countItem(tx, runId, "result", resultId, outcome, failure))) throw new ItemAlreadyCounted();
      if (outcome === "done") await replaceResultFigures(tx, resultId, processed!, target);
      await deps.beforeCommit?.(tx, resultId);
      return outcome;
    });
  } catch (error) {
    if (error instanceof ItemAlreadyCounted) return null;
    throw error;
  }
}

interface StoredResultFacts {
  vesselId: number;
  vesselType: string;
  targetDistanceM: number | null;
  targetDurationMs: number | null;
  version: number | null;
}

async function readForReprocessing(db: Db, resultId: number): Promise<StoredResultFacts | null> {
  const [row] = await db
    .select({
      vesselId: results.vesselId,
      vesselType: vessels.type,
      targetDistanceM: results.targetDistanceM,
      targetDurationMs: results.targetDurationMs,
      version: resultDerived.processingCoreVersion,
    })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .leftJoin(resultDerived, eq(resultDerived.resultId, results.id))
    .where(eq(results.id, resultId));
  return row ?? null;
}

/** The stored original through today's core, with the boat class and target the result has now (as a correction would). */
async function processStoredResult(db: Db, resultId: number, facts: StoredResultFacts, keyring?: Keyring): Promise<ProcessedSession> {
  const original = await getBlob(db, `${resultBlobPrefix(resultId)}original.svc`);
  if (!original) throw new Error("the original file is not stored");
  const target = facts.targetDistanceM !== null ? { distanceM: facts.targetDistanceM } : { durationMs: facts.targetDurationMs! };
  return processSvc(original.bytes, { vessel: facts.vesselType as VesselType, ...target }, keyring ?? getKeyring());
}

/** A reason the operator can act on; anything the core throws is the item's failure, not the run's. */
function reasonOf(error: unknown): string {
  if (error instanceof InvalidSvcError) return `file corrupt, truncated or not a valid device session (${error.reason})`;
  if (error instanceof ProcessingError) return `cannot be processed: ${error.message}`;
  if (error instanceof Error) return error.message;
  return `processing failed: ${String(error)}`;
}

export async function finishReprocessRun(db: Db, runId: number): Promise<{ state: ReprocessRunView["state"] }> {
  await db
    .update(reprocessRuns)
    .set({ state: "completed", finishedAt: new Date() })
    .where(and(eq(reprocessRuns.id, runId), eq(reprocessRuns.state, "running")));
  return { state: (await getReprocessRun(db, runId)).state };
}

/** The run stops (its function failed for good): it no longer blocks a new run; items already replaced stay replaced. */
export async function failReprocessRun(db: Db, runId: number, message: string): Promise<void> {
  await db
    .update(reprocessRuns)
    .set({ state: "failed", finishedAt: new Date(), lastError: message.slice(0, 500) })
    .where(and(eq(reprocessRuns.id, runId), sql`${reprocessRuns.state} in ('queued', 'running')`));
}

export const ZStopReprocessRun = z.object({
  runId: z.number().int().positive().max(INT4_MAX),
  /** The operator's words; without them the reason says when the run last moved. */
  reason: z.string().trim().max(300, "At most 300 characters").optional(),
});

/**
 * The operator ends a queued or running run, typically a stalled one whose
 * function is lost. One transaction locks the run, marks it `stopped` with
 * who and why in `last_error`, and writes an operator_actions row; the run
 * no longer blocks a new one. Items already reprocessed keep their new
 * figures. If its function is still alive, its next item finds the run not
 * running and writes nothing (an item committing right now finishes first:
 * the stop waits for its row lock). 404 for no such run, 409 when it is over.
 */
export async function stopReprocessRun(
  db: Db,
  by: { userId: number | null; via: "web" | "cli" },
  input: z.input<typeof ZStopReprocessRun>,
): Promise<ReprocessRunView> {
  const { runId, reason } = ZStopReprocessRun.parse(input);
  await db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const [run] = await tx.select(runColumns).from(reprocessRuns).where(eq(reprocessRuns.id, runId)).for("update", { of: reprocessRuns });
    if (!run) throw notFound("Reprocessing run");
    if (!isActiveReprocessState(run.state)) throw new AppError("conflict", `Run ${runId} is already ${run.state}.`);
    const [operator] =
      by.userId === null ? [] : await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, by.userId));
    const lastProgress = `${utc(run.lastProgressAt)} UTC`;
    const why = reason || (run.stalled ? `no progress since ${lastProgress}` : `no reason given (last progress ${lastProgress})`);
    const who =
      by.via === "cli"
        ? "from the command line"
        : `by ${operator ? `${operator.name} (${operator.email})` : "an operator"} on the operator page`;
    await tx
      .update(reprocessRuns)
      .set({ state: "stopped", finishedAt: new Date(), lastError: `Stopped ${who}: ${why}`.slice(0, 500) })
      .where(eq(reprocessRuns.id, runId));
    await tx.insert(operatorActions).values({
      operatorUserId: by.userId,
      targetUserId: null,
      targetEmail: null,
      action: "stop_reprocess",
      details: { runId: String(runId), reason: why, via: by.via },
    });
  });
  return getReprocessRun(db, runId);
}

const utc = (at: Date) => at.toISOString().slice(0, 19).replace("T", " ");
