import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * State of the embedded background-job runner (server/jobs/, docs/jobs.md):
 * one row per function run, one row per completed step. With a real Inngest
 * server configured these tables stay empty; Inngest keeps that state itself.
 */

/** queued: waiting to be claimed (maybe after run_after); running: leased by a worker; completed and failed are final. */
export const jobRunStatuses = ["queued", "running", "completed", "failed"] as const;
export type JobRunStatus = (typeof jobRunStatuses)[number];

/** An error as the Inngest SDK serializes it. */
export interface SerializedJobError {
  name: string;
  message: string;
  stack?: string;
  [key: string]: unknown;
}

/** The event a run was triggered by, exactly as its function receives it. */
export interface StoredJobEvent {
  name: string;
  data: Record<string, unknown>;
  id: string;
  /** Milliseconds since the epoch when the event was sent. */
  ts: number;
}

export const jobRuns = pgTable(
  "job_runs",
  {
    /** Also the run id the function sees as ctx.runId. */
    id: uuid("id").primaryKey().defaultRandom(),
    /** Id of the Inngest function (its `id` option), e.g. "build-replay-artifact". */
    functionId: text("function_id").notNull(),
    /** Id of the triggering event; one event triggers one run per matching function. */
    eventId: text("event_id").notNull(),
    eventName: text("event_name").notNull(),
    event: jsonb("event").$type<StoredJobEvent>().notNull(),
    status: text("status").$type<JobRunStatus>().notNull().default("queued"),
    /** Attempt of the current step or of the function body, 0 = first try; reset when a step completes. */
    attempt: integer("attempt").notNull().default(0),
    /** Not claimed before this time: retry backoff or the end of a step.sleep. */
    runAfter: timestamp("run_after", { withTimezone: true }).notNull().defaultNow(),
    /** Worker holding the run while status is running. */
    leaseOwner: text("lease_owner"),
    /** The lease holder renews this while it works; past it, another worker may take the run over. */
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    /** Times a worker lost the run (its lease expired while running): guards against crash loops. */
    leaseExpiries: integer("lease_expiries").notNull().default(0),
    /** Return value of the function once completed. */
    output: jsonb("output"),
    /** Final error when failed; the last error while a retry is pending. */
    error: jsonb("error").$type<SerializedJobError>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** First claim. */
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One run per event id and function: re-sending an event id is a no-op
    // (Inngest's idempotency); event id first so runs of an event are found by it.
    uniqueIndex("job_runs_event_function_uq").on(t.eventId, t.functionId),
    // The two ways a run becomes claimable, each with a small partial index.
    index("job_runs_queued_idx")
      .on(t.runAfter)
      .where(sql`status = 'queued'`),
    index("job_runs_leased_idx")
      .on(t.leaseExpiresAt)
      .where(sql`status = 'running'`),
    index("job_runs_finished_idx")
      .on(t.finishedAt)
      .where(sql`status in ('completed', 'failed')`),
    check("job_runs_status_chk", sql`${t.status} in ('queued', 'running', 'completed', 'failed')`),
  ],
);

/** completed: output is the step's result; failed: error is its final error after every retry. */
export const jobStepOutcomes = ["completed", "failed"] as const;
export type JobStepOutcome = (typeof jobStepOutcomes)[number];

/**
 * Memoized steps: written once when a step finishes, replayed to the SDK on
 * every later execution of the run so the step never runs again.
 */
export const jobSteps = pgTable(
  "job_steps",
  {
    runId: uuid("run_id")
      .notNull()
      .references(() => jobRuns.id, { onDelete: "cascade" }),
    /** The SDK's hashed step id (memoization key). */
    hashedId: text("hashed_id").notNull(),
    /** The step id as written in the function, e.g. "build-artifact". */
    stepId: text("step_id").notNull(),
    /** "run" (step.run) or "sleep" (step.sleep / step.sleepUntil). */
    kind: text("kind").notNull(),
    /** 0, 1, 2 … in completion order: replayed to the SDK as the step completion order. */
    position: integer("position").notNull(),
    outcome: text("outcome").$type<JobStepOutcome>().notNull(),
    output: jsonb("output"),
    error: jsonb("error").$type<SerializedJobError>(),
    /** Attempts it took, 1 = first try. */
    attempts: integer("attempts").notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.hashedId] }),
    check("job_steps_outcome_chk", sql`${t.outcome} in ('completed', 'failed')`),
    check("job_steps_kind_chk", sql`${t.kind} in ('run', 'sleep')`),
  ],
);
