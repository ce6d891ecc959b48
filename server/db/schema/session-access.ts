import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, timestamp } from "drizzle-orm/pg-core";
import { results } from "./results";
import { users } from "./users";

/**
 * Who may see each result, with its sort keys: one row per result and person
 * who owns it, paddled in it (an athlete record linked to their account sits
 * in the crew), manages an athlete of its crew or coaches one in a team
 * (docs/access.md). `subject` marks the rows of the person's own sessions
 * (owned or paddled in), the Data API's subject boundary. The Data API's
 * GET /sessions and the results API's GET /results page this table by index,
 * so a page costs the same however many results a person has. Maintained
 * only by database triggers (drizzle/0013 and 0015) on results, result_crew,
 * athletes and team_memberships; no application code writes it.
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
    /** True: the person owns the result or paddled in it; false: they see it as manager or coach of a crew athlete. */
    subject: boolean("subject").notNull().default(true),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.resultId] }),
    index("session_access_start_idx").on(t.userId, t.startAt, t.resultId),
    index("session_access_distance_idx").on(t.userId, t.distanceM, t.resultId),
    index("session_access_duration_idx").on(t.userId, t.durationMs, t.resultId),
    index("session_access_created_idx").on(t.userId, t.createdAt, t.resultId),
    index("session_access_result_idx").on(t.resultId),
    // The web log's speed sort (server/sessions/session-log.ts), in the same form as results_owner_speed_idx.
    index("session_access_speed_idx").on(t.userId, sql`(${t.distanceM}::double precision / greatest(${t.durationMs}, 1))`, t.resultId),
    // The subject's own list (Data API): the same orders over the subject rows only.
    index("session_access_subject_start_idx")
      .on(t.userId, t.startAt, t.resultId)
      .where(sql`subject`),
    index("session_access_subject_distance_idx")
      .on(t.userId, t.distanceM, t.resultId)
      .where(sql`subject`),
    index("session_access_subject_duration_idx")
      .on(t.userId, t.durationMs, t.resultId)
      .where(sql`subject`),
    index("session_access_subject_created_idx")
      .on(t.userId, t.createdAt, t.resultId)
      .where(sql`subject`),
  ],
);
