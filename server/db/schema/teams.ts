import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { athletes } from "./athletes";
import { users } from "./users";

export const teams = pgTable("teams", {
  id: serial("id").primaryKey(),
  name: text("name").notNull(),
  /** Account that created the team; it may edit it and its memberships. */
  ownerUserId: integer("owner_user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A coach (a user account) or an athlete (an athlete record) in a team.
 * Coaches reach the team's athletes and their sessions; see docs/access.md.
 */
export const teamMemberships = pgTable(
  "team_memberships",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    /** coach | athlete */
    role: text("role", { enum: ["coach", "athlete"] }).notNull(),
    /** Set for coaches. */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** Set for athletes. */
    athleteId: integer("athlete_id").references(() => athletes.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "team_memberships_member_chk",
      sql`(${t.role} = 'coach' and ${t.userId} is not null and ${t.athleteId} is null) or (${t.role} = 'athlete' and ${t.athleteId} is not null and ${t.userId} is null)`,
    ),
    uniqueIndex("team_memberships_coach_uq").on(t.teamId, t.userId),
    uniqueIndex("team_memberships_athlete_uq").on(t.teamId, t.athleteId),
    index("team_memberships_user_idx").on(t.userId),
    index("team_memberships_athlete_idx").on(t.athleteId),
  ],
);
