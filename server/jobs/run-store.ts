import { and, asc, count, eq, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Db } from "../db/client";
import { jobRuns, jobSteps, type SerializedJobError, type StoredJobEvent } from "../db/schema";
import type { FinishedStep, MemoizedStep, PlannedSleep } from "./execute-function";

/**
 * Every statement the embedded runner makes against job_runs and job_steps.
 * Ownership of a run is a lease: claimed atomically, renewed while the
 * worker is busy, and checked by every write, so a worker that lost its run
 * (it stalled past the lease and another took over) can never record
 * anything for it again.
 */

/**
 * Postgres jsonb cannot hold U+0000, so a step output or error carrying one
 * (an error message quoting hostile input, say) would fail the write and
 * leave the run stuck. Such characters are stored as U+FFFD instead.
 */
export function storableJson<T>(value: T): T {
  if (typeof value === "string") return (value.includes("\u0000") ? value.replaceAll("\u0000", "\uFFFD") : value) as T;
  if (Array.isArray(value)) return value.map(storableJson) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [storableJson(key), storableJson(v)])) as T;
  }
  return value;
}

/** A worker's hold on a run. */
export interface Lease {
  runId: string;
  workerId: string;
}

export interface ClaimedRun {
  id: string;
  functionId: string;
  event: StoredJobEvent;
  attempt: number;
  leaseExpiries: number;
}

/** The run was taken over by another worker (or finished); this worker must stop touching it. */
export class LeaseLostError extends Error {
  constructor(runId: string) {
    super(`Lost the lease on job run ${runId}`);
    this.name = "LeaseLostError";
  }
}

/** Database time plus `ms`: leases compare against one clock, the database's, whichever instance wrote them. */
function msFromNow(ms: number): SQL {
  return sql`now() + ${Math.round(ms)}::integer * interval '1 millisecond'`;
}

function heldBy(lease: Lease): SQL | undefined {
  return and(eq(jobRuns.id, lease.runId), eq(jobRuns.leaseOwner, lease.workerId), eq(jobRuns.status, "running"));
}

/** Queues one run per function; an event id already queued for a function is skipped (idempotent re-send). */
export async function insertRuns(db: Db, functionIds: readonly string[], event: StoredJobEvent): Promise<string[]> {
  if (!functionIds.length) return [];
  const rows = await db
    .insert(jobRuns)
    .values(functionIds.map((functionId) => ({ functionId, eventId: event.id, eventName: event.name, event })))
    .onConflictDoNothing({ target: [jobRuns.eventId, jobRuns.functionId] })
    .returning({ id: jobRuns.id });
  return rows.map((row) => row.id);
}

/**
 * Takes the next runnable run of one of `functionIds`: queued and due, or
 * running under a lease that expired (its worker died). One statement:
 * FOR UPDATE SKIP LOCKED lets concurrent workers pass each other by, and
 * the lease makes the claim visible to all of them once committed.
 */
export async function claimNextRun(
  db: Db,
  options: { workerId: string; functionIds: readonly string[]; leaseMs: number },
): Promise<ClaimedRun | null> {
  if (!options.functionIds.length) return null;
  const next = db
    .select({ id: jobRuns.id })
    .from(jobRuns)
    .where(
      and(
        inArray(jobRuns.functionId, [...options.functionIds]),
        or(
          and(eq(jobRuns.status, "queued"), lte(jobRuns.runAfter, sql`now()`)),
          and(eq(jobRuns.status, "running"), lt(jobRuns.leaseExpiresAt, sql`now()`)),
        ),
      ),
    )
    .orderBy(asc(jobRuns.runAfter))
    .limit(1)
    .for("update", { skipLocked: true });
  const [run] = await db
    .update(jobRuns)
    .set({
      status: "running",
      leaseOwner: options.workerId,
      leaseExpiresAt: msFromNow(options.leaseMs),
      // Taking over a running run means its previous worker died or stalled.
      leaseExpiries: sql`${jobRuns.leaseExpiries} + case when ${jobRuns.status} = 'running' then 1 else 0 end`,
      startedAt: sql`coalesce(${jobRuns.startedAt}, now())`,
      updatedAt: sql`now()`,
    })
    .where(inArray(jobRuns.id, next))
    .returning({
      id: jobRuns.id,
      functionId: jobRuns.functionId,
      event: jobRuns.event,
      attempt: jobRuns.attempt,
      leaseExpiries: jobRuns.leaseExpiries,
    });
  return run ?? null;
}

/** Extends the lease while a step is still working; false when it was lost. */
export async function renewLease(db: Db, lease: Lease, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(jobRuns)
    .set({ leaseExpiresAt: msFromNow(leaseMs) })
    .where(heldBy(lease))
    .returning({ id: jobRuns.id });
  return rows.length > 0;
}

/** Steps finished so far, in completion order, as the SDK expects them back. */
export async function loadMemoizedSteps(db: Db, runId: string): Promise<MemoizedStep[]> {
  const rows = await db
    .select({ hashedId: jobSteps.hashedId, outcome: jobSteps.outcome, output: jobSteps.output, error: jobSteps.error })
    .from(jobSteps)
    .where(eq(jobSteps.runId, runId))
    .orderBy(asc(jobSteps.position));
  return rows.map((row) =>
    row.outcome === "failed" && row.error
      ? { hashedId: row.hashedId, error: row.error }
      : // jsonb null comes back as SQL NULL; the SDK needs a defined value to count the step as done.
        { hashedId: row.hashedId, data: row.output ?? null },
  );
}

type StepToRecord = Pick<FinishedStep, "hashedId" | "stepId" | "kind" | "outcome" | "output" | "error"> & { attempts: number };

/**
 * Memoizes finished steps, once each, and applies `runChange` to the run in
 * the same transaction. The run row is updated (and so locked) first, so
 * nothing commits unless the lease is still ours.
 */
async function recordStepsAnd(
  db: Db,
  lease: Lease,
  steps: readonly StepToRecord[],
  runChange: PgUpdateSetSource<typeof jobRuns>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const held = await tx
      .update(jobRuns)
      .set({ ...runChange, updatedAt: sql`now()` })
      .where(heldBy(lease))
      .returning({ id: jobRuns.id });
    if (!held.length) throw new LeaseLostError(lease.runId);
    const [{ recorded }] = await tx.select({ recorded: count() }).from(jobSteps).where(eq(jobSteps.runId, lease.runId));
    await tx
      .insert(jobSteps)
      .values(
        steps.map((step, index) => ({
          runId: lease.runId,
          hashedId: step.hashedId,
          stepId: step.stepId,
          kind: step.kind,
          position: recorded + index,
          outcome: step.outcome,
          output: storableJson(step.output ?? null),
          error: storableJson(step.error),
          attempts: step.attempts,
        })),
      )
      .onConflictDoNothing();
  });
}

/** Memoizes a finished step; the attempt counter starts over for whatever comes next. */
export async function recordStep(db: Db, lease: Lease, step: StepToRecord, leaseMs: number): Promise<void> {
  await recordStepsAnd(db, lease, [step], { attempt: 0, error: null, leaseExpiresAt: msFromNow(leaseMs) });
}

/**
 * Memoizes sleeps as they start and queues the run to wake when the last
 * one ends: nothing can claim it before then, so no sleep ends early.
 */
export async function recordSleeps(db: Db, lease: Lease, sleeps: readonly PlannedSleep[]): Promise<void> {
  const wakeAt = new Date(Math.max(...sleeps.map((sleep) => sleep.endsAt.getTime())));
  await recordStepsAnd(
    db,
    lease,
    sleeps.map((sleep) => ({ ...sleep, kind: "sleep" as const, outcome: "completed" as const, output: null, error: null, attempts: 1 })),
    { status: "queued", attempt: 0, error: null, runAfter: wakeAt, leaseOwner: null, leaseExpiresAt: null },
  );
}

/** Gives the run back to the queue: for a retry after backoff, or to wake after a sleep. */
export async function requeueRun(
  db: Db,
  lease: Lease,
  next: { attempt: number; runAfter: Date; error: SerializedJobError | null },
): Promise<void> {
  const rows = await db
    .update(jobRuns)
    .set({
      status: "queued",
      attempt: next.attempt,
      runAfter: next.runAfter,
      error: storableJson(next.error),
      leaseOwner: null,
      leaseExpiresAt: null,
      updatedAt: sql`now()`,
    })
    .where(heldBy(lease))
    .returning({ id: jobRuns.id });
  if (!rows.length) throw new LeaseLostError(lease.runId);
}

export async function finishRun(
  db: Db,
  lease: Lease,
  end: { status: "completed"; output: unknown } | { status: "failed"; error: SerializedJobError },
): Promise<void> {
  const rows = await db
    .update(jobRuns)
    .set({
      status: end.status,
      output: end.status === "completed" ? storableJson(end.output ?? null) : null,
      error: end.status === "failed" ? storableJson(end.error) : null,
      leaseOwner: null,
      leaseExpiresAt: null,
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(heldBy(lease))
    .returning({ id: jobRuns.id });
  if (!rows.length) throw new LeaseLostError(lease.runId);
}

/**
 * With a database only this process can open (a PGlite folder), every run
 * still marked running at start belongs to a previous, dead process: queue
 * them now rather than wait for their leases to expire.
 */
export async function requeueOrphanedRuns(db: Db): Promise<number> {
  const rows = await db
    .update(jobRuns)
    .set({
      status: "queued",
      leaseOwner: null,
      leaseExpiresAt: null,
      leaseExpiries: sql`${jobRuns.leaseExpiries} + 1`,
      updatedAt: sql`now()`,
    })
    .where(eq(jobRuns.status, "running"))
    .returning({ id: jobRuns.id });
  return rows.length;
}

/**
 * When the next run of `functionIds` becomes claimable: the earliest due
 * queued run, or (unless `includeLeased` is false) the earliest lease to
 * expire. Null when nothing is pending.
 */
export async function nextDueTime(db: Db, functionIds: readonly string[], options: { includeLeased: boolean }): Promise<Date | null> {
  if (!functionIds.length) return null;
  const states = [eq(jobRuns.status, "queued")];
  if (options.includeLeased) states.push(eq(jobRuns.status, "running"));
  const [row] = await db
    .select({
      // mapWith: read back like the timestamp columns, whichever driver returns it.
      due: sql`min(case when ${jobRuns.status} = 'queued' then ${jobRuns.runAfter} else ${jobRuns.leaseExpiresAt} end)`.mapWith(
        jobRuns.runAfter,
      ),
    })
    .from(jobRuns)
    .where(and(inArray(jobRuns.functionId, [...functionIds]), or(...states)));
  return row?.due ?? null;
}

/** Housekeeping: finished runs are kept for a while for inspection, then deleted with their steps. */
export async function deleteFinishedRuns(db: Db, options: { completedBefore: Date; failedBefore: Date }): Promise<number> {
  const rows = await db
    .delete(jobRuns)
    .where(
      or(
        and(eq(jobRuns.status, "completed"), lt(jobRuns.finishedAt, options.completedBefore)),
        and(eq(jobRuns.status, "failed"), lt(jobRuns.finishedAt, options.failedBefore)),
      ),
    )
    .returning({ id: jobRuns.id });
  return rows.length;
}
