import { and, asc, eq, gte, isNotNull, isNull, lt, lte, ne, or, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import {
  athleteLoads,
  athletes,
  athleteZones,
  resultCrew,
  resultDerived,
  results,
  trainingCrew,
  trainingDerived,
  trainings,
  trainingSets,
  vessels,
} from "../db/schema";
import { best500SpeedMS, defaultMaxHeartRate, edwardsTrimp, speedLoadOf, zoneSeconds, type LoadTrack } from "./model";
import { REFERENCE_WINDOW_DAYS, referenceSpeedMS } from "./reference";
import { DEFAULT_SPEED_ZONES, type SpeedZone } from "./zones";

/**
 * Stores the training load of every named paddler of a session or training
 * (docs/load.md "When load is stored"), inside the caller's transaction: the
 * upload, a correction and its undo, processing and reprocessing each call
 * the refresh of what they wrote, so the load always follows the figures it
 * was computed from and no page computes it.
 */

interface LoadSource {
  resultId: number | null;
  trainingId: number | null;
  vesselId: number;
  boatClass: string;
  date: string;
  startAt: Date;
  track: LoadTrack;
  /** The effort's fastest 500 m (from the effort or a work set of ≥ 500 m), or null. */
  best500: number | null;
  /** Named paddlers; `strap` for the seat-1 paddler, who wears the heart-rate strap. */
  paddlers: { athleteId: number; strap: boolean }[];
}

/** An athlete's zones and maximum heart rate: their own, else the defaults. */
export async function athleteZoneSettings(db: Db, athleteId: number) {
  const [row] = await db
    .select({ zones: athleteZones.zones, maxHr: athleteZones.maxHeartRateBpm, dateOfBirth: athletes.dateOfBirth })
    .from(athletes)
    .leftJoin(athleteZones, eq(athleteZones.athleteId, athletes.id))
    .where(eq(athletes.id, athleteId));
  return {
    zones: ((row?.zones as SpeedZone[] | null) ?? DEFAULT_SPEED_ZONES) as readonly SpeedZone[],
    maxHeartRateBpm: row?.maxHr ?? null,
    dateOfBirth: row?.dateOfBirth ?? null,
    custom: row?.zones != null,
  };
}

async function storeLoads(tx: Db, source: LoadSource): Promise<void> {
  for (const paddler of source.paddlers) {
    const settings = await athleteZoneSettings(tx, paddler.athleteId);
    const stored = await referenceSpeedMS(tx, { athleteId: paddler.athleteId, boatClass: source.boatClass, asOf: source.startAt });
    const reference = stored === null ? source.best500 : source.best500 === null ? stored : Math.max(stored, source.best500);
    const seconds = zoneSeconds(source.track, settings.zones, reference);
    const maxHr = settings.maxHeartRateBpm ?? defaultMaxHeartRate(settings.dateOfBirth, source.date);
    const t = source.track.t;
    await tx.insert(athleteLoads).values({
      athleteId: paddler.athleteId,
      resultId: source.resultId,
      trainingId: source.trainingId,
      vesselId: source.vesselId,
      date: source.date,
      startAt: source.startAt,
      durationS: t.length ? Math.round((t[t.length - 1] - t[0]) * 10) / 10 : 0,
      zoneSeconds: seconds,
      speedLoad: speedLoadOf(seconds, settings.zones),
      referenceSpeedMS: reference,
      best500SpeedMS: source.best500,
      heartRateLoad: paddler.strap ? edwardsTrimp(source.track, maxHr) : null,
    });
  }
}

/**
 * Replaces the loads of one session (its crew's named paddlers) from its stored track, and those of
 * the same paddlers' later efforts whose reference speed it changes (refreshLaterLoads).
 */
export async function refreshResultLoads(tx: Db, resultId: number): Promise<void> {
  const before = await loadMarks(tx, eq(athleteLoads.resultId, resultId));
  await storeResultLoads(tx, resultId);
  await refreshLaterLoads(tx, { resultId }, before, await loadMarks(tx, eq(athleteLoads.resultId, resultId)));
}

/** Before a session is deleted: drop its loads and recompute the later efforts whose reference it set. */
export async function releaseResultLoads(tx: Db, resultId: number): Promise<void> {
  const before = await loadMarks(tx, eq(athleteLoads.resultId, resultId));
  await tx.delete(athleteLoads).where(eq(athleteLoads.resultId, resultId));
  await refreshLaterLoads(tx, { resultId }, before, []);
}

async function storeResultLoads(tx: Db, resultId: number): Promise<void> {
  await tx.delete(athleteLoads).where(eq(athleteLoads.resultId, resultId));
  const [row] = await tx
    .select({
      date: results.date,
      startAt: results.startAt,
      vesselId: results.vesselId,
      boatClass: vessels.type,
      track: resultDerived.track,
    })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .innerJoin(resultDerived, eq(resultDerived.resultId, results.id))
    .where(eq(results.id, resultId));
  if (!row) return;
  const crew = await tx
    .select({ athleteId: resultCrew.athleteId, seat: resultCrew.seat })
    .from(resultCrew)
    .where(and(eq(resultCrew.resultId, resultId), isNotNull(resultCrew.athleteId)))
    .orderBy(asc(resultCrew.seat));
  const track = row.track as LoadTrack;
  await storeLoads(tx, {
    resultId,
    trainingId: null,
    vesselId: row.vesselId,
    boatClass: row.boatClass,
    date: row.date,
    startAt: row.startAt,
    track,
    best500: best500SpeedMS(track),
    paddlers: crew.map((c) => ({ athleteId: c.athleteId!, strap: c.seat === 1 })),
  });
}

/**
 * Replaces the loads of one training (its crew, or the uploader's own athlete record when nobody is
 * named), and those of the same paddlers' later efforts whose reference speed it changes.
 */
export async function refreshTrainingLoads(tx: Db, trainingId: number): Promise<void> {
  const before = await loadMarks(tx, eq(athleteLoads.trainingId, trainingId));
  await storeTrainingLoads(tx, trainingId);
  await refreshLaterLoads(tx, { trainingId }, before, await loadMarks(tx, eq(athleteLoads.trainingId, trainingId)));
}

async function storeTrainingLoads(tx: Db, trainingId: number): Promise<void> {
  await tx.delete(athleteLoads).where(eq(athleteLoads.trainingId, trainingId));
  const [row] = await tx
    .select({
      date: trainings.date,
      startAt: trainings.startAt,
      vesselId: trainings.vesselId,
      boatClass: vessels.type,
      ownerUserId: trainings.ownerUserId,
      athleteId: trainings.athleteId,
      track: trainingDerived.track,
    })
    .from(trainings)
    .innerJoin(vessels, eq(vessels.id, trainings.vesselId))
    .innerJoin(trainingDerived, eq(trainingDerived.trainingId, trainings.id))
    .where(eq(trainings.id, trainingId));
  if (!row || row.date === null || row.startAt === null) return;
  let paddlers = (
    await tx
      .select({ athleteId: trainingCrew.athleteId, seat: trainingCrew.seat })
      .from(trainingCrew)
      .where(eq(trainingCrew.trainingId, trainingId))
      .orderBy(asc(trainingCrew.seat))
  ).map((c) => ({ athleteId: c.athleteId, strap: c.seat === 1 }));
  if (!paddlers.length && row.athleteId !== null) paddlers = [{ athleteId: row.athleteId, strap: true }];
  if (!paddlers.length) {
    const [own] = await tx.select({ id: athletes.id }).from(athletes).where(eq(athletes.userId, row.ownerUserId));
    if (own) paddlers = [{ athleteId: own.id, strap: true }];
  }
  const sets = await tx
    .select({ track: trainingSets.track })
    .from(trainingSets)
    .where(and(eq(trainingSets.trainingId, trainingId), eq(trainingSets.kind, "work"), gte(trainingSets.distanceM, 500)));
  let best500: number | null = null;
  for (const s of sets) {
    const b = s.track ? best500SpeedMS(s.track as LoadTrack) : null;
    if (b !== null && (best500 === null || b > best500)) best500 = b;
  }
  await storeLoads(tx, {
    resultId: null,
    trainingId,
    vesselId: row.vesselId,
    boatClass: row.boatClass,
    date: row.date,
    startAt: row.startAt,
    track: row.track as LoadTrack,
    best500,
    paddlers,
  });
}

/** Recomputes every stored load of an athlete (their zones changed), oldest first, in one transaction. */
export async function refreshAthleteLoads(db: Db, athleteId: number): Promise<number> {
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const sources = await tx
      .select({ resultId: athleteLoads.resultId, trainingId: athleteLoads.trainingId })
      .from(athleteLoads)
      .where(and(eq(athleteLoads.athleteId, athleteId), or(isNotNull(athleteLoads.resultId), isNotNull(athleteLoads.trainingId))))
      .orderBy(asc(athleteLoads.startAt), asc(athleteLoads.id));
    for (const s of sources) {
      if (s.resultId !== null) await storeResultLoads(tx, s.resultId);
      else if (s.trainingId !== null) await storeTrainingLoads(tx, s.trainingId);
    }
    return sources.length;
  });
}

/** One stored load as far as later references care: whose, which boat class, when, and its best 500 m. */
interface LoadMark {
  athleteId: number;
  boatClass: string;
  startAt: Date;
  best500: number | null;
}

const loadMarks = (tx: Db, where: SQL): Promise<LoadMark[]> =>
  tx
    .select({
      athleteId: athleteLoads.athleteId,
      boatClass: vessels.type,
      startAt: athleteLoads.startAt,
      best500: athleteLoads.best500SpeedMS,
    })
    .from(athleteLoads)
    .innerJoin(vessels, eq(vessels.id, athleteLoads.vesselId))
    .where(where);

/**
 * A load's reference is the best 500 m of the 90 days up to its effort (reference.ts), so an effort
 * uploaded after later ones, corrected (boat class, crew, set bounds) or deleted can change the
 * reference, and with it the load, of the same athlete's later efforts in that boat class. Those are
 * recomputed in the same transaction, and only those: a later load whose reference is below the
 * effort's new best (it is raised), or equal to its old best (that best may have set it). Their own
 * bests do not change, so one pass is enough. Without this the stored figures would depend on the
 * order of uploads, and reprocessing would change them.
 */
async function refreshLaterLoads(
  tx: Db,
  self: { resultId?: number; trainingId?: number },
  before: LoadMark[],
  after: LoadMark[],
): Promise<void> {
  const laterOf = (m: LoadMark) =>
    and(
      eq(athleteLoads.athleteId, m.athleteId),
      eq(vessels.type, m.boatClass),
      gte(athleteLoads.startAt, m.startAt),
      lte(athleteLoads.startAt, new Date(m.startAt.getTime() + REFERENCE_WINDOW_DAYS * 86_400_000)),
    );
  const touched: (SQL | undefined)[] = [];
  for (const m of before) if (m.best500 !== null) touched.push(and(laterOf(m), eq(athleteLoads.referenceSpeedMS, m.best500)));
  for (const m of after)
    if (m.best500 !== null)
      touched.push(and(laterOf(m), or(isNull(athleteLoads.referenceSpeedMS), lt(athleteLoads.referenceSpeedMS, m.best500))));
  if (!touched.length) return;
  const notSelf =
    self.resultId !== undefined
      ? or(isNull(athleteLoads.resultId), ne(athleteLoads.resultId, self.resultId))
      : or(isNull(athleteLoads.trainingId), ne(athleteLoads.trainingId, self.trainingId!));
  const later = await tx
    .selectDistinct({ resultId: athleteLoads.resultId, trainingId: athleteLoads.trainingId })
    .from(athleteLoads)
    .innerJoin(vessels, eq(vessels.id, athleteLoads.vesselId))
    .where(and(notSelf, or(...touched)));
  for (const l of later) {
    if (l.resultId !== null) await storeResultLoads(tx, l.resultId);
    else if (l.trainingId !== null) await storeTrainingLoads(tx, l.trainingId);
  }
}
