import { and, asc, eq, gt, sql } from "drizzle-orm";
import { heartRateOwnerOfCrew } from "../health/health-projection";
import { athleteAccessible } from "../access/access";
import type { Db } from "../db/client";
import {
  athletes,
  equipmentPaddles,
  equipmentVessels,
  resultCrew,
  resultDerived,
  resultStrokes,
  resultWeather,
  results,
  vessels,
} from "../db/schema";
import { literalLimit } from "../db/literal-limit";
import { notFound } from "../errors";
import { getStoredAnalysis, toProcessingStroke, type StoredAnalysis } from "../results/result-analysis";
import { computeSplits, buildSeries, type SeriesField } from "../svc/process/track";
import { selectSessions, type SessionRow } from "./list-sessions";
import { sessionReadable, type SessionAudience } from "./session-boundary";

/**
 * Reads of one session for the Data API: the session itself, its crew seen
 * from the subject, its equipment, and what processing derived. Every read
 * starts from `getReadableSession`, so absent and outside the boundary are
 * the same not-found.
 */
export async function getReadableSession(db: Db, audience: SessionAudience, sessionId: number): Promise<SessionRow> {
  const [row] = await selectSessions(db).where(and(eq(results.id, sessionId), sessionReadable(audience)));
  if (!row) throw notFound("Session");
  return row;
}

export interface CrewSeat {
  seat: number;
  /** Null when the seat holds someone the subject may not see (or an external paddler). */
  athlete: { id: number; name: string } | null;
  /** The seat of the subject's own athlete record. */
  isSubject: boolean;
  /** Account linked to the seat's athlete (for the heart-rate rule); never serialized. */
  linkedUserId: number | null;
}

/**
 * The crew in boat order as the subject may see it: their own seat, and on
 * the data surface the athletes they manage or coach; everyone else is a seat
 * without identity.
 */
export async function getCrewSeenBy(db: Db, audience: SessionAudience, sessionId: number): Promise<CrewSeat[]> {
  const visible = audience.surface === "data" ? athleteAccessible(audience.subjectId, sql`${resultCrew.athleteId}`) : sql`false`;
  const rows = await db
    .select({
      seat: resultCrew.seat,
      athleteId: resultCrew.athleteId,
      name: sql<string>`trim(${athletes.name} || ' ' || ${athletes.surname})`,
      linkedUserId: athletes.userId,
      visible: sql<boolean>`coalesce(${visible}, false)`,
    })
    .from(resultCrew)
    .leftJoin(athletes, eq(athletes.id, resultCrew.athleteId))
    .where(eq(resultCrew.resultId, sessionId))
    .orderBy(asc(resultCrew.seat));
  return rows.map((r) => {
    const isSubject = r.linkedUserId === audience.subjectId;
    return {
      seat: r.seat,
      athlete: r.athleteId !== null && (isSubject || r.visible) ? { id: r.athleteId, name: r.name } : null,
      isSubject,
      linkedUserId: r.linkedUserId,
    };
  });
}

/**
 * The unit's heart-rate strap is worn in the stroke seat (seat 1), so the
 * recorded heart rate is that paddler's; it is readable only by that
 * paddler's own account (data-api.md "Health data rules").
 */
export function heartRateIsSubjects(crew: CrewSeat[], subjectId: number): boolean {
  return heartRateOwnerOfCrew(crew) === subjectId;
}

export async function getSessionWeather(db: Db, sessionId: number) {
  const [row] = await db
    .select({
      windSpeedMS: resultWeather.windSpeedMS,
      windDirectionDeg: resultWeather.windDirectionDeg,
      airTemperatureC: resultWeather.airTemperatureC,
      waterTemperatureC: resultWeather.waterTemperatureC,
    })
    .from(resultWeather)
    .where(eq(resultWeather.resultId, sessionId));
  return row ?? null;
}

/** The session's boat and paddle, when they are the subject's own equipment. */
export async function getSessionEquipment(db: Db, subjectId: number, session: Pick<SessionRow, "equipmentVesselId" | "equipmentPaddleId">) {
  const [vessel] = session.equipmentVesselId
    ? await db
        .select({ id: equipmentVessels.id, name: equipmentVessels.name, boatClass: vessels.type })
        .from(equipmentVessels)
        .innerJoin(vessels, eq(vessels.id, equipmentVessels.vesselTypeId))
        .where(and(eq(equipmentVessels.id, session.equipmentVesselId), eq(equipmentVessels.ownerUserId, subjectId)))
    : [];
  const [paddle] = session.equipmentPaddleId
    ? await db
        .select({ id: equipmentPaddles.id, name: equipmentPaddles.name, kind: equipmentPaddles.kind })
        .from(equipmentPaddles)
        .where(and(eq(equipmentPaddles.id, session.equipmentPaddleId), eq(equipmentPaddles.ownerUserId, subjectId)))
    : [];
  return { vessel: vessel ?? null, paddle: paddle ?? null };
}

/** Derived data of a processed session; a session whose processing failed has none. */
export async function getSessionAnalysis(db: Db, sessionId: number): Promise<StoredAnalysis | null> {
  return getStoredAnalysis(db, sessionId);
}

/**
 * The boundary check and the effort start of a session in one statement (the
 * stroke list needs nothing else of it): not-found when absent or outside the
 * boundary; null effort start when it has no processed data.
 */
export async function getReadableEffortStartS(db: Db, audience: SessionAudience, sessionId: number): Promise<number | null> {
  const [row] = await db
    .select({ effortStartS: resultDerived.effortStartS })
    .from(results)
    .leftJoin(resultDerived, eq(resultDerived.resultId, results.id))
    .where(and(eq(results.id, sessionId), sessionReadable(audience)));
  if (!row) throw notFound("Session");
  return row.effortStartS;
}

const strokeColumns = {
  index: resultStrokes.strokeIndex,
  catchS: resultStrokes.catchS,
  side: resultStrokes.side,
  distanceM: resultStrokes.distanceM,
  speedMS: resultStrokes.filteredSpeedMS,
  rateSpm: resultStrokes.rateSpm,
  strokeDistanceM: resultStrokes.strokeDistanceM,
  leftStrokeDistanceM: resultStrokes.leftStrokeDistanceM,
  rightStrokeDistanceM: resultStrokes.rightStrokeDistanceM,
  maxAccelXMS2: resultStrokes.maxAccelXMS2,
  minAccelXMS2: resultStrokes.minAccelXMS2,
  maxPitchDeg: resultStrokes.maxPitchDeg,
  maxRollDeg: resultStrokes.maxRollDeg,
};

/** One keyset page of strokes on the primary key (result_id, stroke_index). */
export function strokesPageQuery(db: Db, sessionId: number, afterIndex: number | null, take: number) {
  return db
    .select(strokeColumns)
    .from(resultStrokes)
    .where(and(eq(resultStrokes.resultId, sessionId), afterIndex === null ? undefined : gt(resultStrokes.strokeIndex, afterIndex)))
    .orderBy(asc(resultStrokes.strokeIndex))
    .limit(literalLimit(take));
}
export type StrokeRow = Awaited<ReturnType<typeof strokesPageQuery>>[number];

/**
 * The boundary check, the effort start and one keyset page of strokes in one
 * statement (GET /sessions/{id}/strokes): the session row, readable under the
 * audience's boundary, joined laterally to the page (strokesPageQuery's rows).
 * No row: absent or outside the boundary (not-found); one row with no stroke:
 * the page is empty.
 */
export async function readableStrokesPage(
  db: Db,
  audience: SessionAudience,
  sessionId: number,
  afterIndex: number | null,
  take: number,
): Promise<{ effortStartS: number | null; rows: StrokeRow[] }> {
  const page = db
    .select(strokeColumns)
    .from(resultStrokes)
    .where(and(eq(resultStrokes.resultId, results.id), afterIndex === null ? undefined : gt(resultStrokes.strokeIndex, afterIndex)))
    .orderBy(asc(resultStrokes.strokeIndex))
    .limit(literalLimit(take))
    .as("page");
  const found = await db
    .select({ effortStartS: resultDerived.effortStartS, stroke: { ...page._.selectedFields } })
    .from(results)
    .leftJoin(resultDerived, eq(resultDerived.resultId, results.id))
    .leftJoinLateral(page, sql`true`)
    .where(and(eq(results.id, sessionId), sessionReadable(audience)))
    .orderBy(asc(page.index));
  if (!found.length) throw notFound("Session");
  return { effortStartS: found[0].effortStartS, rows: found.flatMap((r) => (r.stroke ? [r.stroke] : [])) };
}

/** Every stored stroke of a session, in stroke order. */
export async function getSessionStrokes(db: Db, sessionId: number) {
  return db.select(strokeColumns).from(resultStrokes).where(eq(resultStrokes.resultId, sessionId)).orderBy(asc(resultStrokes.strokeIndex));
}

/** Equal-distance splits rebuilt from the stored track and strokes. */
export async function getSessionSplits(db: Db, sessionId: number, analysis: StoredAnalysis, count: number) {
  const strokes = await getSessionStrokes(db, sessionId);
  return computeSplits(analysis.track, strokes.map(toProcessingStroke), count);
}

/** A bounded processed series of the allowlisted fields (at most 1000 points), plus a downsampled route on request. */
export async function getSessionSeries(
  db: Db,
  sessionId: number,
  analysis: StoredAnalysis,
  options: { fields: SeriesField[]; route: boolean; maxPoints: number },
) {
  const strokes = await getSessionStrokes(db, sessionId);
  const series = buildSeries(analysis.track, strokes.map(toProcessingStroke), {
    fields: options.fields,
    maxPoints: options.maxPoints,
    startS: analysis.effortStartS,
  });
  return { series, route: options.route ? downsampleRoute(analysis.track.route, options.maxPoints) : null };
}

/** Evenly spaced route points, never more than `maxPoints`, coordinates rounded to ~1 m. */
export function downsampleRoute(route: [number, number][], maxPoints: number): [number, number][] {
  const n = route.length;
  const points = Math.min(n, maxPoints);
  const out: [number, number][] = [];
  for (let p = 0; p < points; p++) {
    const [lat, lon] = route[points === 1 ? 0 : Math.round((p * (n - 1)) / (points - 1))];
    out.push([Math.round(lat * 1e5) / 1e5, Math.round(lon * 1e5) / 1e5]);
  }
  return out;
}
