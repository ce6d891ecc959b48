import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { athleteAccessible, teamAccessible } from "../access/access";
import type { Db } from "../db/client";
import { athletes, teamMemberships, teams, users } from "../db/schema";
import { AppError, notFound } from "../errors";
import { ZEmail } from "../users/users";

export const ZTeamInput = z.object({
  name: z.string().trim().min(1, "Enter a name").max(128, "At most 128 characters"),
});

export const ZAddCoach = z.object({ teamId: z.number().int().positive(), email: ZEmail });
export const ZAddAthlete = z.object({ teamId: z.number().int().positive(), athleteId: z.number().int().positive() });

export interface TeamMemberView {
  membershipId: number;
  role: "coach" | "athlete";
  /** Display name: the coach's account name or the athlete's full name. */
  displayName: string;
  athleteId: number | null;
}

export interface TeamView {
  id: number;
  name: string;
  editable: boolean;
  coachCount: number;
  athleteCount: number;
}

export interface TeamDetail extends TeamView {
  members: TeamMemberView[];
}

export async function listAccessibleTeams(db: Db, userId: number): Promise<TeamView[]> {
  const rows = await db
    .select({
      id: teams.id,
      name: teams.name,
      ownerUserId: teams.ownerUserId,
      // teams.id written out: drizzle leaves a select-list column unqualified, which inside the subquery would be m.id.
      coachCount: sql<number>`(select count(*)::int from team_memberships m where m.team_id = teams.id and m.role = 'coach')`,
      athleteCount: sql<number>`(select count(*)::int from team_memberships m where m.team_id = teams.id and m.role = 'athlete')`,
    })
    .from(teams)
    .where(teamAccessible(userId))
    .orderBy(asc(teams.name), asc(teams.id));
  return rows.map(({ ownerUserId, ...r }) => ({ ...r, editable: ownerUserId === userId }));
}

export async function getAccessibleTeam(db: Db, userId: number, teamId: number): Promise<TeamDetail> {
  const team = (await listAccessibleTeams(db, userId)).find((t) => t.id === teamId);
  if (!team) throw notFound("Team");
  const members = await db
    .select({
      membershipId: teamMemberships.id,
      role: teamMemberships.role,
      coachName: users.name,
      athleteId: athletes.id,
      athleteName: sql<string | null>`trim(${athletes.name} || ' ' || ${athletes.surname})`,
    })
    .from(teamMemberships)
    .leftJoin(users, eq(users.id, teamMemberships.userId))
    .leftJoin(athletes, eq(athletes.id, teamMemberships.athleteId))
    .where(eq(teamMemberships.teamId, teamId))
    .orderBy(asc(teamMemberships.role), asc(teamMemberships.id));
  return {
    ...team,
    members: members.map((m) => ({
      membershipId: m.membershipId,
      role: m.role,
      displayName: (m.role === "coach" ? m.coachName : m.athleteName) ?? "",
      athleteId: m.athleteId,
    })),
  };
}

async function requireOwnTeam(db: Db, userId: number, teamId: number): Promise<void> {
  const team = await getAccessibleTeam(db, userId, teamId);
  if (!team.editable) throw new AppError("forbidden", "Only the owner of this team can change it");
}

export async function createTeam(db: Db, userId: number, input: z.input<typeof ZTeamInput>): Promise<TeamView> {
  const { name } = ZTeamInput.parse(input);
  const id = await db.transaction(async (tx) => {
    const [team] = await tx.insert(teams).values({ name, ownerUserId: userId }).returning({ id: teams.id });
    // The creator coaches the team they create.
    await tx.insert(teamMemberships).values({ teamId: team.id, role: "coach", userId });
    return team.id;
  });
  return getAccessibleTeam(db, userId, id);
}

export async function renameTeam(db: Db, userId: number, teamId: number, input: z.input<typeof ZTeamInput>): Promise<TeamView> {
  const { name } = ZTeamInput.parse(input);
  await requireOwnTeam(db, userId, teamId);
  await db.update(teams).set({ name, updatedAt: new Date() }).where(eq(teams.id, teamId));
  return getAccessibleTeam(db, userId, teamId);
}

export async function addCoach(db: Db, userId: number, input: z.input<typeof ZAddCoach>): Promise<void> {
  const { teamId, email } = ZAddCoach.parse(input);
  await requireOwnTeam(db, userId, teamId);
  const [coach] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  // Same message whether or not an account exists: the form must not reveal who has an account.
  if (!coach)
    throw new AppError("invalid", "No account can be added with this email", { email: ["No account can be added with this email"] });
  await db.insert(teamMemberships).values({ teamId, role: "coach", userId: coach.id }).onConflictDoNothing();
}

export async function addAthlete(db: Db, userId: number, input: z.input<typeof ZAddAthlete>): Promise<void> {
  const { teamId, athleteId } = ZAddAthlete.parse(input);
  await requireOwnTeam(db, userId, teamId);
  const [athlete] = await db
    .select({ id: athletes.id })
    .from(athletes)
    .where(and(eq(athletes.id, athleteId), athleteAccessible(userId)));
  if (!athlete) throw new AppError("invalid", "Choose one of your athletes", { athleteId: ["Choose one of your athletes"] });
  await db.insert(teamMemberships).values({ teamId, role: "athlete", athleteId }).onConflictDoNothing();
}

/**
 * A team always keeps at least one coach: removing the last one is refused.
 * The team row is locked first, so two removals at once are ordered and the
 * second counts what the first left (two coaches removing each other cannot
 * both succeed).
 */
export async function removeMember(db: Db, userId: number, teamId: number, membershipId: number): Promise<void> {
  await requireOwnTeam(db, userId, teamId);
  await db.transaction(async (tx) => {
    const [team] = await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for("update");
    if (!team) throw notFound("Team");
    const [member] = await tx
      .select({ role: teamMemberships.role })
      .from(teamMemberships)
      .where(and(eq(teamMemberships.id, membershipId), eq(teamMemberships.teamId, teamId)));
    if (!member) throw notFound("Membership");
    if (member.role === "coach") {
      const [{ coaches }] = await tx
        .select({ coaches: sql<number>`count(*)::int` })
        .from(teamMemberships)
        .where(and(eq(teamMemberships.teamId, teamId), eq(teamMemberships.role, "coach")));
      if (coaches <= 1)
        throw new AppError("conflict", "A team always keeps at least one coach: add another coach before removing this one.");
    }
    await tx.delete(teamMemberships).where(eq(teamMemberships.id, membershipId));
  });
}
