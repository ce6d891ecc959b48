import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rowsOf } from "../sessions/session-log";

export interface PersonalBest {
  boatClass: string;
  distanceM: number;
  durationMs: number;
  resultId: number;
  date: string;
  /** Sessions of this boat class and distance the athlete paddled. */
  sessions: number;
}

/**
 * An athlete's personal bests: per boat class and distance, the fastest
 * processed distance effort with the athlete in the crew (the earliest on a
 * tie). Records are per athlete, whoever uploaded the session. The caller
 * has checked that the athlete is within the user's reach, which makes every
 * session of theirs visible under the web rule.
 */
export async function listPersonalBests(db: Db, athleteId: number): Promise<PersonalBest[]> {
  const rows = rowsOf<PersonalBest>(
    await db.execute(sql`
      select distinct on (v.type, r.distance_m) v.type as "boatClass", r.distance_m as "distanceM", r.duration_ms as "durationMs", r.id as "resultId", r.date::text as "date",
        count(*) over (partition by v.type, r.distance_m)::int as sessions
      from result_crew rc join results r on r.id = rc.result_id join vessels v on v.id = r.vessel_id
      where rc.athlete_id = ${athleteId} and r.target_distance_m is not null and r.status = 'processed'
      order by v.type, r.distance_m, r.duration_ms, r.start_at, r.id`),
  );
  return rows.map((r) => ({
    ...r,
    distanceM: Number(r.distanceM),
    durationMs: Number(r.durationMs),
    resultId: Number(r.resultId),
    sessions: Number(r.sessions),
  }));
}

export interface ProgressionPoint {
  date: string;
  durationMs: number;
  resultId: number;
}

/**
 * Times over the season for one boat class and distance: every processed
 * effort of the athlete in the year up to their latest one, oldest first.
 */
export async function listProgression(db: Db, athleteId: number, boatClass: string, distanceM: number): Promise<ProgressionPoint[]> {
  const rows = rowsOf<ProgressionPoint>(
    await db.execute(sql`
      with mine as (
        select r.id, r.date, r.duration_ms, r.start_at from result_crew rc join results r on r.id = rc.result_id join vessels v on v.id = r.vessel_id
        where rc.athlete_id = ${athleteId} and v.type = ${boatClass} and r.distance_m = ${distanceM} and r.target_distance_m is not null and r.status = 'processed')
      select id as "resultId", date::text as "date", duration_ms as "durationMs" from mine
      where date > (select max(date) from mine) - 365 order by start_at, id`),
  );
  return rows.map((r) => ({ ...r, durationMs: Number(r.durationMs), resultId: Number(r.resultId) }));
}
