import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * Who did what to whose account from the operator pages (unlock, role
 * change, disable, enable): an append-only audit log.
 */
export const operatorActions = pgTable(
  "operator_actions",
  {
    id: serial("id").primaryKey(),
    /** The operator; null once that account is deleted (the row stays). */
    operatorUserId: integer("operator_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The account acted on; null once deleted. Its email at the time is kept in `targetEmail`. */
    targetUserId: integer("target_user_id").references(() => users.id, { onDelete: "set null" }),
    targetEmail: text("target_email").notNull(),
    action: text("action", { enum: ["unlock", "change_role", "disable", "enable"] }).notNull(),
    /** e.g. { from: "coach", to: "viewer" } for a role change. */
    details: jsonb("details").$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("operator_actions_target_idx").on(t.targetUserId, t.createdAt.desc())],
);
