import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rowsOf } from "../sessions/session-log";
import { isoWeeksBetween, NO_VOLUME, readAthleteWeeks, readWeekTotals } from "../sessions/weekly-volume";
import { readWaiting, type Waiting } from "./waiting";

export type { Waiting };

/**
 * The signed-in home (docs/web-app.md "Home"): this week across the team,
 * the weekly volume over the season, the latest bests and anything waiting.
 * Everything is over what the person may see under the web rule
 * (resultAccessible, trainingVisible), so a coach reads their club and an
 * athlete themselves. No heart rate or weight: a coach's home is read by the
 * coach, and those belong to the athlete (server/health/health-projection.ts).
 */

/** Weeks of the season chart, this week included. */
export const HOME_WEEKS = 16;

export interface AthleteWeek {
  athleteId: number;
  athleteName: string;
  sessions: number;
  trainings: number;
  distanceM: number;
  durationMs: number;
  workMs: number;
}

export interface WeekTotals {
  /** Monday of the ISO week, YYYY-MM-DD. */
  weekStart: string;
  sessions: number;
  trainings: number;
  /** Sessions' effort distance plus trainings' distance, m. */
  distanceM: number;
  sessionDistanceM: number;
  /** Time on the water: sessions' effort time plus trainings' recorded time, ms. */
  durationMs: number;
  /** Work sets' time of the trainings, ms. */
  workMs: number;
}

export interface LatestBest {
  resultId: number;
  date: string;
  boatClass: string;
  distanceM: number;
  durationMs: number;
  crew: string;
}

export interface HomeSummary {
  weekStart: string;
  thisWeek: AthleteWeek[];
  weeks: WeekTotals[];
  bests: LatestBest[];
  waiting: Waiting;
}

const DAY_MS = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

export async function readHomeSummary(db: Db, userId: number, today = new Date()): Promise<HomeSummary> {
  const weekStarts = isoWeeksBetween(iso(today.getTime() - (HOME_WEEKS - 1) * 7 * DAY_MS), iso(today.getTime())).reverse();
  const from = weekStarts[0];
  const weekStart = weekStarts[weekStarts.length - 1];
  const to = iso(Date.parse(`${weekStart}T00:00:00Z`) + 6 * DAY_MS);
  const [weeks, thisWeek, bests, waiting] = await Promise.all([
    readWeeks(db, userId, from, to, weekStarts),
    readAthleteWeek(db, userId, weekStart, to),
    readLatestBests(db, userId),
    readWaiting(db, userId),
  ]);
  return { weekStart, thisWeek, weeks, bests, waiting };
}

async function readWeeks(db: Db, userId: number, from: string, to: string, weekStarts: string[]): Promise<WeekTotals[]> {
  const totals = await readWeekTotals(db, userId, { from, to });
  return weekStarts.map((weekStart) => ({ weekStart, ...(totals.get(weekStart) ?? NO_VOLUME) }));
}

/**
 * Per crew athlete the person may see (an athlete: only themselves, not their
 * crew mates): a crew boat counts for each athlete in it. The same function
 * as the log's week view (server/sessions/weekly-volume.ts).
 */
async function readAthleteWeek(db: Db, userId: number, from: string, to: string): Promise<AthleteWeek[]> {
  const rows = await readAthleteWeeks(db, userId, { from, to });
  return rows.map(({ athleteId, athleteName, sessions, trainings, distanceM, durationMs, workMs }) => ({
    athleteId,
    athleteName,
    sessions,
    trainings,
    distanceM,
    durationMs,
    workMs,
  }));
}

/**
 * The newest bests still standing, per crew (the same athletes in the same
 * seats), boat class and distance: a K2's best is that pair's, not the club's.
 */
async function readLatestBests(db: Db, userId: number, count = 5): Promise<LatestBest[]> {
  const rows = rowsOf<{ id: number; date: string; boat: string; distance: number; duration: number; crew: string; crewKey: string }>(
    await db.execute(sql`
      select r.id, r.date::text as date, v.type as boat, r.distance_m as distance, r.duration_ms as duration,
        coalesce((select string_agg(coalesce(trim(a.name || ' ' || a.surname), trim(rc.external_name || ' ' || coalesce(rc.external_surname, ''))), ', ' order by rc.seat)
          from result_crew rc left join athletes a on a.id = rc.athlete_id where rc.result_id = r.id), '') as crew,
        coalesce((select string_agg(coalesce(rc.athlete_id::text, 'x'), ',' order by rc.seat) from result_crew rc where rc.result_id = r.id), '') as "crewKey"
      from results r join vessels v on v.id = r.vessel_id
      where r.status = 'processed' and r.target_distance_m is not null
        and exists (select 1 from session_access sa where sa.user_id = ${userId} and sa.result_id = r.id)
      order by r.start_at, r.id`),
  );
  const best = new Map<string, LatestBest>();
  for (const r of rows) {
    const key = `${r.boat}:${r.distance}:${r.crewKey}`;
    const previous = best.get(key);
    if (!previous || Number(r.duration) < previous.durationMs)
      best.set(key, {
        resultId: Number(r.id),
        date: r.date,
        boatClass: r.boat,
        distanceM: Number(r.distance),
        durationMs: Number(r.duration),
        crew: r.crew,
      });
  }
  return [...best.values()].sort((a, b) => b.date.localeCompare(a.date) || b.resultId - a.resultId).slice(0, count);
}
