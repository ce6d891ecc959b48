import { index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * Who did what from the operator pages and the admin command line: to whose
 * account (unlock, role change, disable, enable), or to a reprocessing run
 * (stop_reprocess). An append-only audit log.
 */
export const operatorActions = pgTable(
  "operator_actions",
  {
    id: serial("id").primaryKey(),
    /** The operator; null once that account is deleted (the row stays), and for the command line (details.via = "cli"). */
    operatorUserId: integer("operator_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The account acted on; null once deleted. Its email at the time is kept in `targetEmail`. */
    targetUserId: integer("target_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Null for an action on no account (stop_reprocess: details.runId). */
    targetEmail: text("target_email"),
    action: text("action", { enum: ["unlock", "change_role", "disable", "enable", "stop_reprocess"] }).notNull(),
    /** e.g. { from: "coach", to: "viewer" } for a role change; { runId, reason, via } for a stopped reprocessing run. */
    details: jsonb("details").$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("operator_actions_target_idx").on(t.targetUserId, t.createdAt.desc())],
);
