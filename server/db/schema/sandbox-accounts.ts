import { index, integer, pgTable, serial, smallint, timestamp } from "drizzle-orm/pg-core";
import { oauthApplications } from "./oauth-applications";
import { users } from "./users";

/**
 * Sandbox people (docs/sandbox.md): a `users` row with account_kind
 * 'sandbox', made by an application's owner for that application and
 * filled with a simulated season. One per application. Deleting this row
 * (the application or its owner deleted) deletes the sandbox person with
 * all its data: a trigger in drizzle/0036 does it, so no path can leave an
 * orphaned test person behind.
 */
export const sandboxAccounts = pgTable(
  "sandbox_accounts",
  {
    id: serial("id").primaryKey(),
    /** The sandbox person (users.account_kind = 'sandbox'). */
    userId: integer("user_id")
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The developer who made it: the only account that may sign in as it, reset or drive it. */
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The application it was made for (its owner's); one sandbox per application. */
    applicationId: integer("application_id")
      .notNull()
      .unique()
      .references(() => oauthApplications.id, { onDelete: "cascade" }),
    /** Season generator inputs (server/sandbox/season.ts): the same inputs give the same data. */
    seed: integer("seed").notNull(),
    weeks: smallint("weeks").notNull(),
    sessionsPerWeek: smallint("sessions_per_week").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Last reset to the initial season; null when never reset. */
    resetAt: timestamp("reset_at", { withTimezone: true }),
  },
  (t) => [index("sandbox_accounts_owner_idx").on(t.ownerUserId)],
);
