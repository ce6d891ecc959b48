import { and, asc, eq, gt } from "drizzle-orm";
import { athleteAccessible, teamAccessible } from "../access/access";
import type { Db } from "../db/client";
import { athletes, teamMemberships, teams, users } from "../db/schema";
import { notFound } from "../errors";

/**
 * Teams as the Data API shows them (data surface, athlete:read): read-only,
 * without the owner's controls. A member list carries no account ids, emails
 * or membership ids; coaches appear by display name, and athletes only when
 * the viewer may see them anyway (docs/access.md), so a team never widens
 * who the viewer can see.
 */
export interface TeamRoster {
  id: number;
  name: string;
  coaches: { name: string }[];
  athletes: { id: number; name: string; surname: string }[];
}

/** Accessible teams in id order after `afterId` (keyset on the primary key; null = from the start). */
export async function listAccessibleTeamsAfter(db: Db, userId: number, page: { afterId: number | null; take: number }) {
  return db
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(and(teamAccessible(userId), page.afterId !== null ? gt(teams.id, page.afterId) : undefined))
    .orderBy(asc(teams.id))
    .limit(page.take);
}

export async function getTeamRoster(db: Db, userId: number, teamId: number): Promise<TeamRoster> {
  const [team] = await db
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(and(eq(teams.id, teamId), teamAccessible(userId)));
  if (!team) throw notFound("Team");
  const [coaches, visibleAthletes] = await Promise.all([
    db
      .select({ name: users.name })
      .from(teamMemberships)
      .innerJoin(users, eq(users.id, teamMemberships.userId))
      .where(and(eq(teamMemberships.teamId, teamId), eq(teamMemberships.role, "coach")))
      .orderBy(asc(teamMemberships.id)),
    db
      .select({ id: athletes.id, name: athletes.name, surname: athletes.surname })
      .from(teamMemberships)
      .innerJoin(athletes, eq(athletes.id, teamMemberships.athleteId))
      .where(and(eq(teamMemberships.teamId, teamId), eq(teamMemberships.role, "athlete"), athleteAccessible(userId)))
      .orderBy(asc(athletes.id)),
  ]);
  return { ...team, coaches, athletes: visibleAthletes };
}
