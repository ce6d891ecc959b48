import { and, sql } from "drizzle-orm";
import { athleteAccessible, resultAccessible } from "../access/access";
import type { Db } from "../db/client";
import { results, trainings } from "../db/schema";
import { rowsOf } from "../sessions/session-log";
import { isoWeeksBetween } from "../sessions/weekly-volume";
import { trainingVisible } from "../trainings/training-view";

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

export interface Waiting {
  failedSessions: { id: number; date: string; label: string }[];
  failedTrainings: { id: number; date: string | null; label: string }[];
  pendingExports: { publicId: string; format: string; state: string; createdAt: string }[];
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
  const sessionRows = rowsOf<{ week: string; n: number; distance: number; duration: number }>(
    await db.execute(sql`
      select date_trunc('week', ${results.date})::date::text as week, count(*)::int as n, coalesce(sum(${results.distanceM}), 0)::bigint as distance, coalesce(sum(${results.durationMs}), 0)::bigint as duration
      from ${results} where ${and(resultAccessible(userId), sql`${results.date} between ${from} and ${to}`)} group by 1`),
  );
  const trainingRows = rowsOf<{ week: string; n: number; distance: number; duration: number; work: number }>(
    await db.execute(sql`
      select date_trunc('week', ${trainings.date})::date::text as week, count(*)::int as n, coalesce(sum(${trainings.distanceM}), 0)::bigint as distance, coalesce(sum(${trainings.durationMs}), 0)::bigint as duration,
        coalesce(sum((select sum(ts.duration_ms) from training_sets ts where ts.training_id = ${trainings.id} and ts.kind = 'work')), 0)::bigint as work
      from ${trainings} where ${and(trainingVisible(userId), sql`${trainings.status} = 'ready' and ${trainings.date} between ${from} and ${to}`)} group by 1`),
  );
  return weekStarts.map((week) => {
    const s = sessionRows.find((r) => r.week === week);
    const t = trainingRows.find((r) => r.week === week);
    return {
      weekStart: week,
      sessions: Number(s?.n ?? 0),
      trainings: Number(t?.n ?? 0),
      distanceM: Number(s?.distance ?? 0) + Number(t?.distance ?? 0),
      sessionDistanceM: Number(s?.distance ?? 0),
      durationMs: Number(s?.duration ?? 0) + Number(t?.duration ?? 0),
      workMs: Number(t?.work ?? 0),
    };
  });
}

/**
 * Per crew athlete the person may see (an athlete: only themselves, not their
 * crew mates): a crew boat counts for each athlete in it.
 */
async function readAthleteWeek(db: Db, userId: number, from: string, to: string): Promise<AthleteWeek[]> {
  const rows = rowsOf<{ id: number; name: string; sessions: number; trainings: number; distance: number; duration: number; work: number }>(
    await db.execute(sql`
      with items as (
        select rc.athlete_id, 1 as session, 0 as training, r.distance_m as distance, r.duration_ms as duration, 0 as work
        from results r join result_crew rc on rc.result_id = r.id
        where rc.athlete_id is not null and r.date between ${from} and ${to}
          and exists (select 1 from session_access sa where sa.user_id = ${userId} and sa.result_id = r.id)
        union all
        select ${trainings.athleteId}, 0, 1, coalesce(${trainings.distanceM}, 0), coalesce(${trainings.durationMs}, 0),
          coalesce((select sum(ts.duration_ms) from training_sets ts where ts.training_id = ${trainings.id} and ts.kind = 'work'), 0)
        from ${trainings} where ${trainings.athleteId} is not null and ${trainings.status} = 'ready' and ${trainings.date} between ${from} and ${to} and ${trainingVisible(userId)}
      )
      select a.id, trim(a.name || ' ' || a.surname) as name, sum(session)::int as sessions, sum(training)::int as trainings,
        sum(distance)::bigint as distance, sum(duration)::bigint as duration, sum(work)::bigint as work
      from items join athletes a on a.id = items.athlete_id where ${athleteAccessible(userId, sql`a.id`)}
      group by a.id, a.name, a.surname order by 2, 1`),
  );
  return rows.map((r) => ({
    athleteId: Number(r.id),
    athleteName: r.name,
    sessions: Number(r.sessions),
    trainings: Number(r.trainings),
    distanceM: Number(r.distance),
    durationMs: Number(r.duration),
    workMs: Number(r.work),
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

async function readWaiting(db: Db, userId: number): Promise<Waiting> {
  const failedSessions = rowsOf<{ id: number; date: string; label: string }>(
    await db.execute(sql`
      select r.id, r.date::text as date, v.type || ' ' || r.distance_m || ' m' || case when r.description <> '' then ' · ' || r.description else '' end as label
      from results r join vessels v on v.id = r.vessel_id where r.owner_user_id = ${userId} and r.status = 'failed' order by r.date desc, r.id desc limit 10`),
  );
  const failedTrainings = rowsOf<{ id: number; date: string | null; label: string }>(
    await db.execute(
      sql`select t.id, t.date::text as date, t.title as label from trainings t where t.owner_user_id = ${userId} and t.status = 'failed' order by t.created_at desc limit 10`,
    ),
  );
  const pendingExports = rowsOf<{ publicId: string; format: string; state: string; createdAt: string }>(
    await db.execute(sql`
      select e.public_id as "publicId", e.format, e.state, to_char(e.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as "createdAt"
      from export_jobs e where e.subject_user_id = ${userId} and e.application_id is null and e.state in ('queued', 'running') order by e.created_at desc limit 10`),
  );
  return {
    failedSessions: failedSessions.map((r) => ({ ...r, id: Number(r.id) })),
    failedTrainings: failedTrainings.map((r) => ({ ...r, id: Number(r.id) })),
    pendingExports,
  };
}
