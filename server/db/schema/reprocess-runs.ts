import { sql } from "drizzle-orm";
import { index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * Reprocessing runs (docs/processing.md "Reprocessing"): the operator asks
 * the current processing core to redo every stored original made by an
 * older one. The row is the run's state as the operator sees it, advanced by
 * the `reprocess-stored-files` function's steps, whoever runs them.
 * `stopped`: an operator ended it (its function may be lost); like `failed`
 * it frees the way for a new run.
 */
export const reprocessRunStates = ["queued", "running", "completed", "failed", "stopped"] as const;
export type ReprocessRunState = (typeof reprocessRunStates)[number];

export const reprocessRuns = pgTable(
  "reprocess_runs",
  {
    id: serial("id").primaryKey(),
    state: text("state", { enum: reprocessRunStates }).notNull().default("queued"),
    /** PROCESSING_CORE_VERSION the run brings stored figures to. */
    targetCoreVersion: integer("target_core_version").notNull(),
    /** The operator who started it; null from the command line. */
    requestedByUserId: integer("requested_by_user_id").references(() => users.id, { onDelete: "set null" }),
    requestedVia: text("requested_via", { enum: ["web", "cli"] }).notNull(),
    /** Stored originals in scope, counted when the run starts: results with an original file (id ≤ maxResultId) and processed trainings (id ≤ maxTrainingId). */
    total: integer("total").notNull().default(0),
    /** Reprocessed and replaced. */
    done: integer("done").notNull().default(0),
    /** Could not be reprocessed; the previous figures stay (reprocess_run_failures says why). */
    failed: integer("failed").notNull().default(0),
    /** Already at the target version (or deleted meanwhile): nothing to do. */
    skipped: integer("skipped").notNull().default(0),
    /** Results stored after the start are made by the current core: the run stops at the newest id it saw. */
    maxResultId: integer("max_result_id"),
    /** Cursor: the highest result id finished (advanced in each item's own transaction, so a restart resumes after it). */
    lastResultId: integer("last_result_id").notNull().default(0),
    /** The same for trainings (ready or failed, with an original), worked after the results. */
    maxTrainingId: integer("max_training_id"),
    lastTrainingId: integer("last_training_id").notNull().default(0),
    /** Results per step: given by the operator, or chosen at start (null until then) so a run stays well under Inngest's 1,000 steps. */
    batchSize: integer("batch_size"),
    /** The latest failure: an item's ("result 12: …") or the run's own. */
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** When the run last moved: queued, started, or an item counted (database clock). Long ago while active: its function is probably lost. */
    lastProgressAt: timestamp("last_progress_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One active run at a time, whichever instance or command started it.
    uniqueIndex("reprocess_runs_one_active_uq")
      .on(sql`(true)`)
      .where(sql`${t.state} in ('queued', 'running')`),
    index("reprocess_runs_created_idx").on(t.createdAt),
  ],
);

/** Items a run could not reprocess, with the reason; their previous figures stay. */
export const reprocessRunFailures = pgTable(
  "reprocess_run_failures",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => reprocessRuns.id, { onDelete: "cascade" }),
    /** "result" or "training". */
    itemKind: text("item_kind").notNull(),
    itemId: integer("item_id").notNull(),
    error: text("error").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.itemKind, t.itemId] })],
);
