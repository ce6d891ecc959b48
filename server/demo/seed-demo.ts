import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { athletes, teamMemberships, teams, trackTeamShares, tracks, users, workoutTemplates } from "../db/schema";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession, type SimulateOptions } from "../svc/simulator/simulate";
import { createTrainingFromUpload } from "../trainings/create-training";
import { processStoredTraining } from "../trainings/process-training";
import { simulatedTrainingFile, vesselIdOf } from "../trainings/test-support";
import { createUser } from "../users/users";
import { inspectTemplate } from "../workouts/template";

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

  const coach = await createUser(db, DEMO_ACCOUNTS.coach, { role: "coach", accountKind: "demo" });
  const athleteUser = await createUser(db, DEMO_ACCOUNTS.athlete, { role: "athlete", accountKind: "demo" });
  await createUser(db, DEMO_ACCOUNTS.operator, { role: "operator", accountKind: "demo" });

  const nextYear = `${new Date().getUTCFullYear() + 1}-12-31`;
  const { athleteIds, trackIds } = await db.transaction(async (tx) => {
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
    return { athleteIds: roster.map((a) => a.id), trackIds: courses.map((c) => c.id) };
  });

  // Simulated sessions for several boat classes, uploaded through the same path as real ones.
  const [lucia, marta, pablo, jon, ivan, sergio] = athleteIds;
  const sessions: { sim: SimulateOptions; vesselId: number; crew: number[]; trackId: number; paceId: number; competition?: string; description?: string }[] = [
    { sim: { vessel: "K1", distanceM: 500, seed: 101 }, vesselId: 1, crew: [lucia], trackId: trackIds[0], paceId: 1, competition: "Club time trial" },
    { sim: { vessel: "K2", distanceM: 1000, seed: 102, pace: "training" }, vesselId: 2, crew: [marta, lucia], trackId: trackIds[0], paceId: 2, description: "Steady 1000" },
    { sim: { vessel: "K4", distanceM: 500, seed: 103, noise: "noisy" }, vesselId: 3, crew: [lucia, marta, pablo, jon], trackId: trackIds[2], paceId: 1, competition: "Spring regatta" },
    { sim: { vessel: "C1", distanceM: 200, seed: 104 }, vesselId: 4, crew: [ivan], trackId: trackIds[1], paceId: 4, description: "Start practice" },
    { sim: { vessel: "C2", durationMs: 60_000, seed: 105, pace: "training" }, vesselId: 5, crew: [ivan, sergio], trackId: trackIds[1], paceId: 2, description: "1 minute piece" },
  ];
  const keyring = loadKeyring({});
  for (const session of sessions) {
    const bytes = Buffer.from(encodeSvc(simulateSession(session.sim).content, keyring));
    await uploadResult(
      db,
      {
        user: coach,
        createdVia: "demo",
        keyPairId: null,
        file: { filename: `demo-${session.sim.vessel.toLowerCase()}-${session.sim.seed}.svc`, bytes },
        metadata: JSON.stringify({
          ...(session.sim.distanceM ? { distance: session.sim.distanceM } : { duration_ms: session.sim.durationMs }),
          vessel_id: session.vesselId,
          track_id: session.trackId,
          category_id: 1,
          pace_id: session.paceId,
          athletes: session.crew,
          competition: session.competition,
          description: session.description,
          meteo: { wind_speed: 2.1, wind_direction: 250, air_temperature: 17, water_temperature: 15 },
        }),
      },
      { keyring },
    );
  }

  // Two interval practices for Lucía (docs/trainings.md), one against a template, processed now so the quickstart shows them ready.
  const inspected = inspectTemplate({ version: 1, name: "4 × 500 m, 90 s rest", boat_class: "K1", steps: [{ repeat: 4, steps: [{ kind: "work", distance_m: 500, targets: { rate_spm: 90 } }, { kind: "rest", duration_s: 90 }] }] });
  const [template] = await db.insert(workoutTemplates).values({ ownerUserId: coach.id, name: "4 × 500 m, 90 s rest", template: inspected.template }).returning({ id: workoutTemplates.id });
  const practices = [
    { spec: "4x500m/90s", seed: 201, title: "4 × 500 m at race pace", templateId: template.id },
    { spec: "6x60s/60s", seed: 202, title: "6 × 1 minute", templateId: null },
  ];
  for (const practice of practices) {
    const { bytes } = simulatedTrainingFile({ spec: practice.spec, vessel: "K1", seed: practice.seed, keyring });
    const created = await createTrainingFromUpload(db, {
      user: coach,
      createdVia: "demo",
      file: { filename: `demo-training-${practice.seed}.svc`, bytes },
      vesselId: await vesselIdOf(db, "K1"),
      trackId: trackIds[0],
      athleteId: lucia,
      title: practice.title,
      templateId: practice.templateId,
    });
    await processStoredTraining(db, created.id, { keyring });
  }
  return { created: true };
}
