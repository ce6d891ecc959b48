import { and, asc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { athleteAccessible } from "../access/access";
import type { Db } from "../db/client";
import { athletes, resultCrew, results, vessels } from "../db/schema";
import { listRecordHistory } from "../records/performance-records";
import { getReadableSession } from "../sessions/read-session";
import { sessionReadable, sessionsAboutSubject, type SessionAudience } from "../sessions/session-boundary";
import { linearFit, round } from "./stats";

/**
 * Analyses across sessions (docs/analytics.md "Across sessions"): which
 * sessions compare with one, how a cohort progressed, and personal bests.
 * Every session named in an answer is one the token may read. Service-wide
 * benchmarks, which name no session, are in benchmarks.ts.
 */

/** What makes two efforts comparable: the same boat class and the same target (distance, or duration). */
export interface Effort {
  id: number;
  vesselId: number;
  boatClass: string;
  targetDistanceM: number | null;
  targetDurationMs: number | null;
  trackId: number;
  startAt: Date;
  date: string;
  distanceM: number;
  durationMs: number;
}

const effortColumns = {
  id: results.id,
  vesselId: results.vesselId,
  boatClass: vessels.type,
  targetDistanceM: results.targetDistanceM,
  targetDurationMs: results.targetDurationMs,
  trackId: results.trackId,
  startAt: results.startAt,
  date: results.date,
  distanceM: results.distanceM,
  durationMs: results.durationMs,
};

const sameEffort = (ref: Effort): SQL =>
  and(
    eq(results.vesselId, ref.vesselId),
    eq(results.status, "processed"),
    ref.targetDistanceM !== null
      ? eq(results.targetDistanceM, ref.targetDistanceM)
      : eq(results.targetDurationMs, ref.targetDurationMs ?? -1),
  )!;

export async function readEffort(db: Db, audience: SessionAudience, sessionId: number): Promise<Effort> {
  await getReadableSession(db, audience, sessionId); // the boundary's 404
  const [row] = await db
    .select(effortColumns)
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .where(eq(results.id, sessionId));
  return row;
}

/** Athletes of a session's crew that this audience may see by identity (as GET /sessions/{id} shows them). */
async function visibleCrewAthletes(db: Db, audience: SessionAudience, sessionId: number): Promise<{ id: number; name: string }[]> {
  const visible =
    audience.surface === "data"
      ? athleteAccessible(audience.subjectId, sql`${resultCrew.athleteId}`)
      : sql`${athletes.userId} = ${audience.subjectId}`;
  return db
    .select({ id: athletes.id, name: sql<string>`trim(${athletes.name} || ' ' || ${athletes.surname})` })
    .from(resultCrew)
    .innerJoin(athletes, eq(athletes.id, resultCrew.athleteId))
    .where(and(eq(resultCrew.resultId, sessionId), visible))
    .orderBy(asc(resultCrew.seat));
}

const speedOf = (e: Pick<Effort, "distanceM" | "durationMs">) => (e.durationMs > 0 ? e.distanceM / (e.durationMs / 1000) : 0);

export interface ComparableSession {
  sessionId: number;
  date: string;
  distanceM: number;
  durationMs: number;
  avgSpeedMS: number;
  sameTrack: boolean;
  sameAthlete: boolean;
  /** This session's time minus the reference's, ms (negative: faster). */
  deltaMs: number;
}

/**
 * Sessions comparable with one: the same boat class and target, readable by
 * the token, processed. Ranked by (1) the same track and (2) a shared crew
 * athlete the subject may see — each worth one point — then (3) the closest
 * in time to the reference, then the id.
 */
export async function comparableSessions(
  db: Db,
  audience: SessionAudience,
  sessionId: number,
  limit: number,
): Promise<{ reference: Effort; sessions: ComparableSession[] }> {
  const reference = await readEffort(db, audience, sessionId);
  const athleteIds = (await visibleCrewAthletes(db, audience, sessionId)).map((a) => a.id);
  const sharesAthlete = athleteIds.length
    ? sql<boolean>`exists (select 1 from result_crew cs_rc where cs_rc.result_id = ${results.id} and cs_rc.athlete_id in (${sql.join(
        athleteIds.map((id) => sql`${id}`),
        sql`, `,
      )}))`
    : sql<boolean>`false`;
  const sameTrack = sql<boolean>`${results.trackId} = ${reference.trackId}`;
  const rows = await db
    .select({ ...effortColumns, sameTrack, sharesAthlete })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .where(and(sameEffort(reference), ne(results.id, reference.id), sessionReadable(audience)))
    .orderBy(
      sql`(case when ${sameTrack} then 1 else 0 end + case when ${sharesAthlete} then 1 else 0 end) desc`,
      sql`abs(extract(epoch from (${results.startAt} - ${reference.startAt.toISOString()}::timestamptz)))`,
      asc(results.id),
    )
    .limit(limit);
  return {
    reference,
    sessions: rows.map((r) => ({
      sessionId: r.id,
      date: r.date,
      distanceM: r.distanceM,
      durationMs: r.durationMs,
      avgSpeedMS: speedOf(r),
      sameTrack: r.sameTrack,
      sameAthlete: r.sharesAthlete,
      deltaMs: r.durationMs - reference.durationMs,
    })),
  };
}

/** At most this many sessions make a progression (the most recent ones). */
export const PROGRESSION_MAX_SESSIONS = 200;

export interface Progression {
  reference: Effort;
  athlete: { id: number; name: string } | null;
  sessions: { sessionId: number; date: string; durationMs: number; avgSpeedMS: number; isReference: boolean }[];
  bestDurationMs: number;
  /** Least-squares change of the time per 30 days, s (negative: getting faster); null under 3 sessions or one day. */
  trendSPer30Days: number | null;
  /** The most recent session against the best, percent slower (0 when it is the best). */
  latestVsBestPct: number;
}

/**
 * The cohort of one session over time: the same boat class and target, with
 * the same athlete — the first crew athlete the subject may see (their own
 * record first: it is always visible) — or, when the crew shows nobody, the
 * reference's owner's sessions. Oldest first.
 */
export async function progressionOf(db: Db, audience: SessionAudience, sessionId: number): Promise<Progression> {
  const reference = await readEffort(db, audience, sessionId);
  const crew = await visibleCrewAthletes(db, audience, sessionId);
  const own = crew.length
    ? (
        await db
          .select({ id: athletes.id })
          .from(athletes)
          .where(
            and(
              inArray(
                athletes.id,
                crew.map((a) => a.id),
              ),
              eq(athletes.userId, audience.subjectId),
            ),
          )
      )[0]
    : undefined;
  const athlete = crew.find((a) => a.id === own?.id) ?? crew[0] ?? null;
  const cohort = athlete
    ? sql`exists (select 1 from result_crew pg_rc where pg_rc.result_id = ${results.id} and pg_rc.athlete_id = ${athlete.id})`
    : sql`${results.ownerUserId} = (select r2.owner_user_id from results r2 where r2.id = ${reference.id})`;
  const rows = await db
    .select(effortColumns)
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .where(and(sameEffort(reference), sessionReadable(audience), cohort))
    .orderBy(sql`${results.startAt} desc`, sql`${results.id} desc`)
    .limit(PROGRESSION_MAX_SESSIONS);
  const ordered = rows.reverse();
  const best = Math.min(...ordered.map((r) => r.durationMs));
  const t0 = ordered[0].startAt.getTime();
  const fit = linearFit(
    ordered.map((r) => (r.startAt.getTime() - t0) / 86_400_000),
    ordered.map((r) => r.durationMs / 1000),
  );
  const latest = ordered[ordered.length - 1];
  return {
    reference,
    athlete,
    sessions: ordered.map((r) => ({
      sessionId: r.id,
      date: r.date,
      durationMs: r.durationMs,
      avgSpeedMS: speedOf(r),
      isReference: r.id === reference.id,
    })),
    bestDurationMs: best,
    trendSPer30Days: fit && ordered.length >= 3 ? round(fit.slope * 30, 3) : null,
    latestVsBestPct: round((100 * (latest.durationMs - best)) / best, 2) ?? 0,
  };
}

/**
 * Personal bests: the standing record of each boat class and distance — the
 * `current` entries of the record history (GET /records), so the two never
 * disagree.
 */
export async function personalBests(db: Db, audience: SessionAudience) {
  return (await listRecordHistory(db, sessionsAboutSubject(audience))).filter((entry) => entry.current);
}
