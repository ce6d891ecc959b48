import { integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { vessels } from "./reference";

/**
 * The figures last published for a benchmark cohort (one boat class and
 * distance; docs/analytics.md "Benchmarks"). Every answer within the release
 * period repeats them, whatever the cohort did since: a member who changes
 * their own best to draw fresh noise gets nothing new until the period ends,
 * which bounds how many independent releases anyone can average.
 */
export const benchmarkReleases = pgTable(
  "benchmark_releases",
  {
    vesselId: integer("vessel_id")
      .notNull()
      .references(() => vessels.id),
    /** The benchmark's target distance, m. */
    distanceM: integer("distance_m").notNull(),
    /** Accounts in the cohort when released. */
    people: integer("people").notNull(),
    /** [{ percentile, duration_ms }]: the noisy figures as published (never a member's value). */
    percentiles: jsonb("percentiles").$type<{ percentile: number; duration_ms: number }[]>().notNull(),
    /** SHA-256 of the cohort's state (members and bests) the noise was drawn for; holds no value itself. */
    stateDigest: text("state_digest").notNull(),
    releasedAt: timestamp("released_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.vesselId, t.distanceM] })],
);
