import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { devices } from "./devices";
import { oauthApplications } from "./oauth-applications";
import { users } from "./users";

/**
 * Device file jobs (issue 10, docs/exports.md "Device files"): `fetch` copies
 * one stored original .svc file, byte for byte, into a temporary private blob
 * that can be downloaded once; `delete` removes a unit's stored originals
 * (results keep their processed data).
 */

/** queued → running → succeeded → consumed (fetch, downloaded once) or expired; or → failed. */
export const deviceJobStates = ["queued", "running", "succeeded", "failed", "consumed", "expired"] as const;
export type DeviceJobState = (typeof deviceJobStates)[number];
export type DeviceJobKind = "fetch" | "delete";

export const deviceJobs = pgTable(
  "device_jobs",
  {
    id: serial("id").primaryKey(),
    /** The job id clients see: "dvj_" + 22 base64url characters (128 random bits). */
    publicId: text("public_id").notNull().unique(),
    kind: text("kind").$type<DeviceJobKind>().notNull(),
    /** The unit's owner, who asked for it. */
    subjectUserId: integer("subject_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The OAuth application that created it; null for the web app. */
    applicationId: integer("application_id").references(() => oauthApplications.id, { onDelete: "cascade" }),
    deviceId: integer("device_id")
      .notNull()
      .references(() => devices.id, { onDelete: "cascade" }),
    /** fetch: the stored original's file name as the manifest lists it. */
    filename: text("filename"),
    /** fetch: the result whose original is copied. */
    sourceResultId: integer("source_result_id"),
    state: text("state").$type<DeviceJobState>().notNull().default("queued"),
    error: text("error"),
    /** fetch: the private temporary copy; null once consumed or expired. */
    blobKey: text("blob_key"),
    /** fetch: size in bytes and hex SHA-256 of the copy (equal to the original's). */
    byteSize: bigint("byte_size", { mode: "number" }),
    sha256: text("sha256"),
    /** delete: how many stored originals were removed. */
    deletedFiles: integer("deleted_files"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /** fetch: the copy is deleted after this instant if never downloaded (1 hour after it is ready). */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** fetch: when the one download happened. */
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
  },
  (t) => [
    index("device_jobs_subject_idx").on(t.subjectUserId, t.createdAt),
    index("device_jobs_expires_idx").on(t.expiresAt),
    check("device_jobs_kind_check", sql`${t.kind} in ('fetch', 'delete')`),
    check("device_jobs_state_check", sql`${t.state} in ('queued', 'running', 'succeeded', 'failed', 'consumed', 'expired')`),
  ],
);
