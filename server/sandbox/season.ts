import type { Db } from "../db/client";
import { athletes, tracks } from "../db/schema";
import { createOwnPaddle, createOwnVessel } from "../equipment/equipment";
import { setSessionEquipment } from "../results/session-equipment";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { getKeyring } from "../config/keyring";
import { simulateSession, type SimulateOptions } from "../svc/simulator/simulate";
import { parseTrainingSpec, simulateTraining } from "../svc/simulator/training";
import type { Keyring, SvcContent, VesselType } from "../svc/types";
import { createTrainingFromUpload } from "../trainings/create-training";
import { processStoredTraining } from "../trainings/process-training";
import { vesselIdOf } from "../demo/vessel-ids";
import type { SessionUser } from "../users/users";
import { createTemplate } from "../workouts/templates";

/**
 * A deterministic season of simulated paddling for one person
 * (docs/sandbox.md): sessions across boat classes, interval trainings
 * against workout templates, equipment, and two sensor units whose files
 * are kept. Everything goes through the same paths as a real person's data
 * (upload, processing, template rules), so records, analyses and exports
 * come out of it as they would for anyone. The same options give the same
 * figures: every file comes from the simulator with a seed derived from
 * `seed`, dated from `startDate`, never from the clock.
 */
export interface SeasonOptions {
  seed: number;
  /** 1–26 weeks. */
  weeks: number;
  /** 1–7 sessions a week, plus one interval training a week. */
  sessionsPerWeek: number;
  /** Monday of the first week (YYYY-MM-DD); fixed so the same inputs give the same dates. */
  startDate?: string;
  /** Marks the sessions and trainings as created by this application (so a session-surface application sees them). */
  applicationId?: number | null;
}

export interface SeasonDeps {
  keyring?: Keyring;
}

export const DEFAULT_SEASON_START = "2026-03-02";
export const SEASON_LIMITS = { weeks: { min: 1, max: 26 }, sessionsPerWeek: { min: 1, max: 7 } } as const;

/** The rotation of pieces: boat class, target, pace; the person always sits in seat 1. */
const ROTATION: { vessel: VesselType; distanceM?: number; durationMs?: number; pace: "race" | "training"; description: string }[] = [
  { vessel: "K1", distanceM: 500, pace: "race", description: "K1 500 m race piece" },
  { vessel: "C1", distanceM: 500, pace: "training", description: "C1 500 m technique" },
  { vessel: "K2", distanceM: 1000, pace: "training", description: "K2 1000 m steady" },
  { vessel: "K1", distanceM: 200, pace: "race", description: "K1 200 m sprint" },
  { vessel: "K4", distanceM: 500, pace: "race", description: "K4 500 m crew piece" },
  { vessel: "C2", durationMs: 60_000, pace: "training", description: "C2 1 minute piece" },
  { vessel: "K1", distanceM: 1000, pace: "training", description: "K1 1000 m steady" },
];
/** Days of the week (0 = Monday) for the 1st … 7th session of a week. */
const SESSION_DAYS = [0, 2, 4, 5, 1, 3, 6];
const TRAINING_DAY = 3;
const TEMPLATES = [
  { name: "4 × 500 m, 90 s rest", spec: "4x500m/90s", rate: 90 },
  { name: "6 × 1 minute, 1 minute rest", spec: "6x60s/60s", rate: null },
] as const;

export interface PlannedSession {
  index: number;
  sim: SimulateOptions;
  crewSize: number;
  startUnixMs: number;
  description: string;
  /** The kayak or canoe unit that recorded it. */
  unit: "kayak" | "canoe";
}

export interface PlannedTraining {
  index: number;
  template: number;
  seed: number;
  startUnixMs: number;
}

/** The season as data, before anything is stored: pure, so tests and the demo seed can read it. */
export function planSeason(options: SeasonOptions): { sessions: PlannedSession[]; trainings: PlannedTraining[] } {
  const { weeks, sessionsPerWeek, seed } = options;
  if (!Number.isInteger(weeks) || weeks < SEASON_LIMITS.weeks.min || weeks > SEASON_LIMITS.weeks.max)
    throw new RangeError(`weeks must be ${SEASON_LIMITS.weeks.min}–${SEASON_LIMITS.weeks.max}`);
  if (!Number.isInteger(sessionsPerWeek) || sessionsPerWeek < 1 || sessionsPerWeek > 7) throw new RangeError("sessionsPerWeek must be 1–7");
  const start = Date.parse(`${options.startDate ?? DEFAULT_SEASON_START}T00:00:00Z`);
  if (Number.isNaN(start)) throw new RangeError("startDate must be YYYY-MM-DD");
  const day = 86_400_000;
  const sessions: PlannedSession[] = [];
  const trainings: PlannedTraining[] = [];
  for (let week = 0; week < weeks; week++) {
    for (let slot = 0; slot < sessionsPerWeek; slot++) {
      const index = sessions.length;
      const piece = ROTATION[index % ROTATION.length];
      // Mornings and evenings alternate; every third piece on rough water.
      const hour = slot % 2 === 0 ? 7 : 18;
      sessions.push({
        index,
        sim: {
          vessel: piece.vessel,
          ...(piece.distanceM ? { distanceM: piece.distanceM } : { durationMs: piece.durationMs }),
          seed: seed * 1000 + index,
          pace: piece.pace,
          noise: index % 3 === 2 ? "noisy" : "clean",
        },
        crewSize: Number(piece.vessel[1]),
        startUnixMs: start + (week * 7 + SESSION_DAYS[slot]) * day + hour * 3_600_000,
        description: piece.description,
        unit: piece.vessel.startsWith("K") ? "kayak" : "canoe",
      });
    }
    trainings.push({
      index: week,
      template: week % TEMPLATES.length,
      seed: seed * 1000 + 500 + week,
      startUnixMs: start + (week * 7 + TRAINING_DAY) * day + 17 * 3_600_000,
    });
  }
  return { sessions, trainings };
}

/** The header every file of the season carries: its unit, its date, the service's key. */
function dated(content: SvcContent, options: { serial: string; startUnixMs: number; keyId: number }): SvcContent {
  return {
    ...content,
    header: { ...content.header, deviceSerial: options.serial, startUnixMs: options.startUnixMs, utcOffsetMin: 60, keyId: options.keyId },
  };
}

export interface SeasonSummary {
  athleteId: number;
  trackId: number;
  sessionIds: number[];
  trainingIds: number[];
  templateIds: number[];
}

/**
 * Stores the season for `person` (their own athlete record, crew mates,
 * a course, boats and paddles, templates, sessions and trainings). Meant
 * for an empty account; run it inside a transaction to make it all or
 * nothing (the sandbox does).
 */
export async function generateSeason(db: Db, person: SessionUser, options: SeasonOptions, deps: SeasonDeps = {}): Promise<SeasonSummary> {
  const plan = planSeason(options);
  const keyring = deps.keyring ?? getKeyring();
  // The files are encrypted with the service's own key (the lowest id), so a deployment without the development key reads them too.
  const keyId = Math.min(...keyring.keys());
  const applicationId = options.applicationId ?? null;
  const units = { kayak: `SBX${options.seed}K`.slice(0, 16), canoe: `SBX${options.seed}C`.slice(0, 16) };

  const roster = await db
    .insert(athletes)
    .values([
      {
        ownerUserId: person.id,
        userId: person.id,
        name: "Sam",
        surname: "Sandbox",
        dateOfBirth: "2000-05-17",
        modality: "Kayak",
        weightKg: 74,
        subscriptionActiveUntil: "2099-12-31",
      },
      {
        ownerUserId: person.id,
        name: "Alex",
        surname: "Crew",
        dateOfBirth: "2001-02-03",
        modality: "Kayak",
        weightKg: 78,
        subscriptionActiveUntil: "2099-12-31",
      },
      {
        ownerUserId: person.id,
        name: "Noa",
        surname: "Crew",
        dateOfBirth: "1999-08-21",
        modality: "Kayak",
        weightKg: 70,
        subscriptionActiveUntil: "2099-12-31",
      },
      {
        ownerUserId: person.id,
        name: "Ivo",
        surname: "Crew",
        dateOfBirth: "2002-11-09",
        modality: "Canoe",
        weightKg: 81,
        subscriptionActiveUntil: "2099-12-31",
      },
    ])
    .returning({ id: athletes.id });
  const crewIds = roster.map((a) => a.id);
  const [track] = await db
    .insert(tracks)
    .values({ ownerUserId: person.id, name: "Sandbox basin 1000 m", location: "Simulated water", latitude: 42.4296, longitude: -8.6446 })
    .returning({ id: tracks.id });

  const k1 = await vesselIdOf(db, "K1");
  const boats = {
    K1: await createOwnVessel(db, person.id, { name: "Sandbox K1", vesselTypeId: k1, brand: "Simulated", model: "Sprint", weightKg: 12 }),
  };
  const paddles = {
    kayak: await createOwnPaddle(db, person.id, {
      name: "Wing 215",
      kind: "kayak",
      brand: "Simulated",
      model: "Wing",
      lengthCm: 215,
      bladeAreaCm2: 780,
    }),
    canoe: await createOwnPaddle(db, person.id, {
      name: "Canoe blade 150",
      kind: "canoe",
      brand: "Simulated",
      model: "Blade",
      lengthCm: 150,
      bladeAreaCm2: 900,
    }),
  };

  const templateIds: number[] = [];
  for (const t of TEMPLATES) {
    const steps = parseTrainingSpec(t.spec)!.map((s) => (s.kind === "work" && t.rate ? { ...s, targets: { rate_spm: t.rate } } : s));
    const stored = await createTemplate(db, person.id, {
      name: t.name,
      text: JSON.stringify({ version: 1, name: t.name, boat_class: "K1", steps }),
    });
    templateIds.push(stored.id);
  }

  const vesselIds = new Map<VesselType, number>();
  const vesselId = async (type: VesselType) => vesselIds.get(type) ?? vesselIds.set(type, await vesselIdOf(db, type)).get(type)!;
  const sessionIds: number[] = [];
  for (const planned of plan.sessions) {
    const simulation = simulateSession(planned.sim);
    const bytes = Buffer.from(
      encodeSvc(dated(simulation.content, { serial: units[planned.unit], startUnixMs: planned.startUnixMs, keyId }), keyring),
    );
    const canoe = planned.unit === "canoe";
    const uploaded = await uploadResult(
      db,
      {
        user: person,
        createdVia: "demo",
        keyPairId: null,
        applicationId,
        file: { filename: `sandbox-${String(planned.index + 1).padStart(3, "0")}-${planned.sim.vessel.toLowerCase()}.svc`, bytes },
        metadata: JSON.stringify({
          ...(planned.sim.distanceM ? { distance: planned.sim.distanceM } : { duration_ms: planned.sim.durationMs }),
          vessel_id: await vesselId(planned.sim.vessel),
          track_id: track.id,
          category_id: 1,
          pace_id: planned.sim.pace === "race" ? 1 : 2,
          // Canoes carry the canoeist (Ivo) in seat 2 when crewed; the person is always seat 1.
          athletes: [crewIds[0], ...(canoe ? [crewIds[3]] : crewIds.slice(1)).slice(0, planned.crewSize - 1)],
          description: planned.description,
          meteo: {
            wind_speed: 1 + (planned.index % 4),
            wind_direction: (planned.index * 45) % 360,
            air_temperature: 14 + (planned.index % 6),
            water_temperature: 13,
          },
        }),
      },
      { keyring, now: new Date(planned.startUnixMs + 3 * 3_600_000) },
    );
    if (planned.sim.vessel === "K1")
      await setSessionEquipment(db, person.id, uploaded.id, { vesselId: boats.K1.id, paddleId: paddles.kayak.id });
    else await setSessionEquipment(db, person.id, uploaded.id, { vesselId: null, paddleId: canoe ? paddles.canoe.id : paddles.kayak.id });
    sessionIds.push(uploaded.id);
  }

  const trainingIds: number[] = [];
  for (const planned of plan.trainings) {
    const template = TEMPLATES[planned.template];
    const steps = parseTrainingSpec(template.spec)!;
    const simulation = simulateTraining({ vessel: "K1", steps, seed: planned.seed, warmupS: 60, cooldownS: 30 });
    const bytes = Buffer.from(
      encodeSvc(dated(simulation.content, { serial: units.kayak, startUnixMs: planned.startUnixMs, keyId }), keyring),
    );
    const created = await createTrainingFromUpload(db, {
      user: person,
      createdVia: "demo",
      applicationId,
      file: { filename: `sandbox-training-${String(planned.index + 1).padStart(2, "0")}.svc`, bytes },
      vesselId: k1,
      trackId: track.id,
      athleteId: crewIds[0],
      title: template.name,
      templateId: templateIds[planned.template],
    });
    // Processed now, as the demo seed does, so the season is ready when it is shown; the queued run only rewrites the same figures.
    await processStoredTraining(db, created.id, { keyring });
    trainingIds.push(created.id);
  }
  return { athleteId: crewIds[0], trackId: track.id, sessionIds, trainingIds, templateIds };
}
