import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, primaryKey, serial, timestamp, varchar } from "drizzle-orm/pg-core";
import { results } from "./results";
import { trainings } from "./trainings";
import { users } from "./users";

/**
 * A comment on a session or a training (docs/comments.md): written by anyone
 * who may see it (its owner, the crew, their coaches), edited and deleted by
 * its author only. `moment` optionally points at a place in the effort: a
 * split, a work set or a replay time (server/comments/moments.ts).
 * Web app only: no export, share page, API answer or webhook carries it.
 */
export const comments = pgTable(
  "comments",
  {
    id: serial("id").primaryKey(),
    authorUserId: integer("author_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Exactly one of result_id and training_id is set. */
    resultId: integer("result_id").references(() => results.id, { onDelete: "cascade" }),
    trainingId: integer("training_id").references(() => trainings.id, { onDelete: "cascade" }),
    body: varchar("body", { length: 2000 }).notNull(),
    /** A Moment: { kind: "split", index, count } | { kind: "set", work } | { kind: "time", seconds }; null for none. */
    moment: jsonb("moment"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when its author last changed the text or the moment. */
    editedAt: timestamp("edited_at", { withTimezone: true }),
  },
  (t) => [
    check("comments_one_target", sql`(${t.resultId} is null) <> (${t.trainingId} is null)`),
    index("comments_result_idx").on(t.resultId, t.id),
    index("comments_training_idx").on(t.trainingId, t.id),
    index("comments_author_idx").on(t.authorUserId),
  ],
);

/** Which comments a person has read (one row per person and comment read): the home page's unread list. */
export const commentReads = pgTable(
  "comment_reads",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    commentId: integer("comment_id")
      .notNull()
      .references(() => comments.id, { onDelete: "cascade" }),
    readAt: timestamp("read_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.commentId] })],
);
