import { sql } from "drizzle-orm";
import {
  boolean,
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
import { oauthApplications } from "./oauth-applications";
import { vessels } from "./reference";
import { tracks } from "./tracks";
import { strokeColumns } from "./stroke-columns";
import { users } from "./users";

/**
 * A workout template a person keeps (docs/workouts.md): a normalized
 * version-1 workout (server/workouts/template.ts). Owned by one person;
 * read through the Data API (workouts:read), edited in the web app only.
 */
export const workoutTemplates = pgTable(
  "workout_templates",
  {
    id: serial("id").primaryKey(),
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 128 }).notNull(),
    /** The normalized version-1 template document (NormalizedTemplate), as inspectTemplate returns it. */
    template: jsonb("template").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("workout_templates_owner_idx").on(t.ownerUserId, t.id)],
);

/** Where a training is in its processing (docs/trainings.md "States"). */
export const TRAINING_STATUSES = ["queued", "processing", "ready", "failed"] as const;

/**
 * A training: one recording of a practice with several work sets and rests
 * (server/svc/process/training.ts). Stored with its original file and
 * processed in the background; the recording's facts (date, distance,
 * duration) are null until processing has written them.
 */
export const trainings = pgTable(
  "trainings",
  {
    id: serial("id").primaryKey(),
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The paddler, when the owner picked one of the athletes they may record for. */
    athleteId: integer("athlete_id").references(() => athletes.id, { onDelete: "set null" }),
    deviceId: integer("device_id").references(() => devices.id, { onDelete: "set null" }),
    vesselId: integer("vessel_id")
      .notNull()
      .references(() => vessels.id),
    trackId: integer("track_id").references(() => tracks.id, { onDelete: "set null" }),
    title: varchar("title", { length: 128 }).notNull().default(""),
    notes: varchar("notes", { length: 1000 }).notNull().default(""),
    /** The template the practice followed, if any; its normalized document is kept as it was at upload. */
    templateId: integer("template_id").references(() => workoutTemplates.id, { onDelete: "set null" }),
    templateSnapshot: jsonb("template_snapshot"),
    /** Segmentation sensitivity used (0.5–10). */
    sensitivity: real("sensitivity").notNull().default(5),
    createdVia: text("created_via", { enum: ["web", "api", "demo"] }).notNull(),
    keyPairId: integer("key_pair_id"),
    /** The Data API "session" surface shows an application only the trainings it created. */
    createdByApplicationId: integer("created_by_application_id").references(() => oauthApplications.id, { onDelete: "set null" }),
    originalFilename: text("original_filename"),
    originalSha256: text("original_sha256"),
    originalBlobId: integer("original_blob_id").references(() => blobs.id, { onDelete: "set null" }),
    status: text("status", { enum: TRAINING_STATUSES }).notNull().default("queued"),
    /** Failed trainings: a stable code and a message in people's words. */
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    /** PROCESSING_CORE_VERSION of the figures stored now (null before the first processing). */
    processingCoreVersion: integer("processing_core_version"),
    /** Facts of the recording, from the first work set's start (null until processed). */
    date: date("date"),
    timeOfDay: text("time_of_day"),
    startAt: timestamp("start_at", { withTimezone: true }),
    utcOffsetMin: smallint("utc_offset_min"),
    /** First work start to last work end. */
    distanceM: integer("distance_m"),
    durationMs: integer("duration_ms"),
    workSetCount: smallint("work_set_count"),
    /**
     * Reprocessing could not re-apply the coach's set corrections to the new
     * detection (docs/trainings.md "Corrected sets"): the corrected sets were
     * kept as they were and want a look. Cleared by the next correction, an undo or "Reviewed".
     */
    needsReview: boolean("needs_review").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (t) => [
    // The list, newest first by recording date; a queued training sorts by its upload time until processed.
    index("trainings_owner_start_idx").on(t.ownerUserId, sql`coalesce(${t.startAt}, ${t.createdAt})`, t.id),
    index("trainings_created_by_application_idx").on(t.createdByApplicationId, t.id),
    index("trainings_status_idx").on(t.status, t.id),
    uniqueIndex("trainings_owner_original_sha256_uq").on(t.ownerUserId, t.originalSha256),
  ],
);

/**
 * The crew of a training in a crew boat (K2, K4, C2, C4), one row per named
 * seat, 1-based from the bow. Seat 1 is also the training's `athlete_id`: the
 * stroke seat wears the unit's heart-rate strap (server/health/health-projection.ts).
 * Only the club's athletes are named; a seat left unnamed has no row.
 */
export const trainingCrew = pgTable(
  "training_crew",
  {
    trainingId: integer("training_id")
      .notNull()
      .references(() => trainings.id, { onDelete: "cascade" }),
    seat: smallint("seat").notNull(),
    athleteId: integer("athlete_id")
      .notNull()
      .references(() => athletes.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.trainingId, t.seat] }),
    uniqueIndex("training_crew_athlete_uq").on(t.trainingId, t.athleteId),
    index("training_crew_athlete_idx").on(t.athleteId, t.trainingId),
  ],
);

/** Whole-training derived data beyond the sets (replaced as one when reprocessed). */
export const trainingDerived = pgTable("training_derived", {
  trainingId: integer("training_id")
    .primaryKey()
    .references(() => trainings.id, { onDelete: "cascade" }),
  effortStartS: real("effort_start_s").notNull(),
  effortEndS: real("effort_end_s").notNull(),
  /** SessionSummary over first work start to last work end. */
  summary: jsonb("summary").notNull(),
  dataQuality: jsonb("data_quality").notNull(),
  /** EffortTrack over the same span. */
  track: jsonb("track").notNull(),
  /** TemplateMatch (unmatched steps, extra sets) when a template was used. */
  templateMatch: jsonb("template_match"),
  /** The sets as detection found them ([{kind, start_s, end_s, step_index}]): what a correction is compared with. */
  detectedSets: jsonb("detected_sets"),
  /** Catch times (recording clock, s) of every stroke of the recording: where a boundary may move to. */
  strokeCatches: jsonb("stroke_catches"),
});

/**
 * The sets of a training in time order: work sets (efforts) and the rests
 * between them. `id` is the Data API's `set_id`.
 */
export const trainingSets = pgTable(
  "training_sets",
  {
    id: serial("id").primaryKey(),
    trainingId: integer("training_id")
      .notNull()
      .references(() => trainings.id, { onDelete: "cascade" }),
    /** 1-based position in time order. */
    position: smallint("position").notNull(),
    kind: text("kind", { enum: ["work", "rest"] }).notNull(),
    /** Seconds on the recording clock (the clock of strokes' catch_s). */
    startS: real("start_s").notNull(),
    endS: real("end_s").notNull(),
    distanceM: integer("distance_m").notNull(),
    durationMs: integer("duration_ms").notNull(),
    strokeCount: integer("stroke_count").notNull(),
    /** Work sets matched to a template: index in the expanded steps. */
    stepIndex: smallint("step_index"),
    /** False when the step's distance or time was not reached. */
    complete: boolean("complete").notNull().default(true),
    /** Work sets only: SessionSummary, EffortTrack and [s, bpm] heart rate of the set. */
    summary: jsonb("summary"),
    track: jsonb("track"),
    heartRate: jsonb("heart_rate"),
    /** True when the set's kind or bounds differ from what detection found (a coach's correction). */
    corrected: boolean("corrected").notNull().default(false),
  },
  (t) => [uniqueIndex("training_sets_position_uq").on(t.trainingId, t.position)],
);

/** Strokes of a work set (the columns of result_strokes; distance from the set start). */
export const trainingSetStrokes = pgTable(
  "training_set_strokes",
  {
    setId: integer("set_id")
      .notNull()
      .references(() => trainingSets.id, { onDelete: "cascade" }),
    ...strokeColumns(),
  },
  (t) => [primaryKey({ columns: [t.setId, t.strokeIndex] })],
);

/**
 * One correction of a training's sets by a person (docs/trainings.md
 * "Corrected sets"), in the order made. `operation` is what was asked,
 * `before`/`after` the set layouts ([{id, kind, start_s, end_s, step_index}],
 * recording clock) around it; undo restores `before` and stamps `undoneAt`.
 */
export const trainingSetCorrections = pgTable(
  "training_set_corrections",
  {
    id: serial("id").primaryKey(),
    trainingId: integer("training_id")
      .notNull()
      .references(() => trainings.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    operation: jsonb("operation").notNull(),
    before: jsonb("before").notNull(),
    after: jsonb("after").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    undoneAt: timestamp("undone_at", { withTimezone: true }),
    undoneByUserId: integer("undone_by_user_id").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("training_set_corrections_training_idx").on(t.trainingId, t.id)],
);
