import { integer, pgTable, timestamp } from "drizzle-orm/pg-core";
import { athletes } from "./athletes";
import { users } from "./users";

/**
 * An athlete's consent to show their heart rate to their coaches in the web
 * app (docs/access.md "Health data in every view"). A row is the consent; it
 * counts only while `userId` is still the account linked to the athlete
 * record, so unlinking ends it. Revoking deletes the row.
 */
export const heartRateShares = pgTable("heart_rate_shares", {
  athleteId: integer("athlete_id")
    .primaryKey()
    .references(() => athletes.id, { onDelete: "cascade" }),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
