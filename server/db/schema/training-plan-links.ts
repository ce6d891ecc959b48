import { index, integer, jsonb, pgTable, timestamp } from "drizzle-orm/pg-core";
import { plannedWorkouts } from "./planned-workouts";
import { trainings } from "./trainings";
import { users } from "./users";

/**
 * Which planned workout a training carried out, and the rep-by-rep
 * comparison (docs/plans.md). Kept apart from the training's derived data:
 * linking never changes a set or a figure. `planId` null with `linkedByUserId`
 * set is a coach's "not this plan", which processing again leaves alone.
 */
export const trainingPlanLinks = pgTable(
  "training_plan_links",
  {
    trainingId: integer("training_id")
      .primaryKey()
      .references(() => trainings.id, { onDelete: "cascade" }),
    planId: integer("plan_id").references(() => plannedWorkouts.id, { onDelete: "cascade" }),
    /** A person chose the link (re-link or unlink); null when matching found it. */
    linkedByUserId: integer("linked_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** PlanComparison (server/plans/compliance.ts); null when unlinked. */
    comparison: jsonb("comparison"),
    linkedAt: timestamp("linked_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("training_plan_links_plan_idx").on(t.planId)],
);
