import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { oauthApplications } from "./oauth-applications";
import { oauthGrants } from "./oauth-grants";
import { users } from "./users";

/**
 * Replay embeds (data-api.md "Replay embeds", docs/replay.md): one row per
 * POST /svcsim/embeds. The embed's single launch and its single lease live on
 * the same row, since a launch is used once and issues exactly one lease.
 * Only SHA-256 hashes of the launch token and the lease credential are kept.
 *
 * An embed is live while it is not revoked, its grant is neither revoked nor
 * expired, and its origin is still approved for its application
 * (server/embeds/embed-live.ts): every launch, artifact and lease statement
 * checks that, so revoking the grant cuts every token at once.
 */
export const replayEmbeds = pgTable(
  "replay_embeds",
  {
    id: serial("id").primaryKey(),
    /** The application that created the embed. */
    applicationId: integer("application_id")
      .notNull()
      .references(() => oauthApplications.id, { onDelete: "cascade" }),
    /** The grant whose access token created it: revoking that grant ends the embed. */
    grantId: text("grant_id")
      .notNull()
      .references(() => oauthGrants.grantId, { onDelete: "cascade" }),
    /** The authorizing person (the token's subject). */
    subjectUserId: integer("subject_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Exact approved origin allowed to frame the player (CSP frame-ancestors). */
    origin: text("origin").notNull(),
    /** Sessions (result ids) in lane order, lane 1 first; 1 to 9, unique. */
    sessionIds: integer("session_ids").array().notNull(),
    /** Hex SHA-256 of the launch token. */
    launchTokenHash: text("launch_token_hash").notNull().unique(),
    /** The launch URL answers until then (two minutes after creation), once. */
    launchExpiresAt: timestamp("launch_expires_at", { withTimezone: true }).notNull(),
    /** Set once, atomically, when the launch URL is opened; a second opening is 404. */
    launchedAt: timestamp("launched_at", { withTimezone: true }),
    /** Hex SHA-256 of the lease credential issued at launch; null before the launch. */
    leaseHash: text("lease_hash").unique(),
    /** The lease is valid until then; each renewal sets it ten minutes ahead. */
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    /** Set when the embed is revoked (DELETE /svcsim/embeds/{embed_id}): launch, artifacts and lease end. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("replay_embeds_grant_idx").on(t.grantId),
    index("replay_embeds_subject_idx").on(t.subjectUserId, t.applicationId),
    check("replay_embeds_sessions_chk", sql`cardinality(${t.sessionIds}) between 1 and 9`),
    check("replay_embeds_lease_chk", sql`(${t.leaseHash} is null) = (${t.leaseExpiresAt} is null)`),
  ],
);
