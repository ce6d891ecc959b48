import { integer, jsonb, pgTable, smallint, timestamp } from "drizzle-orm/pg-core";
import { athletes } from "./athletes";
import { users } from "./users";

/**
 * An athlete's own speed zones and maximum heart rate, set by whoever manages
 * or coaches them (docs/load.md "Zones"). No row: the defaults of
 * server/load/zones.ts and a maximum heart rate from the date of birth.
 */
export const athleteZones = pgTable("athlete_zones", {
  athleteId: integer("athlete_id")
    .primaryKey()
    .references(() => athletes.id, { onDelete: "cascade" }),
  /** SpeedZone[] (server/load/zones.ts). */
  zones: jsonb("zones").notNull(),
  /** bpm; null: from the date of birth (208 − 0.7 × age), else 190. */
  maxHeartRateBpm: smallint("max_heart_rate_bpm"),
  updatedByUserId: integer("updated_by_user_id").references(() => users.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
