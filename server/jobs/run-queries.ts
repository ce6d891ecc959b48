import { asc, desc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { jobRuns, jobSteps, type JobRunStatus, type JobStepOutcome, type SerializedJobError } from "../db/schema";

/**
 * Read side of the embedded runner's state, for status endpoints and tests.
 * These tables are only filled by the embedded runner: with a real Inngest
 * server, run state lives in Inngest (docs/jobs.md, "Job state").
 */

export interface JobStepView {
  stepId: string;
  kind: "run" | "sleep";
  outcome: JobStepOutcome;
  /** Attempts it took, 1 = first try. */
  attempts: number;
  error: SerializedJobError | null;
  completedAt: Date;
}

export interface JobRunView {
  id: string;
  functionId: string;
  eventId: string;
  eventName: string;
  status: JobRunStatus;
  /** Attempt of the current step; above 0 with status queued means a retry is pending. */
  attempt: number;
  /** Earliest time a queued run is picked up (retry backoff, sleep). */
  runAfter: Date;
  output: unknown;
  /** Final error when failed; the last error while a retry is pending. */
  error: SerializedJobError | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

const runColumns = {
  id: jobRuns.id,
  functionId: jobRuns.functionId,
  eventId: jobRuns.eventId,
  eventName: jobRuns.eventName,
  status: jobRuns.status,
  attempt: jobRuns.attempt,
  runAfter: jobRuns.runAfter,
  output: jobRuns.output,
  error: jobRuns.error,
  createdAt: jobRuns.createdAt,
  startedAt: jobRuns.startedAt,
  finishedAt: jobRuns.finishedAt,
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A run with its finished steps in order; null when there is no such run. */
export async function getRun(db: Db, runId: string): Promise<(JobRunView & { steps: JobStepView[] }) | null> {
  // Any string may come from a URL; Postgres would reject a malformed uuid with an error.
  if (!UUID.test(runId)) return null;
  const [run] = await db.select(runColumns).from(jobRuns).where(eq(jobRuns.id, runId));
  if (!run) return null;
  const steps = await db
    .select({
      stepId: jobSteps.stepId,
      kind: jobSteps.kind,
      outcome: jobSteps.outcome,
      attempts: jobSteps.attempts,
      error: jobSteps.error,
      completedAt: jobSteps.completedAt,
    })
    .from(jobSteps)
    .where(eq(jobSteps.runId, runId))
    .orderBy(asc(jobSteps.position));
  return { ...run, steps: steps.map((step) => ({ ...step, kind: step.kind as JobStepView["kind"] })) };
}

/** The runs one event triggered (one per function), newest first. */
export async function listRunsForEvent(db: Db, eventId: string): Promise<JobRunView[]> {
  return db.select(runColumns).from(jobRuns).where(eq(jobRuns.eventId, eventId)).orderBy(desc(jobRuns.createdAt), asc(jobRuns.functionId));
}
