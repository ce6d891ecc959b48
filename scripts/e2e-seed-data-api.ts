/**
 * Seeds the Data API test world (e2e/data-api-world.ts) through the same
 * domain functions the product uses, plus the few rows no page can make
 * (external-provider health data, crews mixing two accounts' athletes).
 * Idempotent: nothing happens when Anna exists.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../server/db/client";
import { API_SCOPES } from "../server/auth/oauth/scopes";
import {
  athletes,
  healthLactate,
  healthWeights,
  jobRuns,
  oauthApplications,
  resultCrew,
  results,
  teamMemberships,
  teams,
  trainings,
  users,
  workoutTemplates,
} from "../server/db/schema";
import { TRAINING_FAILURES } from "../server/trainings/process-training";
import { createProcessedTraining } from "../test/support/trainings";
import { createOwnPaddle, createOwnVessel } from "../server/equipment/equipment";
import { uploadResult } from "../server/results/upload-result";
import { encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { simulateSession, type SimulateOptions } from "../server/svc/simulator/simulate";
import { createTrack } from "../server/tracks/tracks";
import { createUser, getSessionUser } from "../server/users/users";
import { createTemplate } from "../server/workouts/templates";
import { DATA_WORLD as W } from "../e2e/data-api-world";

export async function seedDataApiWorld(db: Db): Promise<void> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, W.anna.email));
  if (existing) return;
  const anna = await createUser(db, W.anna, { role: "coach" });
  const olaf = await createUser(db, W.olaf, { role: "coach" });
  const active = "2099-12-31";
  const [annaSelf, ben, olafSelf] = await db
    .insert(athletes)
    .values([
      {
        ownerUserId: anna.id,
        userId: anna.id,
        name: "Anna",
        surname: "Owner",
        modality: "Kayak",
        weightKg: 66,
        subscriptionActiveUntil: active,
      },
      { ownerUserId: anna.id, name: W.ben.name, surname: W.ben.surname, modality: "Canoe", subscriptionActiveUntil: active },
      {
        ownerUserId: olaf.id,
        userId: olaf.id,
        name: "Olaf",
        surname: "Outsider",
        modality: "Kayak",
        weightKg: 90,
        subscriptionActiveUntil: active,
      },
    ])
    .returning({ id: athletes.id });
  const [team] = await db.insert(teams).values({ name: "E2E Data Club", ownerUserId: anna.id }).returning({ id: teams.id });
  await db.insert(teamMemberships).values([
    { teamId: team.id, role: "coach", userId: anna.id },
    { teamId: team.id, role: "athlete", athleteId: annaSelf.id },
    { teamId: team.id, role: "athlete", athleteId: ben.id },
  ]);
  const annaTrack = await createTrack(db, anna.id, { name: "Anna basin" });
  const olafTrack = await createTrack(db, olaf.id, { name: W.olafTrackName });
  const vessel = await createOwnVessel(db, anna.id, { name: W.annaVesselName, vesselTypeId: 1, brand: "Nelo", model: "Cinco" });
  const paddle = await createOwnPaddle(db, anna.id, { name: W.annaPaddleName, kind: "kayak", brand: "Braca", lengthCm: 215 });
  await createOwnVessel(db, olaf.id, { name: W.olafVesselName, vesselTypeId: 1 });

  const keyring = loadKeyring({});
  const upload = async (
    ownerId: number,
    sim: SimulateOptions,
    meta: { vessel_id: number; track_id: number; athletes: unknown[]; competition?: string },
  ) => {
    const user = (await getSessionUser(db, ownerId))!;
    const bytes = Buffer.from(encodeSvc(simulateSession(sim).content, keyring));
    const created = await uploadResult(db, {
      user,
      createdVia: "demo",
      keyPairId: null,
      file: { filename: `world-${sim.seed}.svc`, bytes },
      metadata: JSON.stringify({
        category_id: 1,
        pace_id: 1,
        ...(sim.distanceM ? { distance: sim.distanceM } : { duration_ms: sim.durationMs }),
        ...meta,
      }),
    });
    return created.id;
  };
  const s = W.seeds;
  const annaK1 = await upload(
    anna.id,
    { vessel: "K1", distanceM: 500, seed: s.annaK1 },
    { vessel_id: 1, track_id: annaTrack.id, athletes: [annaSelf.id], competition: "World trial" },
  );
  await db
    .update(results)
    .set({ equipmentVesselId: vessel.id, equipmentPaddleId: paddle.id, important: true })
    .where(eq(results.id, annaK1));
  // Seat 3 is typed by hand; seat 4 is Olaf, whom Anna may not see.
  const annaK4 = await upload(
    anna.id,
    { vessel: "K4", distanceM: 500, seed: s.annaK4 },
    {
      vessel_id: 3,
      track_id: annaTrack.id,
      athletes: [
        annaSelf.id,
        ben.id,
        { name: W.external.name, surname: W.external.surname, weight: 80 },
        { name: "Seat", surname: "Four" },
      ],
    },
  );
  await fixSeat(db, annaK4, 4, olafSelf.id);
  await upload(anna.id, { vessel: "C1", distanceM: 200, seed: s.annaC1Ben }, { vessel_id: 4, track_id: annaTrack.id, athletes: [ben.id] });
  // Olaf's K2 with Anna in seat 2: Anna paddled in it; the heart rate (seat 1) is Olaf's.
  const olafK2 = await upload(
    olaf.id,
    { vessel: "K2", distanceM: 500, seed: s.olafK2WithAnna },
    { vessel_id: 2, track_id: olafTrack.id, athletes: [olafSelf.id, { name: "Seat", surname: "Two" }] },
  );
  await fixSeat(db, olafK2, 2, annaSelf.id);
  await upload(
    olaf.id,
    { vessel: "K1", distanceM: 500, seed: s.olafK1 },
    { vessel_id: 1, track_id: olafTrack.id, athletes: [olafSelf.id] },
  );
  // Olaf's C2 with Ben: Anna reaches it only through athlete_id on the data surface.
  const olafC2 = await upload(
    olaf.id,
    { vessel: "C2", distanceM: 200, seed: s.olafC2WithBen },
    { vessel_id: 5, track_id: olafTrack.id, athletes: [olafSelf.id, { name: "Seat", surname: "Two" }] },
  );
  await fixSeat(db, olafC2, 2, ben.id);
  await db.insert(results).values({
    ownerUserId: anna.id,
    trackId: annaTrack.id,
    vesselId: 1,
    categoryId: 1,
    paceId: 1,
    createdVia: "demo",
    date: "2026-01-12",
    timeOfDay: "09:00:00+01:00",
    startAt: new Date("2026-01-12T08:00:00Z"),
    utcOffsetMin: 60,
    distanceM: 500,
    durationMs: 120_000,
    targetDistanceM: 500,
    status: "failed",
    description: W.failedDescription,
  });

  // Workout templates: Olaf's name carries "Olaf", so the privacy crawler notices if it ever reaches Anna.
  await createTemplate(db, anna.id, {
    name: W.annaTemplateName,
    text: JSON.stringify({
      version: 1,
      boat_class: "K1",
      steps: [
        {
          repeat: 4,
          steps: [
            { kind: "work", distance_m: 250, targets: { rate_spm: 100 } },
            { kind: "rest", duration_s: 90 },
          ],
        },
      ],
    }),
  });
  await createTemplate(db, olaf.id, {
    name: W.olafTemplateName,
    text: JSON.stringify({ version: 1, steps: [{ kind: "work", duration_s: 1200 }] }),
  });
  const trainingIds = await seedTrainings(db, {
    anna: (await getSessionUser(db, anna.id))!,
    olaf: (await getSessionUser(db, olaf.id))!,
    annaSelf: annaSelf.id,
    ben: ben.id,
    annaTrack: annaTrack.id,
  });

  await db.insert(healthWeights).values([
    { userId: anna.id, measuredOn: "2026-10-01", weightKg: W.annaWeightsKg[0], provenance: "manual" },
    { userId: anna.id, measuredOn: "2026-10-15", weightKg: W.annaWeightsKg[1], provenance: "manual" },
    { userId: anna.id, measuredOn: "2026-10-10", weightKg: W.externalWeightKg, provenance: "external", externalSource: W.externalSource },
    { userId: olaf.id, measuredOn: "2026-10-11", weightKg: W.olafWeightKg, provenance: "manual" },
  ]);
  await db.insert(healthLactate).values([
    {
      userId: anna.id,
      resultId: annaK1,
      measuredAt: new Date("2026-05-14T12:05:00Z"),
      lactateMmolL: W.annaLactate,
      note: "after 3 min",
      provenance: "manual",
    },
    {
      userId: anna.id,
      resultId: annaK1,
      measuredAt: new Date("2026-05-14T12:09:00Z"),
      lactateMmolL: W.externalLactate,
      note: "",
      provenance: "external",
      externalSource: W.externalSource,
    },
    {
      userId: olaf.id,
      resultId: olafK2,
      measuredAt: new Date("2026-05-14T12:06:00Z"),
      lactateMmolL: W.olafLactate,
      note: "olaf",
      provenance: "manual",
    },
    {
      userId: anna.id,
      trainingId: trainingIds.annaTemplated,
      measuredAt: new Date("2026-06-02T09:30:00Z"),
      lactateMmolL: W.annaTrainingLactate,
      note: "after the last piece",
      provenance: "manual",
    },
    {
      userId: anna.id,
      trainingId: trainingIds.annaTemplated,
      measuredAt: new Date("2026-06-02T09:31:00Z"),
      lactateMmolL: W.externalLactate,
      note: "",
      provenance: "external",
      externalSource: W.externalSource,
    },
    {
      userId: olaf.id,
      trainingId: trainingIds.olaf,
      measuredAt: new Date("2026-06-02T09:32:00Z"),
      lactateMmolL: W.olafLactate,
      note: "olaf",
      provenance: "manual",
    },
  ]);
}

/**
 * Trainings of the world, processed here through the product's own upload
 * and processing functions; their queued processing runs are removed so the
 * server does not process them again while specs read their set ids.
 */
async function seedTrainings(
  db: Db,
  p: {
    anna: NonNullable<Awaited<ReturnType<typeof getSessionUser>>>;
    olaf: NonNullable<Awaited<ReturnType<typeof getSessionUser>>>;
    annaSelf: number;
    ben: number;
    annaTrack: number;
  },
) {
  const T = W.trainings;
  const [app] = await db
    .insert(oauthApplications)
    .values({
      ownerUserId: p.anna.id,
      clientId: W.sessionApp.clientId,
      name: "Anna training logger",
      surface: "session",
      clientType: "public",
      redirectUris: [W.sessionApp.redirectUri],
      scopes: ["openid", "profile", ...API_SCOPES.filter((s) => !s.startsWith("devices:") && s !== "svcsim:embed")],
      reviewStatus: "not_required",
    })
    .returning({ id: oauthApplications.id });
  // Anna's seeded template "Anna 4x250" (four 250 m pieces): the practice followed it.
  const [template] = await db
    .select({ id: workoutTemplates.id })
    .from(workoutTemplates)
    .where(and(eq(workoutTemplates.ownerUserId, p.anna.id), eq(workoutTemplates.name, W.annaTemplateName)));
  const annaTemplated = (
    await createProcessedTraining(db, p.anna, {
      spec: T.annaTemplated.spec,
      seed: T.annaTemplated.seed,
      title: T.annaTemplated.title,
      templateId: template.id,
      athleteId: p.annaSelf,
      trackId: p.annaTrack,
    })
  ).id;
  const annaBen = (
    await createProcessedTraining(db, p.anna, { spec: T.annaBen.spec, seed: T.annaBen.seed, title: T.annaBen.title, athleteId: p.ben })
  ).id;
  const annaApp = (
    await createProcessedTraining(db, p.anna, { spec: T.annaApp.spec, seed: T.annaApp.seed, title: T.annaApp.title, applicationId: app.id })
  ).id;
  const olaf = (await createProcessedTraining(db, p.olaf, { spec: T.olaf.spec, seed: T.olaf.seed, title: T.olaf.title })).id;
  const ids = [annaTemplated, annaBen, annaApp, olaf];
  await db
    .delete(jobRuns)
    .where(and(eq(jobRuns.functionId, "process-training"), inArray(sql<number>`(${jobRuns.event}->'data'->>'trainingId')::int`, ids)));
  await db.insert(trainings).values({
    ownerUserId: p.anna.id,
    vesselId: 1,
    title: T.annaFailed.title,
    createdVia: "demo",
    status: "failed",
    failureCode: "no_sets",
    failureMessage: TRAINING_FAILURES.no_sets,
  });
  return { annaTemplated, annaBen, annaApp, olaf };
}

function eqSeat(resultId: number, seat: number) {
  return sql`${resultCrew.resultId} = ${resultId} and ${resultCrew.seat} = ${seat}`;
}
async function fixSeat(db: Db, resultId: number, seat: number, athleteId: number) {
  await db
    .update(resultCrew)
    .set({ athleteId, externalName: null, externalSurname: null, externalWeightKg: null })
    .where(eqSeat(resultId, seat));
}
