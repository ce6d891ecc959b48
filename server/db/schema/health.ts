import { date, index, integer, pgTable, real, serial, text, timestamp } from "drizzle-orm/pg-core";
import { results } from "./results";
import { trainings } from "./trainings";
import { users } from "./users";

/**
 * Where a health value came from. Only "manual" (typed by the person) and
 * "device" (our own sensor units) may ever leave through the Data API;
 * "external" (another provider's import) never does (docs/health.md).
 */
export const HEALTH_PROVENANCE = ["manual", "device", "external"] as const;

/** Body weight history of a person. */
export const healthWeights = pgTable(
  "health_weights",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Day of the measurement. */
    measuredOn: date("measured_on").notNull(),
    /** kg. */
    weightKg: real("weight_kg").notNull(),
    provenance: text("provenance", { enum: HEALTH_PROVENANCE }).notNull(),
    /** Name of the external provider, for provenance "external" only. */
    externalSource: text("external_source"),
    /** Who typed a manual row in: the person, or the coach who manages their athlete record (docs/web-app.md). */
    enteredByUserId: integer("entered_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("health_weights_user_idx").on(t.userId, t.measuredOn.desc(), t.id.desc())],
);

/** Blood lactate readings, tied to a session or a training. */
export const healthLactate = pgTable(
  "health_lactate",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    resultId: integer("result_id").references(() => results.id, { onDelete: "cascade" }),
    /** The training the reading belongs to (deleted with it, like a session's). */
    trainingId: integer("training_id").references(() => trainings.id, { onDelete: "cascade" }),
    measuredAt: timestamp("measured_at", { withTimezone: true }).notNull(),
    /** mmol/L. */
    lactateMmolL: real("lactate_mmol_l").notNull(),
    /** When in the session: e.g. "before", "after 3 min". */
    note: text("note").notNull().default(""),
    provenance: text("provenance", { enum: HEALTH_PROVENANCE }).notNull(),
    externalSource: text("external_source"),
    /** Who typed a manual row in: the person, or the coach who manages their athlete record (docs/web-app.md). */
    enteredByUserId: integer("entered_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("health_lactate_user_idx").on(t.userId, t.measuredAt.desc(), t.id.desc()),
    // One session's readings in time order (Data API /health/lactate keyset).
    index("health_lactate_result_idx").on(t.resultId, t.measuredAt, t.id),
    index("health_lactate_training_idx").on(t.trainingId, t.measuredAt, t.id),
  ],
);
