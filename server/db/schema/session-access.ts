import { index, integer, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { results } from "./results";
import { users } from "./users";

/**
 * Whose session each result is, with its sort keys: one row per result and
 * person who owns it or paddled in it (an athlete record linked to their
 * account sits in the crew). The Data API's GET /sessions pages read this
 * table by index, so a page costs the same however many sessions a person
 * has. Maintained only by database triggers (drizzle/0012_session_access.sql)
 * on results, result_crew and athletes; no application code writes it.
 */
export const sessionAccess = pgTable(
  "session_access",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    resultId: integer("result_id")
      .notNull()
      .references(() => results.id, { onDelete: "cascade" }),
    /** Copies of the result's sort keys (results.start_at, distance_m, duration_ms, created_at). */
    startAt: timestamp("start_at", { withTimezone: true }).notNull(),
    distanceM: integer("distance_m").notNull(),
    durationMs: integer("duration_ms").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.resultId] }),
    index("session_access_start_idx").on(t.userId, t.startAt, t.resultId),
    index("session_access_distance_idx").on(t.userId, t.distanceM, t.resultId),
    index("session_access_duration_idx").on(t.userId, t.durationMs, t.resultId),
    index("session_access_created_idx").on(t.userId, t.createdAt, t.resultId),
    index("session_access_result_idx").on(t.resultId),
  ],
);
