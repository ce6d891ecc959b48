/**
 * Seeds the web privacy crawler's world (e2e/health-web-world.ts) through the
 * product's own domain functions, then gives every person's health values
 * their marker: each stored heart-rate reading, average and maximum of an
 * effort becomes the owner's bpm marker and the coverage their fraction, so a
 * figure that reaches someone else is recognisable in a page, a payload or a
 * file. Idempotent: nothing happens when Carla exists.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../server/db/client";
import {
  athletes,
  healthLactate,
  healthWeights,
  jobRuns,
  privateNotes,
  resultDerived,
  teamMemberships,
  teams,
  trainingDerived,
  trainingSets,
  users,
} from "../server/db/schema";
import { uploadResult } from "../server/results/upload-result";
import { encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { simulateSession, type SimulateOptions } from "../server/svc/simulator/simulate";
import { createTrack } from "../server/tracks/tracks";
import { createProcessedTraining } from "../test/support/trainings";
import { createUser, getSessionUser, type SessionUser } from "../server/users/users";
import { HEALTH_WORLD as W, type PersonMarkers } from "../e2e/health-web-world";

export async function seedHealthWebWorld(db: Db): Promise<void> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, W.carla.email));
  if (existing) return;
  const account = async (p: { email: string; password: string; name: string }, role: "coach" | "athlete") =>
    (await getSessionUser(db, (await createUser(db, p, { role })).id))!;
  const carla = await account(W.carla, "coach");
  const dora = await account(W.dora, "coach");
  const ada = await account(W.ada, "athlete");
  const eli = await account(W.eli, "athlete");
  const active = "2099-12-31";
  const [adaRecord, eliRecord, benRecord] = await db
    .insert(athletes)
    .values([
      {
        ownerUserId: carla.id,
        userId: ada.id,
        name: "Ada",
        surname: "Athlete",
        modality: "Kayak",
        weightKg: Number(W.recordWeights.ada),
        subscriptionActiveUntil: active,
      },
      {
        ownerUserId: carla.id,
        userId: eli.id,
        name: "Eli",
        surname: "Crewmate",
        modality: "Kayak",
        weightKg: Number(W.recordWeights.eli),
        subscriptionActiveUntil: active,
      },
      {
        ownerUserId: carla.id,
        name: "Ben",
        surname: "Noaccount",
        modality: "Kayak",
        weightKg: Number(W.recordWeights.ben),
        subscriptionActiveUntil: active,
      },
    ])
    .returning({ id: athletes.id });
  const [team] = await db.insert(teams).values({ name: W.team, ownerUserId: carla.id }).returning({ id: teams.id });
  await db
    .insert(teamMemberships)
    .values([
      { teamId: team.id, role: "coach", userId: carla.id },
      { teamId: team.id, role: "coach", userId: dora.id },
      ...[adaRecord, eliRecord, benRecord].map((a) => ({ teamId: team.id, role: "athlete" as const, athleteId: a.id })),
    ]);
  const track = await createTrack(db, carla.id, { name: "Health basin" });

  const keyring = loadKeyring({});
  const upload = async (sim: SimulateOptions, vesselId: number, crew: unknown[]) => {
    const bytes = Buffer.from(encodeSvc(simulateSession(sim).content, keyring));
    const metadata = JSON.stringify({
      category_id: 1,
      pace_id: 1,
      distance: sim.distanceM,
      vessel_id: vesselId,
      track_id: track.id,
      athletes: crew,
    });
    return (
      await uploadResult(db, {
        user: carla,
        createdVia: "demo",
        keyPairId: null,
        file: { filename: `health-${sim.seed}.svc`, bytes },
        metadata,
      })
    ).id;
  };
  const s = W.seeds;
  const adaK1 = await upload({ vessel: "K1", distanceM: 200, seed: s.adaK1 }, 1, [adaRecord.id]);
  const adaEliK2 = await upload({ vessel: "K2", distanceM: 200, seed: s.adaEliK2 }, 2, [adaRecord.id, eliRecord.id]);
  const benK2 = await upload({ vessel: "K2", distanceM: 200, seed: s.benK2 }, 2, [
    benRecord.id,
    { name: W.external.name, surname: W.external.surname, weight: Number(W.external.weightKg) },
  ]);
  const eliK1 = await upload({ vessel: "K1", distanceM: 200, seed: s.eliK1 }, 1, [eliRecord.id]);

  const training = (user: SessionUser, seed: number, title: string, athleteId?: number) =>
    createProcessedTraining(db, user, { spec: "2x150m/30s", seed, title, keyring, ...(athleteId ? { athleteId } : {}) }).then((t) => t.id);
  const adaTraining = await training(carla, s.adaTraining, W.trainings.ada, adaRecord.id);
  const carlaTraining = await training(carla, s.carlaTraining, W.trainings.carla);
  const benTraining = await training(carla, s.benTraining, W.trainings.ben, benRecord.id);
  // Already processed here: the queued runs would only rewrite the same figures, and undo the markers.
  const trainingIds = [adaTraining, carlaTraining, benTraining];
  await db
    .delete(jobRuns)
    .where(
      and(eq(jobRuns.functionId, "process-training"), inArray(sql<number>`(${jobRuns.event}->'data'->>'trainingId')::int`, trainingIds)),
    );

  const M = W.markers;
  for (const [resultId, owner] of [
    [adaK1, M.ada],
    [adaEliK2, M.ada],
    [benK2, M.ben],
    [eliK1, M.eli],
  ] as const)
    await markSession(db, resultId, owner);
  for (const [trainingId, owner] of [
    [adaTraining, M.ada],
    [carlaTraining, M.carla],
    [benTraining, M.ben],
  ] as const)
    await markTraining(db, trainingId, owner);

  // Carla's private notes: on every session, every training with a paddler, every athlete (the crawler's canary for the coaches).
  const N = W.privateNotes;
  await db
    .insert(privateNotes)
    .values([
      ...[adaK1, adaEliK2, benK2, eliK1].map((resultId) => ({ authorUserId: carla.id, resultId, body: N.session })),
      ...[adaTraining, benTraining].map((trainingId) => ({ authorUserId: carla.id, trainingId, body: N.training })),
      ...[adaRecord, eliRecord, benRecord].map((a) => ({ authorUserId: carla.id, athleteId: a.id, body: N.athlete })),
    ]);

  const day = (d: string) => new Date(`${d}T10:00:00Z`);
  await db.insert(healthWeights).values([
    { userId: ada.id, measuredOn: "2026-10-01", weightKg: Number(M.ada.values[0]), provenance: "manual", enteredByUserId: ada.id },
    {
      userId: ada.id,
      measuredOn: "2026-10-02",
      weightKg: Number(W.carlaEnteredForAda[0]),
      provenance: "manual",
      enteredByUserId: carla.id,
    },
    { userId: eli.id, measuredOn: "2026-10-03", weightKg: Number(M.eli.values[0]), provenance: "manual", enteredByUserId: eli.id },
    { userId: carla.id, measuredOn: "2026-10-04", weightKg: Number(M.carla.values[0]), provenance: "manual", enteredByUserId: carla.id },
    { userId: dora.id, measuredOn: "2026-10-05", weightKg: Number(M.dora.values[0]), provenance: "manual", enteredByUserId: dora.id },
  ]);
  await db.insert(healthLactate).values([
    {
      userId: ada.id,
      resultId: adaK1,
      measuredAt: day("2026-10-06"),
      lactateMmolL: Number(M.ada.values[1]),
      note: "after",
      provenance: "manual",
      enteredByUserId: ada.id,
    },
    {
      userId: ada.id,
      trainingId: adaTraining,
      measuredAt: day("2026-10-07"),
      lactateMmolL: Number(M.ada.values[2]),
      note: "after",
      provenance: "manual",
      enteredByUserId: ada.id,
    },
    {
      userId: ada.id,
      resultId: adaEliK2,
      measuredAt: day("2026-10-08"),
      lactateMmolL: Number(W.carlaEnteredForAda[1]),
      note: "coach",
      provenance: "manual",
      enteredByUserId: carla.id,
    },
    {
      userId: eli.id,
      resultId: adaEliK2,
      measuredAt: day("2026-10-09"),
      lactateMmolL: Number(M.eli.values[1]),
      note: "after",
      provenance: "manual",
      enteredByUserId: eli.id,
    },
  ]);
}

type Summary = { avg_heart_rate: number | null; max_heart_rate: number | null };
type Track = { heart_rate: (number | null)[] };
const markSummary = (s: Summary, bpm: number) => ({ ...s, avg_heart_rate: bpm, max_heart_rate: bpm });
const markTrack = (t: Track, bpm: number) => ({ ...t, heart_rate: t.heart_rate.map((v) => (v === null ? null : bpm)) });
const markPairs = (pairs: [number, number][], bpm: number) => pairs.map(([t]) => [t, bpm]);

async function markSession(db: Db, resultId: number, owner: PersonMarkers) {
  const [row] = await db.select().from(resultDerived).where(eq(resultDerived.resultId, resultId));
  const bpm = owner.bpm!;
  await db
    .update(resultDerived)
    .set({
      summary: markSummary(row.summary as Summary, bpm),
      track: markTrack(row.track as Track, bpm),
      heartRate: markPairs(row.heartRate as [number, number][], bpm),
      dataQuality: { ...(row.dataQuality as object), heart_rate_coverage: owner.coverage },
    })
    .where(eq(resultDerived.resultId, resultId));
}

async function markTraining(db: Db, trainingId: number, owner: PersonMarkers) {
  const bpm = owner.bpm!;
  const [row] = await db.select().from(trainingDerived).where(eq(trainingDerived.trainingId, trainingId));
  await db
    .update(trainingDerived)
    .set({
      summary: markSummary(row.summary as Summary, bpm),
      track: markTrack(row.track as Track, bpm),
      dataQuality: { ...(row.dataQuality as object), heart_rate_coverage: owner.coverage },
    })
    .where(eq(trainingDerived.trainingId, trainingId));
  for (const set of await db
    .select()
    .from(trainingSets)
    .where(and(eq(trainingSets.trainingId, trainingId), eq(trainingSets.kind, "work")))) {
    await db
      .update(trainingSets)
      .set({
        summary: markSummary(set.summary as Summary, bpm),
        track: markTrack(set.track as Track, bpm),
        heartRate: markPairs(set.heartRate as [number, number][], bpm),
      })
      .where(eq(trainingSets.id, set.id));
  }
}
