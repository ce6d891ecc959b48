import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from "drizzle-orm/pg-core";
import { athletes } from "./athletes";
import { blobs } from "./blobs";
import { devices } from "./devices";
import { equipmentPaddles, equipmentVessels } from "./equipment";
import { oauthApplications } from "./oauth-applications";
import { categories, paces, vessels } from "./reference";
import { strokeColumns } from "./stroke-columns";
import { tracks } from "./tracks";
import { users } from "./users";

/**
 * A result: one processed effort from one .svc file ("session" in the Data
 * API). Effort facts come from processing; the rest from upload metadata.
 */
export const results = pgTable(
  "results",
  {
    id: serial("id").primaryKey(),
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Unit that recorded the file. */
    deviceId: integer("device_id").references(() => devices.id, { onDelete: "set null" }),
    /**
     * Key id of the keyring key the .svc file was sealed with (its header,
     * authenticated by the tag): 0 is the published development key. Null:
     * stored before this was recorded (migration 0034), so unknown — such a
     * result never counts in a benchmark cohort (docs/analytics.md).
     */
    svcKeyId: bigint("svc_key_id", { mode: "number" }),
    trackId: integer("track_id")
      .notNull()
      .references(() => tracks.id),
    vesselId: integer("vessel_id")
      .notNull()
      .references(() => vessels.id),
    categoryId: integer("category_id")
      .notNull()
      .references(() => categories.id),
    paceId: integer("pace_id")
      .notNull()
      .references(() => paces.id),
    /** How the result was created: web (upload page), api (key pair), demo (seed data). */
    createdVia: text("created_via", { enum: ["web", "api", "demo"] }).notNull(),
    /** Key pair that uploaded it (results API). */
    keyPairId: integer("key_pair_id"),
    /**
     * OAuth application the uploading key pair was bound to at upload time:
     * the Data API "session" surface shows an application only the sessions it created.
     */
    createdByApplicationId: integer("created_by_application_id").references(() => oauthApplications.id, { onDelete: "set null" }),
    /** Local calendar date of the effort start (device clock + offset). */
    date: date("date").notNull(),
    /** Local time of the effort start with its UTC offset, "HH:MM:SS+hh:mm". */
    timeOfDay: text("time_of_day").notNull(),
    /** Instant of the effort start, for date-time filters and sorting. */
    startAt: timestamp("start_at", { withTimezone: true }).notNull(),
    /** Device clock offset from UTC, minutes. */
    utcOffsetMin: smallint("utc_offset_min").notNull(),
    /** Metres covered by the effort ("dist"). */
    distanceM: integer("distance_m").notNull(),
    /** Effort duration, milliseconds. */
    durationMs: integer("duration_ms").notNull(),
    /** What the upload asked for: exactly one of a distance (m) or a duration (ms). */
    targetDistanceM: integer("target_distance_m"),
    targetDurationMs: integer("target_duration_ms"),
    competition: varchar("competition", { length: 64 }).notNull().default(""),
    description: varchar("description", { length: 64 }).notNull().default(""),
    /** Flagged for review by a coach. */
    important: boolean("important").notNull().default(false),
    /** pending → processing → processed | failed. Uploads through the API are processed in the request. */
    status: text("status", { enum: ["pending", "processing", "processed", "failed"] })
      .notNull()
      .default("processed"),
    /** Firmware of the unit, "major.minor.patch" ("software_version" in the API). */
    softwareVersion: text("software_version").notNull().default(""),
    /** Unit model name, e.g. "SVC Pro" ("hardware" in the API). */
    hardware: text("hardware").notNull().default(""),
    /** Hardware model id, for the hardware_id filter. */
    hardwareModel: integer("hardware_model"),
    /** Original file name as uploaded, for the device file manifest. */
    originalFilename: text("original_filename"),
    /** Hex SHA-256 of the original .svc bytes: one owner cannot store the same file twice (a unique index). */
    originalSha256: text("original_sha256"),
    /** The original .svc bytes, unchanged. */
    originalBlobId: integer("original_blob_id").references(() => blobs.id, { onDelete: "set null" }),
    /** The owner's boat and paddle used in this session (equipment pages), optional. */
    equipmentVesselId: integer("equipment_vessel_id").references(() => equipmentVessels.id, { onDelete: "set null" }),
    equipmentPaddleId: integer("equipment_paddle_id").references(() => equipmentPaddles.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("results_target_chk", sql`(${t.targetDistanceM} is null) <> (${t.targetDurationMs} is null)`),
    // Ascending: read backwards they serve ORDER BY … DESC too (a DESC NULLS LAST index cannot serve DESC, which sorts nulls first).
    index("results_owner_start_idx").on(t.ownerUserId, t.startAt, t.id),
    index("results_owner_created_idx").on(t.ownerUserId, t.createdAt, t.id),
    index("results_owner_distance_idx").on(t.ownerUserId, t.distanceM, t.id),
    index("results_owner_duration_idx").on(t.ownerUserId, t.durationMs, t.id),
    // The web log's speed sort (m/s = distance / duration); server/sessions/session-log.ts writes the same expression.
    index("results_owner_speed_idx").on(t.ownerUserId, sql`(${t.distanceM}::double precision / greatest(${t.durationMs}, 1))`, t.id),
    index("results_created_by_application_idx").on(t.createdByApplicationId, t.id),
    index("results_track_idx").on(t.trackId),
    // Cohorts of one boat class and distance (server/analytics/cohorts.ts: benchmarks, comparable sessions).
    index("results_cohort_idx").on(t.vesselId, t.targetDistanceM, t.durationMs),
    index("results_key_pair_idx").on(t.keyPairId),
    // A retried or repeated upload of the same file by the same owner is refused, even when two race (issue 14, defect 13).
    uniqueIndex("results_owner_original_sha256_uq").on(t.ownerUserId, t.originalSha256),
    // Device file manifests (newest first) and per-device file counts.
    index("results_device_idx").on(t.deviceId, t.createdAt.desc(), t.id.desc()),
  ],
);

/** Weather at the time of the session (the upload's optional "meteo"). */
export const resultWeather = pgTable("result_weather", {
  resultId: integer("result_id")
    .primaryKey()
    .references(() => results.id, { onDelete: "cascade" }),
  /** m/s, 0 to 20. */
  windSpeedMS: real("wind_speed_m_s"),
  /** Degrees clockwise from north the wind blows from, 0 to 359. */
  windDirectionDeg: real("wind_direction_deg"),
  /** °C, -20 to 50. */
  airTemperatureC: real("air_temperature_c"),
  /** °C, 0 to 40. */
  waterTemperatureC: real("water_temperature_c"),
});

/** The crew in boat order: each seat holds an internal athlete or an external one entered by hand. */
export const resultCrew = pgTable(
  "result_crew",
  {
    resultId: integer("result_id")
      .notNull()
      .references(() => results.id, { onDelete: "cascade" }),
    /** 1-based seat from the bow. */
    seat: smallint("seat").notNull(),
    athleteId: integer("athlete_id").references(() => athletes.id, { onDelete: "restrict" }),
    externalName: varchar("external_name", { length: 128 }),
    externalSurname: text("external_surname"),
    /** kg, 0 to 150. */
    externalWeightKg: real("external_weight_kg"),
  },
  (t) => [
    primaryKey({ columns: [t.resultId, t.seat] }),
    check(
      "result_crew_seat_chk",
      sql`(${t.athleteId} is not null and ${t.externalName} is null) or (${t.athleteId} is null and ${t.externalName} is not null)`,
    ),
    index("result_crew_athlete_idx").on(t.athleteId, t.resultId),
  ],
);

/** One row per stroke of the effort (members of data_strokes.strokes in the results API). */
export const resultStrokes = pgTable(
  "result_strokes",
  {
    resultId: integer("result_id")
      .notNull()
      .references(() => results.id, { onDelete: "cascade" }),
    ...strokeColumns(),
  },
  (t) => [primaryKey({ columns: [t.resultId, t.strokeIndex] })],
);

/**
 * What processing derived beyond strokes (server/svc/process/types.ts): kept
 * as JSON because the APIs rebuild splits and series from it without the raw file.
 */
export const resultDerived = pgTable("result_derived", {
  resultId: integer("result_id")
    .primaryKey()
    .references(() => results.id, { onDelete: "cascade" }),
  /** Effort start and end, seconds from the file's first IMU sample. */
  effortStartS: real("effort_start_s").notNull(),
  effortEndS: real("effort_end_s").notNull(),
  /** SessionSummary. */
  summary: jsonb("summary").notNull(),
  /** DataQuality report. */
  dataQuality: jsonb("data_quality").notNull(),
  /** EffortTrack: 10 Hz time, distance, speed, heart rate and a downsampled route. */
  track: jsonb("track").notNull(),
  /** Heart rate in the effort: [seconds from start, bpm] pairs (own device only). */
  heartRate: jsonb("heart_rate").notNull(),
  /**
   * PROCESSING_CORE_VERSION (server/svc/process/version.ts) of the core that
   * produced these figures and the result's strokes. Null: stored before the
   * version was recorded (migration 0026), so unknown — a reprocessing run
   * treats it as older than any version (docs/processing.md "Versions").
   */
  processingCoreVersion: integer("processing_core_version"),
  /** Blob key of the replay artifact once built (immutable). */
  replayBlobKey: text("replay_blob_key"),
});
