import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Failed sign-in counters per key ("email:<address>"), shared by every app
 * instance. See server/auth/sign-in-throttle.ts for the policy.
 */
export const signInThrottle = pgTable("sign_in_throttle", {
  key: text("key").primaryKey(),
  /** Failures in the current window. */
  failures: integer("failures").notNull().default(0),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
  /** Sign-in refused until this instant. */
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
});

/**
 * Secrets the service generates on first start and shares between instances
 * (session cookie signing key, later OAuth cursor keys). Never in the repo.
 */
export const appSecrets = pgTable("app_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
