import { boolean, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { roles } from "./roles";

export const users = pgTable("users", {
  id: serial("id").primaryKey(),
  /** Sign-in name, stored lower-cased and trimmed. */
  email: text("email").notNull().unique(),
  /** Display name. */
  name: text("name").notNull(),
  /** argon2id hash (PHC string); the password itself is never stored. */
  passwordHash: text("password_hash").notNull(),
  roleId: integer("role_id")
    .notNull()
    .references(() => roles.id),
  /**
   * Bumped on sign-out everywhere and on password change. Every signed-in
   * request compares it with the value in the session cookie, so a bump
   * ends all existing sessions at once.
   */
  sessionVersion: integer("session_version").notNull().default(1),
  /** Privilege: crews may have more than half external athletes. */
  unlimitedExternals: boolean("unlimited_externals").notNull().default(false),
  /**
   * Set by an operator: the account cannot sign in, and its web sessions,
   * OAuth access tokens and key pairs stop working (docs/web-app.md "Operator").
   */
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  /**
   * What the account is: `person` (a real sign-up or operator-made account),
   * `demo` (made by the demo seed) or `sandbox` (a developer's simulated test
   * person, docs/sandbox.md). Only `person` accounts count in any cohort or
   * figure that aggregates across people (docs/analytics.md).
   */
  accountKind: text("account_kind", { enum: ["person", "demo", "sandbox"] })
    .notNull()
    .default("person"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
