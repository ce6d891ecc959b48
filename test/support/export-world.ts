import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { createAthlete } from "../../server/athletes/athletes";
import type { Db, DbHandle } from "../../server/db/client";
import { athletes, healthLactate } from "../../server/db/schema";
import { openTestDb } from "./test-db";
import { uploadResult } from "../../server/results/upload-result";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { simulateSession, type SimulateOptions } from "../../server/svc/simulator/simulate";
import { createTrack } from "../../server/tracks/tracks";
import { createProcessedTraining } from "./trainings";
import { createUser, type SessionUser } from "../../server/users/users";

/**
 * A small world for the builder tests, made through the real domain
 * functions: Anna (an account whose athlete record is linked to her) owns a
 * K2 she paddled in seat 1 with Bea (an athlete she manages, no account) in
 * seat 2, uploaded through uploadResult from a simulated .svc file. Anna has
 * a manual and an external-provider lactate reading of it; Olaf is another
 * account with no access.
 */
export interface ExportWorld {
  handle: DbHandle;
  db: Db;
  anna: SessionUser;
  olaf: SessionUser;
  annaAthleteId: number;
  beaAthleteId: number;
  trackId: number;
  sessionId: number;
  manualLactate: number;
  externalLactate: number;
}

const keyring = loadKeyring({});

export async function openExportWorld(session: Partial<SimulateOptions> = {}): Promise<ExportWorld> {
  const handle = await openTestDb();
  const db = handle.db;
  const anna = await createUser(db, { name: "Anna Export", email: `anna-${randomUUID()}@test.example`, password: "long enough password" });
  const olaf = await createUser(db, { name: "Olaf Other", email: `olaf-${randomUUID()}@test.example`, password: "long enough password" });
  const annaAthlete = await createAthlete(db, anna.id, { name: "Anna", surname: "Alvarez", subscriptionActiveUntil: "2099-01-01" });
  await db.update(athletes).set({ userId: anna.id }).where(eq(athletes.id, annaAthlete.id));
  const bea = await createAthlete(db, anna.id, { name: "Bea", surname: "Blanco", subscriptionActiveUntil: "2099-01-01" });
  const trackId = (await createTrack(db, anna.id, { name: "Export Basin" })).id;
  const simulation = simulateSession({ vessel: "K2", distanceM: 500, seed: 11, ...session });
  const uploaded = await uploadResult(
    db,
    {
      user: anna,
      createdVia: "web",
      keyPairId: null,
      file: { filename: "export.svc", bytes: Buffer.from(encodeSvc(simulation.content, keyring)) },
      metadata: JSON.stringify({
        ...(session.durationMs ? { duration_ms: session.durationMs } : { distance: session.distanceM ?? 500 }),
        vessel_id: 2,
        track_id: trackId,
        category_id: 1,
        pace_id: 1,
        athletes: [annaAthlete.id, bea.id],
        description: "Export <test> & notes",
        meteo: { wind_speed: 2.5, air_temperature: 18 },
      }),
    },
    { keyring },
  );
  const manualLactate = 4.2;
  const externalLactate = 13.579;
  await db.insert(healthLactate).values([
    {
      userId: anna.id,
      resultId: uploaded.id,
      measuredAt: new Date("2026-05-14T12:05:00Z"),
      lactateMmolL: manualLactate,
      note: "after the effort",
      provenance: "manual",
    },
    {
      userId: anna.id,
      resultId: uploaded.id,
      measuredAt: new Date("2026-05-14T12:09:00Z"),
      lactateMmolL: externalLactate,
      note: "",
      provenance: "external",
      externalSource: "SomeWatch",
    },
  ]);
  return {
    handle,
    db,
    anna,
    olaf,
    annaAthleteId: annaAthlete.id,
    beaAthleteId: bea.id,
    trackId,
    sessionId: uploaded.id,
    manualLactate,
    externalLactate,
  };
}

/** A K2 file uploaded by Anna through the real upload. */
export async function uploadK2(world: ExportWorld, crew: (number | { name: string; surname?: string })[]): Promise<number> {
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K2", distanceM: 200, seed: 3 }).content, keyring));
  const metadata = JSON.stringify({ distance: 200, vessel_id: 2, track_id: world.trackId, category_id: 1, pace_id: 1, athletes: crew });
  return (
    await uploadResult(
      world.db,
      { user: world.anna, createdVia: "web", keyPairId: null, file: { filename: "second.svc", bytes }, metadata },
      { keyring },
    )
  ).id;
}

export const defaultOptions = { athlete: 1, splits: 4, lang: "en", mode: "full", healthAllowed: true } as const;

/**
 * Two processed trainings of Anna's, made through the real upload and
 * processing: one paddled by her own athlete record on the Export Basin
 * track, and one of her own practice with no athlete and no track named —
 * where a session-shaped export once filled in `{id: 0}` placeholders.
 */
export interface TrainingWorld {
  named: number;
  ownPractice: number;
}

export async function addTrainings(world: ExportWorld): Promise<TrainingWorld> {
  const named = await createProcessedTraining(world.db, world.anna, {
    spec: "3x250m/60s",
    seed: 31,
    title: "Tuesday pieces",
    notes: "into the wind",
    athleteId: world.annaAthleteId,
    trackId: world.trackId,
    keyring,
  });
  const ownPractice = await createProcessedTraining(world.db, world.anna, { spec: "3x250m/60s", seed: 32, title: "", keyring });
  for (const { outcome } of [named, ownPractice])
    if (outcome.status !== "ready") throw new Error(`training not processed: ${JSON.stringify(outcome)}`);
  return { named: named.id, ownPractice: ownPractice.id };
}
