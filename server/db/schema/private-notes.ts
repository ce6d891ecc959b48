import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, timestamp, varchar } from "drizzle-orm/pg-core";
import { athletes } from "./athletes";
import { results } from "./results";
import { trainings } from "./trainings";
import { users } from "./users";

/**
 * A coach's private note on a session, a training or an athlete
 * (docs/comments.md "Private notes"). Kept apart from a training's `notes`
 * (which the Data API serves): read and written only by the coaches of the
 * athletes concerned (server/comments/private-notes.ts), never by an athlete,
 * and never put in an export, a share page, an API answer, a webhook or the replay.
 */
export const privateNotes = pgTable(
  "private_notes",
  {
    id: serial("id").primaryKey(),
    authorUserId: integer("author_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Exactly one of result_id, training_id and athlete_id is set. */
    resultId: integer("result_id").references(() => results.id, { onDelete: "cascade" }),
    trainingId: integer("training_id").references(() => trainings.id, { onDelete: "cascade" }),
    athleteId: integer("athlete_id").references(() => athletes.id, { onDelete: "cascade" }),
    body: varchar("body", { length: 2000 }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    editedAt: timestamp("edited_at", { withTimezone: true }),
  },
  (t) => [
    check("private_notes_one_target", sql`num_nonnulls(${t.resultId}, ${t.trainingId}, ${t.athleteId}) = 1`),
    index("private_notes_result_idx").on(t.resultId, t.id),
    index("private_notes_training_idx").on(t.trainingId, t.id),
    index("private_notes_athlete_idx").on(t.athleteId, t.id),
  ],
);
