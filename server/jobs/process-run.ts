import type { Db } from "../db/client";
import type { SerializedJobError } from "../db/schema";
import { retryAfterAt, type RetryBackoff } from "./durations";
import { asJobError, executeFunction, type ExecutionOutcome, type FinishedStep, type MemoizedStep } from "./execute-function";
import { maxAttemptsOf, type JobFunction } from "./job-functions";
import {
  finishRun,
  LeaseLostError,
  loadMemoizedSteps,
  recordSleeps,
  recordStep,
  renewLease,
  requeueRun,
  type ClaimedRun,
  type Lease,
} from "./run-store";

/**
 * Works one claimed run as far as it can go now: executes the function again
 * and again, memoizing each finished step before the next execution, until
 * the run completes, fails, waits for a retry or sleeps. The lease is
 * renewed in the background meanwhile, so a long step keeps its run.
 */

export interface RunContext {
  db: Db;
  workerId: string;
  leaseMs: number;
  retryBackoff: RetryBackoff;
  logger: Pick<Console, "warn" | "error">;
}

/** A run whose worker vanished this many times is failed instead of taken over again: it probably kills its worker. */
export const MAX_LEASE_EXPIRIES = 5;

export async function processClaimedRun(run: ClaimedRun, fn: JobFunction, context: RunContext): Promise<void> {
  const { db, leaseMs, logger } = context;
  const lease: Lease = { runId: run.id, workerId: context.workerId };
  const heartbeat = setInterval(
    () => {
      renewLease(db, lease, leaseMs).then(
        // The step keeps running (it cannot be interrupted), but nothing it produces will be recorded.
        (held) => held || logger.warn(`job run ${run.id}: lease lost to another worker while a step was running`),
        (error: unknown) => logger.warn(`job run ${run.id}: could not renew its lease`, error),
      );
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  heartbeat.unref();
  try {
    if (run.leaseExpiries >= MAX_LEASE_EXPIRIES) {
      const error = new Error(`The worker running this job stopped ${run.leaseExpiries} times (crash or hang); giving up.`);
      await finishRun(db, lease, { status: "failed", error: asJobError(error) });
      return;
    }
    await drive(run, fn, lease, context);
  } catch (error) {
    if (error instanceof StepRepeatedError) {
      await finishRun(db, lease, { status: "failed", error: asJobError(error) }).catch(() => {});
      return;
    }
    if (error instanceof LeaseLostError) {
      logger.warn(`job run ${run.id} (${run.functionId}) was taken over by another worker; stopped working on it`);
      return;
    }
    // Our own failure (e.g. the database went away), not the function's: the
    // lease lapses and the run is taken up again, by us or another worker.
    logger.error(`job run ${run.id} (${run.functionId}): the runner failed`, error);
  } finally {
    clearInterval(heartbeat);
  }
}

async function drive(run: ClaimedRun, fn: JobFunction, lease: Lease, context: RunContext): Promise<void> {
  const { db } = context;
  let attempt = run.attempt;
  let steps = await loadMemoizedSteps(db, run.id);
  const execute = (stepToRun?: string) => executeFunction({ fn, runId: run.id, event: run.event, attempt, steps, db, stepToRun });

  for (;;) {
    const outcome = await execute();
    switch (outcome.type) {
      case "step-finished":
        await record(outcome.step);
        continue;
      case "steps-planned": {
        // Parallel steps run one after the other, each in its own execution.
        for (const hashedId of outcome.parallel) {
          const parallelOutcome = await execute(hashedId);
          if (parallelOutcome.type === "step-finished") await record(parallelOutcome.step);
          else if (parallelOutcome.type === "steps-planned") return settle(unexpected("planned more steps while running a parallel one"));
          else return settle(parallelOutcome);
        }
        if (outcome.sleeps.length) {
          await recordSleeps(db, lease, outcome.sleeps);
          return;
        }
        continue;
      }
      default:
        return settle(outcome);
    }
  }

  async function record(step: FinishedStep): Promise<void> {
    // A step the SDK reports twice would loop forever; memoized steps never run again.
    if (steps.some((memo) => memo.hashedId === step.hashedId)) throw new StepRepeatedError(step.stepId);
    await recordStep(db, lease, { ...step, attempts: attempt + 1 }, context.leaseMs);
    steps = [...steps, memoized(step)];
    attempt = 0;
  }

  /** Outcomes that end this pass over the run: finished for good, or back in the queue. */
  async function settle(outcome: Exclude<ExecutionOutcome, { type: "step-finished" } | { type: "steps-planned" }>): Promise<void> {
    switch (outcome.type) {
      case "function-completed":
        return finishRun(db, lease, { status: "completed", output: outcome.output });
      case "step-retry":
        return retryLater(outcome.error, outcome.retryAfter);
      case "function-failed":
        // The SDK already answers "not retriable" on the last attempt; the bound is checked here too.
        if (outcome.retriable && attempt + 1 < maxAttemptsOf(fn)) return retryLater(outcome.error, outcome.retryAfter);
        return finishRun(db, lease, { status: "failed", error: outcome.error });
      case "unsupported":
        return finishRun(db, lease, { status: "failed", error: outcome.error });
    }
  }

  async function retryLater(error: SerializedJobError, retryAfter: string | undefined): Promise<void> {
    const nextAttempt = attempt + 1;
    const runAfter = retryAfter ? retryAfterAt(retryAfter) : new Date(Date.now() + context.retryBackoff(nextAttempt));
    await requeueRun(db, lease, { attempt: nextAttempt, runAfter, error });
  }
}

class StepRepeatedError extends Error {
  constructor(stepId: string) {
    super(`Step "${stepId}" ran again after it was memoized; the embedded job runner stopped the run.`);
    this.name = "StepRepeatedError";
  }
}

function unexpected(what: string): ExecutionOutcome & { type: "unsupported" } {
  return { type: "unsupported", error: asJobError(new Error(`The SDK ${what}; the embedded job runner cannot continue this run.`)) };
}

function memoized(step: FinishedStep): MemoizedStep {
  return step.outcome === "failed" && step.error
    ? { hashedId: step.hashedId, error: step.error }
    : { hashedId: step.hashedId, data: step.output ?? null };
}
