import { sql } from "drizzle-orm";
import { check, date, index, integer, jsonb, pgTable, real, serial, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { athletes } from "./athletes";
import { vessels } from "./reference";
import { results } from "./results";
import { trainings } from "./trainings";

/**
 * The training load of one athlete in one session or training (docs/load.md):
 * time in each speed zone relative to the athlete's reference for the boat
 * class, weighted by zone, and, for the heart-rate strap's wearer, an Edwards
 * TRIMP. Written in the transaction that processes, corrects or reprocesses
 * the effort (server/load/store-load.ts); pages only read it.
 */
export const athleteLoads = pgTable(
  "athlete_loads",
  {
    id: serial("id").primaryKey(),
    athleteId: integer("athlete_id")
      .notNull()
      .references(() => athletes.id, { onDelete: "cascade" }),
    resultId: integer("result_id").references(() => results.id, { onDelete: "cascade" }),
    trainingId: integer("training_id").references(() => trainings.id, { onDelete: "cascade" }),
    vesselId: integer("vessel_id")
      .notNull()
      .references(() => vessels.id),
    /** Local calendar date of the effort (the day its load counts on). */
    date: date("date").notNull(),
    startAt: timestamp("start_at", { withTimezone: true }).notNull(),
    /** Seconds measured (the track's span). */
    durationS: real("duration_s").notNull(),
    /** Seconds in each zone, in the order of the athlete's zones. */
    zoneSeconds: jsonb("zone_seconds").notNull(),
    /** Speed load: Σ minutes in zone × zone weight. */
    speedLoad: real("speed_load").notNull(),
    /** The reference speed the zones were taken from (m/s); null: none yet (every minute counts in zone 1). */
    referenceSpeedMS: real("reference_speed_m_s"),
    /** The effort's fastest 500 m (m/s), from an effort or work set of at least 500 m: what later references read. */
    best500SpeedMS: real("best500_speed_m_s"),
    /** Edwards TRIMP of the strap's wearer (seat 1) when heart rate was recorded; null otherwise. Health data. */
    heartRateLoad: real("heart_rate_load"),
  },
  (t) => [
    check("athlete_loads_source_chk", sql`(${t.resultId} is null) <> (${t.trainingId} is null)`),
    uniqueIndex("athlete_loads_result_uq").on(t.resultId, t.athleteId),
    uniqueIndex("athlete_loads_training_uq").on(t.trainingId, t.athleteId),
    index("athlete_loads_athlete_date_idx").on(t.athleteId, t.date),
    index("athlete_loads_reference_idx").on(t.athleteId, t.vesselId, t.startAt),
  ],
);
