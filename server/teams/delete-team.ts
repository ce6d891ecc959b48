import { and, countDistinct, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { resultCrew, teamMemberships, teams, trackTeamShares } from "../db/schema";
import { notFound } from "../errors";
import { count, keepTheirData } from "../deletion/plural";

/**
 * Deleting a team (docs/web-app.md "Deleting"): its memberships and track
 * shares go with it (ON DELETE CASCADE); no session, athlete or track is
 * deleted. What changes is who sees what: the team's coaches stop seeing the
 * team's athletes' sessions unless they reach them another way. Only the
 * owner may delete; anyone else gets the 404 of a missing team.
 */
export interface TeamDeletion {
  name: string;
  coaches: number;
  athletes: number;
  sessions: number;
  statement: string;
}

async function ownTeam(db: Db, userId: number, teamId: number) {
  const [row] = await db
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(and(eq(teams.id, teamId), eq(teams.ownerUserId, userId)));
  if (!row) throw notFound("Team");
  return row;
}

export async function teamDeletion(db: Db, userId: number, teamId: number): Promise<TeamDeletion> {
  const team = await ownTeam(db, userId, teamId);
  const [[m], [s], [t]] = await Promise.all([
    db
      .select({
        coaches: sql<number>`count(*) filter (where ${teamMemberships.role} = 'coach')::int`,
        athletes: sql<number>`count(*) filter (where ${teamMemberships.role} = 'athlete')::int`,
      })
      .from(teamMemberships)
      .where(eq(teamMemberships.teamId, teamId)),
    db
      .select({ n: countDistinct(resultCrew.resultId) })
      .from(resultCrew)
      .innerJoin(teamMemberships, and(eq(teamMemberships.athleteId, resultCrew.athleteId), eq(teamMemberships.teamId, teamId))),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(trackTeamShares)
      .where(eq(trackTeamShares.teamId, teamId)),
  ]);
  const statement = [
    `${count(m.coaches, "coach", "coaches")} and ${count(m.athletes, "athlete")} leave the team; no account or athlete record is deleted.`,
    s.n
      ? `${keepTheirData(s.n, "session of the team's athletes", "sessions of the team's athletes")}; coaches who see ${s.n === 1 ? "it" : "them"} only through this team no longer do.`
      : "No session of the team's athletes is affected.",
    t.n ? `${count(t.n, "track")} stop${t.n === 1 ? "s" : ""} being shared with the team.` : null,
  ]
    .filter(Boolean)
    .join(" ");
  return { name: team.name, coaches: m.coaches, athletes: m.athletes, sessions: s.n, statement };
}

export async function deleteTeam(db: Db, userId: number, teamId: number): Promise<void> {
  const deleted = await db
    .delete(teams)
    .where(and(eq(teams.id, teamId), eq(teams.ownerUserId, userId)))
    .returning({ id: teams.id });
  if (deleted.length === 0) throw notFound("Team");
}
