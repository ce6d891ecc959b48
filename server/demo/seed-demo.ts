import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { athletes, teamMemberships, teams, trackTeamShares, tracks, users } from "../db/schema";
import { createUser } from "../users/users";

/** Printed by the quickstart; demo data only, never a real deployment's. */
export const DEMO_ACCOUNTS = {
  coach: { email: "demo@paddle.example", password: "demo-paddler-2026", name: "Dana Demo" },
  athlete: { email: "lucia@paddle.example", password: "demo-paddler-2026", name: "Lucía Vega" },
  operator: { email: "operator@paddle.example", password: "demo-operator-2026", name: "Olek Operator" },
} as const;

/**
 * Demo data for the quickstart: a coach with athletes, a team, tracks; an
 * athlete account linked to one athlete; an operator. Idempotent: it does
 * nothing when the demo coach exists.
 */
export async function seedDemo(db: Db): Promise<{ created: boolean }> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, DEMO_ACCOUNTS.coach.email));
  if (existing) return { created: false };

  const coach = await createUser(db, DEMO_ACCOUNTS.coach, { role: "coach" });
  const athleteUser = await createUser(db, DEMO_ACCOUNTS.athlete, { role: "athlete" });
  await createUser(db, DEMO_ACCOUNTS.operator, { role: "operator" });

  const nextYear = `${new Date().getUTCFullYear() + 1}-12-31`;
  await db.transaction(async (tx) => {
    const roster = await tx
      .insert(athletes)
      .values([
        { ownerUserId: coach.id, userId: athleteUser.id, name: "Lucía", surname: "Vega", dateOfBirth: "2001-04-12", modality: "Kayak", weightKg: 64, subscriptionActiveUntil: nextYear },
        { ownerUserId: coach.id, name: "Marta", surname: "Iglesias", dateOfBirth: "2003-09-03", modality: "Kayak", weightKg: 61, subscriptionActiveUntil: nextYear },
        { ownerUserId: coach.id, name: "Pablo", surname: "Ferreira", dateOfBirth: "1999-01-27", modality: "Kayak", weightKg: 82, subscriptionActiveUntil: nextYear },
        { ownerUserId: coach.id, name: "Jon", surname: "Arrieta", dateOfBirth: "2000-06-18", modality: "Kayak", weightKg: 85, subscriptionActiveUntil: nextYear },
        { ownerUserId: coach.id, name: "Iván", surname: "Costa", dateOfBirth: "2002-11-30", modality: "Canoe", weightKg: 78, subscriptionActiveUntil: nextYear },
        { ownerUserId: coach.id, name: "Sergio", surname: "Lamas", dateOfBirth: "2004-02-14", modality: "Canoe", weightKg: 75, subscriptionActiveUntil: nextYear },
        // No active subscription: uploads naming him are refused (results API rule).
        { ownerUserId: coach.id, name: "Tomás", surname: "Rey", dateOfBirth: "2006-08-08", modality: "Kayak", weightKg: 70 },
      ])
      .returning({ id: athletes.id });
    const [team] = await tx.insert(teams).values({ name: "Demo Canoe Club", ownerUserId: coach.id }).returning({ id: teams.id });
    await tx.insert(teamMemberships).values([
      { teamId: team.id, role: "coach", userId: coach.id },
      ...roster.slice(0, 6).map((a) => ({ teamId: team.id, role: "athlete" as const, athleteId: a.id })),
    ]);
    const courses = await tx
      .insert(tracks)
      .values([
        { ownerUserId: coach.id, name: "Club basin 1000 m", location: "Pontevedra", latitude: 42.4296, longitude: -8.6446 },
        { ownerUserId: coach.id, name: "River training stretch", location: "Río Lérez" },
        { ownerUserId: coach.id, name: "Regatta course (public)", location: "Trasona", latitude: 43.5569, longitude: -5.9019, isPublic: true },
      ])
      .returning({ id: tracks.id });
    await tx.insert(trackTeamShares).values({ trackId: courses[0].id, teamId: team.id });
  });
  return { created: true };
}
