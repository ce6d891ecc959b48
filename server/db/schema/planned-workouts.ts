import { date, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, varchar } from "drizzle-orm/pg-core";
import { athletes } from "./athletes";
import { teams } from "./teams";
import { workoutTemplates } from "./trainings";
import { users } from "./users";

/**
 * A workout a coach planned for a day (docs/plans.md): for one athlete, a
 * crew (boat class and seats) or a team. `document` is the PlanDocument
 * (server/plans/plan-document.ts): warm-up, the steps (work reps and rests,
 * the processing core's WorkoutStep), cool-down, notes.
 */
export const plannedWorkouts = pgTable(
  "planned_workouts",
  {
    id: serial("id").primaryKey(),
    createdByUserId: integer("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    date: date("date").notNull(),
    title: varchar("title", { length: 128 }).notNull(),
    audience: text("audience", { enum: ["athlete", "crew", "team"] }).notNull(),
    /** Team plans: the team (its athletes at the time of reading are the plan's people). */
    teamId: integer("team_id").references(() => teams.id, { onDelete: "cascade" }),
    boatClass: text("boat_class"),
    /** The template it was planned from, if any (the steps are copied: editing the template later changes no plan). */
    templateId: integer("template_id").references(() => workoutTemplates.id, { onDelete: "set null" }),
    document: jsonb("document").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("planned_workouts_date_idx").on(t.date, t.id), index("planned_workouts_team_idx").on(t.teamId, t.date)],
);

/** The athletes of an athlete or crew plan; a crew's seat is 1-based from the bow. */
export const plannedWorkoutAthletes = pgTable(
  "planned_workout_athletes",
  {
    planId: integer("plan_id")
      .notNull()
      .references(() => plannedWorkouts.id, { onDelete: "cascade" }),
    athleteId: integer("athlete_id")
      .notNull()
      .references(() => athletes.id, { onDelete: "cascade" }),
    seat: smallint("seat"),
  },
  (t) => [primaryKey({ columns: [t.planId, t.athleteId] }), index("planned_workout_athletes_athlete_idx").on(t.athleteId, t.planId)],
);
