import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, serial, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { oauthApplications } from "./oauth-applications";
import { users } from "./users";
import { SPLIT_COUNT } from "../../svc/process/track";

/**
 * Export jobs (issue 10, docs/exports.md): one row per requested export file,
 * written by the API or the web app and advanced by the `build-export`
 * function's steps. The row is the job's status as users see it, whoever
 * runs the function (embedded runner or Inngest).
 */

/** queued → running → succeeded → expired, or → failed (docs/exports.md "States"). */
export const exportJobStates = ["queued", "running", "succeeded", "failed", "expired"] as const;
export type ExportJobState = (typeof exportJobStates)[number];

export const exportJobs = pgTable(
  "export_jobs",
  {
    id: serial("id").primaryKey(),
    /** The job id clients see: "exp_" + 22 base64url characters (128 random bits). Not a capability: reads also match subject and application. */
    publicId: text("public_id").notNull().unique(),
    /** The person who asked for it (the token's subject, or the signed-in user). */
    subjectUserId: integer("subject_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The OAuth application that created it; null for the web app. Only the same application sees it. */
    applicationId: integer("application_id").references(() => oauthApplications.id, { onDelete: "cascade" }),
    /** What is exported: "session" (later "training"); the id of that source. */
    sourceKind: text("source_kind").notNull(),
    sourceId: integer("source_id").notNull(),
    /** json, pdf, pdf-full, xlsx, fit, tcx. */
    format: text("format").notNull(),
    /** Seat (1 to 4) whose heart rate and subject fields go in. */
    athlete: smallint("athlete").notNull(),
    /** Number of equal-distance splits (SPLIT_COUNT). */
    splits: smallint("splits").notNull(),
    /** Language of labels: en or es. */
    lang: text("lang").notNull(),
    /** full, or privacy-safe on the partner surface. */
    mode: text("mode").notNull(),
    /** Whether the token held health:read (or the web user may see health) when the job was created. */
    healthAllowed: boolean("health_allowed").notNull(),
    state: text("state").$type<ExportJobState>().notNull().default("queued"),
    /** Percent done where known (0 queued, 100 succeeded); null while unknown. */
    progress: smallint("progress"),
    /** A short message for clients when failed; never a stack trace. */
    error: text("error"),
    /** Blob holding the finished file; null until succeeded and after expiry. */
    blobKey: text("blob_key"),
    contentType: text("content_type"),
    filename: text("filename"),
    /** Size of the finished file in bytes. */
    byteSize: bigint("byte_size", { mode: "number" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** When a succeeded file stops being downloadable and is deleted (finished + 24 hours). */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [
    index("export_jobs_subject_idx").on(t.subjectUserId, t.createdAt),
    index("export_jobs_expires_idx").on(t.expiresAt),
    check("export_jobs_state_check", sql`${t.state} in ('queued', 'running', 'succeeded', 'failed', 'expired')`),
    check("export_jobs_athlete_check", sql`${t.athlete} between 1 and 4`),
    check("export_jobs_splits_check", sql`${t.splits} between ${sql.raw(String(SPLIT_COUNT.min))} and ${sql.raw(String(SPLIT_COUNT.max))}`),
  ],
);
