import { seedDemoLoad } from "./demo-load";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { athletes, teamMemberships, teams, trackTeamShares, tracks, users, workoutTemplates } from "../db/schema";
import { uploadResult } from "../results/upload-result";
import { loadKeyring } from "../svc/keyring";
import { parseTrainingSpec } from "../svc/simulator/training";
import type { VesselType } from "../svc/types";
import { createTrainingFromUpload } from "../trainings/create-training";
import { processStoredTraining } from "../trainings/process-training";
import { createPlan } from "../plans/plans";
import { createUser } from "../users/users";
import { inspectTemplate } from "../workouts/template";
import { seedDemoComments } from "./demo-comments";
import { DEMO_TEMPLATES, demoSessionFile, demoTrainingFile, planDemoSeason, planDemoWorkouts } from "./demo-season";
import { vesselIdOf } from "./vessel-ids";

/** Printed by the quickstart; demo data only, never a real deployment's. */
export const DEMO_ACCOUNTS = {
  coach: { email: "demo@paddle.example", password: "demo-paddler-2026", name: "Dana Demo" },
  athlete: { email: "lucia@paddle.example", password: "demo-paddler-2026", name: "Lucía Vega" },
  operator: { email: "operator@paddle.example", password: "demo-operator-2026", name: "Olek Operator" },
} as const;
/** Tests seed the same club under accounts of their own (the seed is idempotent per coach email). */
export type DemoAccounts = Record<keyof typeof DEMO_ACCOUNTS, { email: string; password: string; name: string }>;

/**
 * Demo data for the quickstart: a coach with a club of athletes, a team,
 * tracks; an athlete account linked to one athlete; an operator; and the
 * club's season up to `now` (demo-season.ts). Idempotent: it does nothing
 * when the demo coach exists.
 */
export async function seedDemo(
  db: Db,
  options: { now?: Date; accounts?: DemoAccounts; weeks?: number } = {},
): Promise<{ created: boolean; coachUserId?: number }> {
  const { now = new Date(), accounts = DEMO_ACCOUNTS, weeks } = options;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, accounts.coach.email));
  if (existing) return { created: false };

  const coach = await createUser(db, accounts.coach, { role: "coach", accountKind: "demo" });
  const athleteUser = await createUser(db, accounts.athlete, { role: "athlete", accountKind: "demo" });
  await createUser(db, accounts.operator, { role: "operator", accountKind: "demo" });

  const nextYear = `${new Date().getUTCFullYear() + 1}-12-31`;
  const { athleteIds, trackIds, teamId } = await db.transaction(async (tx) => {
    const roster = await tx
      .insert(athletes)
      .values([
        {
          ownerUserId: coach.id,
          userId: athleteUser.id,
          name: "Lucía",
          surname: "Vega",
          dateOfBirth: "2001-04-12",
          modality: "Kayak",
          weightKg: 64,
          subscriptionActiveUntil: nextYear,
        },
        {
          ownerUserId: coach.id,
          name: "Marta",
          surname: "Iglesias",
          dateOfBirth: "2003-09-03",
          modality: "Kayak",
          weightKg: 61,
          subscriptionActiveUntil: nextYear,
        },
        {
          ownerUserId: coach.id,
          name: "Pablo",
          surname: "Ferreira",
          dateOfBirth: "1999-01-27",
          modality: "Kayak",
          weightKg: 82,
          subscriptionActiveUntil: nextYear,
        },
        {
          ownerUserId: coach.id,
          name: "Jon",
          surname: "Arrieta",
          dateOfBirth: "2000-06-18",
          modality: "Kayak",
          weightKg: 85,
          subscriptionActiveUntil: nextYear,
        },
        {
          ownerUserId: coach.id,
          name: "Iván",
          surname: "Costa",
          dateOfBirth: "2002-11-30",
          modality: "Canoe",
          weightKg: 78,
          subscriptionActiveUntil: nextYear,
        },
        {
          ownerUserId: coach.id,
          name: "Sergio",
          surname: "Lamas",
          dateOfBirth: "2004-02-14",
          modality: "Canoe",
          weightKg: 75,
          subscriptionActiveUntil: nextYear,
        },
        // No active subscription: uploads naming him are refused (results API rule).
        { ownerUserId: coach.id, name: "Tomás", surname: "Rey", dateOfBirth: "2006-08-08", modality: "Kayak", weightKg: 70 },
      ])
      .returning({ id: athletes.id });
    const [team] = await tx.insert(teams).values({ name: "Demo Canoe Club", ownerUserId: coach.id }).returning({ id: teams.id });
    await tx
      .insert(teamMemberships)
      .values([
        { teamId: team.id, role: "coach", userId: coach.id },
        ...roster.slice(0, 6).map((a) => ({ teamId: team.id, role: "athlete" as const, athleteId: a.id })),
      ]);
    const courses = await tx
      .insert(tracks)
      .values([
        { ownerUserId: coach.id, name: "Club basin 1000 m", location: "Pontevedra", latitude: 42.4296, longitude: -8.6446 },
        { ownerUserId: coach.id, name: "River training stretch", location: "Río Lérez" },
        {
          ownerUserId: coach.id,
          name: "Regatta course (public)",
          location: "Trasona",
          latitude: 43.5569,
          longitude: -5.9019,
          isPublic: true,
        },
      ])
      .returning({ id: tracks.id });
    await tx.insert(trackTeamShares).values({ trackId: courses[0].id, teamId: team.id });
    return { athleteIds: roster.map((a) => a.id), trackIds: courses.map((c) => c.id), teamId: team.id };
  });

  // The club's season (demo-season.ts): every file from the simulator, uploaded and processed through the same paths as real ones.
  const plan = planDemoSeason(now, weeks);
  const keyring = loadKeyring({});
  const vesselIds = new Map<VesselType, number>();
  const vesselId = async (type: VesselType) => vesselIds.get(type) ?? vesselIds.set(type, await vesselIdOf(db, type)).get(type)!;
  for (const session of plan.sessions) {
    await uploadResult(
      db,
      {
        user: coach,
        createdVia: "demo",
        keyPairId: null,
        file: { filename: `demo-${session.key.toLowerCase()}.svc`, bytes: demoSessionFile(session, keyring) },
        metadata: JSON.stringify({
          distance: session.sim.distanceM,
          vessel_id: await vesselId(session.sim.vessel),
          track_id: trackIds[session.track],
          category_id: 1,
          pace_id: session.paceId,
          athletes: session.crew.map((position) => athleteIds[position]),
          competition: session.competition,
          description: session.description,
          important: session.important,
          meteo: {
            wind_speed: 1 + (session.sim.seed % 4),
            wind_direction: (session.sim.seed * 45) % 360,
            air_temperature: 12 + (session.sim.seed % 9),
            water_temperature: 14,
          },
        }),
      },
      { keyring, now: new Date(session.startUnixMs + 3_600_000) },
    );
  }

  // Interval trainings against the club's two templates (docs/trainings.md), processed now so the quickstart shows them ready.
  const templateIds: number[] = [];
  for (const t of DEMO_TEMPLATES) {
    const steps = parseTrainingSpec(t.spec)!.map((step) =>
      step.kind === "work" && t.rate ? { ...step, targets: { rate_spm: t.rate } } : step,
    );
    const inspected = inspectTemplate({ version: 1, name: t.name, boat_class: t.boatClass, steps });
    const [template] = await db
      .insert(workoutTemplates)
      .values({ ownerUserId: coach.id, name: t.name, template: inspected.template })
      .returning({ id: workoutTemplates.id });
    templateIds.push(template.id);
  }
  // Planned workouts (docs/plans.md "Demo"), created before the trainings are processed so that each
  // training is matched to the plan of its day as it is processed.
  for (const planned of planDemoWorkouts(now, weeks)) {
    await createPlan(db, coach.id, {
      date: planned.date,
      title: planned.title,
      notes: planned.notes,
      audience:
        planned.audience.kind === "team" ? { kind: "team", teamId } : { kind: "athlete", athleteId: athleteIds[planned.audience.athlete] },
      source: planned.source.kind === "template" ? { kind: "template", templateId: templateIds[planned.source.template] } : planned.source,
    });
  }
  for (const training of plan.trainings) {
    const created = await createTrainingFromUpload(db, {
      user: coach,
      createdVia: "demo",
      file: { filename: `demo-${training.key}.svc`, bytes: demoTrainingFile(training, keyring) },
      vesselId: await vesselId(training.vessel),
      trackId: trackIds[training.track],
      athleteId: athleteIds[training.athlete],
      title: DEMO_TEMPLATES[training.template].name,
      templateId: templateIds[training.template],
    });
    await processStoredTraining(db, created.id, { keyring });
  }
  await seedDemoComments(db, { coachUserId: coach.id, athleteUserId: athleteUser.id });
  await seedDemoLoad(db, athleteUser.id);
  return { created: true, coachUserId: coach.id };
}
