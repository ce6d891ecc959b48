import { and, sql, type SQL } from "drizzle-orm";
import { athleteAccessible, resultAccessible } from "../access/access";
import type { Db } from "../db/client";
import { results, trainings } from "../db/schema";
import { trainingVisible } from "../trainings/training-view";
import { filterSql, rowsOf, type LogQuery } from "./session-log";

/**
 * Weekly volume: the one place that says how much a week holds (docs/web-app.md
 * "Weekly volume: one figure per week"). Home's "This week" and season chart and
 * the log's week view read these two functions, so the same week shows the same
 * number on every page. A week's volume is its sessions' effort distance and
 * time plus its ready trainings' recorded distance and time; work is the
 * trainings' work sets' time.
 */

/** Weeks shown when the log's filters give no date range. */
export const DEFAULT_WEEKS = 8;

export interface Volume {
  sessions: number;
  trainings: number;
  /** Sessions' effort distance plus trainings' distance, m. */
  distanceM: number;
  /** Sessions' effort distance alone, m. */
  sessionDistanceM: number;
  /** Time on the water: sessions' effort time plus trainings' recorded time, ms. */
  durationMs: number;
  /** Work sets' time of the trainings, ms. */
  workMs: number;
}

export interface WeekVolume extends Volume {
  /** Monday of the ISO week, YYYY-MM-DD. */
  weekStart: string;
  athleteId: number;
  athleteName: string;
}

/** One ISO week of the range: the week's total (each session and training once) and its athletes' volume. */
export interface WeekOfVolume {
  /** Monday of the ISO week, YYYY-MM-DD. */
  weekStart: string;
  total: Volume;
  athletes: WeekVolume[];
}

/** What a volume is read over: whole days `from`..`to`, and optionally the log's filters and one athlete. */
export interface VolumeScope {
  from: string;
  to: string;
  athleteId?: number;
  /** The log's session filters. A filter a training has no value for (boat class, track, distance, competition, important) leaves trainings out. */
  log?: LogQuery;
}

const sessionOnlyFilter = (log: LogQuery | undefined) =>
  !!log && (log.boat !== undefined || log.track !== undefined || log.distance !== undefined || !!log.competition || !!log.important);

const workOf = sql`coalesce((select sum(ts.duration_ms) from training_sets ts where ts.training_id = ${trainings.id} and ts.kind = 'work'), 0)`;

function sessionWhere(userId: number, scope: VolumeScope): SQL {
  return and(resultAccessible(userId), filterSql({ ...(scope.log ?? ({} as LogQuery)), from: scope.from, to: scope.to }))!;
}

function trainingWhere(userId: number, scope: VolumeScope): SQL {
  if (sessionOnlyFilter(scope.log)) return sql`false`;
  return and(trainingVisible(userId), sql`${trainings.status} = 'ready' and ${trainings.date} between ${scope.from} and ${scope.to}`)!;
}

const toVolume = (r: Record<string, unknown>): Volume => ({
  sessions: Number(r.sessions ?? 0),
  trainings: Number(r.trainings ?? 0),
  distanceM: Number(r.distance ?? 0),
  sessionDistanceM: Number(r.sessionDistance ?? 0),
  durationMs: Number(r.duration ?? 0),
  workMs: Number(r.work ?? 0),
});

const sums = sql`sum(session)::int as sessions, sum(training)::int as trainings, sum(distance)::bigint as distance,
  sum(distance * session)::bigint as "sessionDistance", sum(duration)::bigint as duration, sum(work)::bigint as work`;

/**
 * Per ISO week and crew athlete the person may see: a crew boat counts once
 * for each athlete in it; a training for its athlete. Externals typed by hand
 * have no athlete record and are not counted here (they are in the week's total).
 */
export async function readAthleteWeeks(db: Db, userId: number, scope: VolumeScope): Promise<WeekVolume[]> {
  const one = scope.athleteId;
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      with items as (
        select wv_rc.athlete_id, ${results.date} as date, 1 as session, 0 as training, ${results.distanceM} as distance, ${results.durationMs} as duration, 0 as work
        from ${results} join result_crew wv_rc on wv_rc.result_id = ${results.id}
        where wv_rc.athlete_id is not null and ${sessionWhere(userId, scope)} ${one !== undefined ? sql`and wv_rc.athlete_id = ${one}` : sql``}
        union all
        select ${trainings.athleteId}, ${trainings.date}, 0, 1, coalesce(${trainings.distanceM}, 0), coalesce(${trainings.durationMs}, 0), ${workOf}
        from ${trainings} where ${trainings.athleteId} is not null and ${trainingWhere(userId, scope)} ${one !== undefined ? sql`and ${trainings.athleteId} = ${one}` : sql``}
      )
      select date_trunc('week', items.date)::date::text as "weekStart", a.id as "athleteId", trim(a.name || ' ' || a.surname) as "athleteName", ${sums}
      from items join athletes a on a.id = items.athlete_id where ${athleteAccessible(userId, sql`a.id`)}
      group by 1, 2, 3 order by 1 desc, 3, 2`),
  );
  return rows.map((r) => ({
    weekStart: String(r.weekStart),
    athleteId: Number(r.athleteId),
    athleteName: String(r.athleteName),
    ...toVolume(r),
  }));
}

/**
 * Per ISO week, everything the person may see once: a crew boat is one
 * session, a training one training (a coach's club, an athlete themselves).
 * With an athlete, the sessions they paddled in and their trainings.
 */
export async function readWeekTotals(db: Db, userId: number, scope: VolumeScope): Promise<Map<string, Volume>> {
  const one = scope.athleteId;
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      with items as (
        select ${results.date} as date, 1 as session, 0 as training, ${results.distanceM} as distance, ${results.durationMs} as duration, 0 as work
        from ${results} where ${sessionWhere(userId, scope)}
          ${one !== undefined ? sql`and exists (select 1 from result_crew wt_rc where wt_rc.result_id = ${results.id} and wt_rc.athlete_id = ${one})` : sql``}
        union all
        select ${trainings.date}, 0, 1, coalesce(${trainings.distanceM}, 0), coalesce(${trainings.durationMs}, 0), ${workOf}
        from ${trainings} where ${trainingWhere(userId, scope)} ${one !== undefined ? sql`and ${trainings.athleteId} = ${one}` : sql``}
      )
      select date_trunc('week', items.date)::date::text as week, ${sums} from items group by 1`),
  );
  return new Map(rows.map((r) => [String(r.week), toVolume(r)]));
}

export const NO_VOLUME: Volume = { sessions: 0, trainings: 0, distanceM: 0, sessionDistanceM: 0, durationMs: 0, workMs: 0 };

/**
 * The week view of the log: every ISO week the range touches, newest first,
 * empty weeks included (a coach reads a gap as a gap), each whole (Monday to
 * Sunday: a range that starts on a Friday would cut its oldest week short),
 * with the week's total and its athletes' volume over what the log's filters
 * select. Without a date range, the DEFAULT_WEEKS weeks up to the week of the
 * newest visible session or training.
 */
export async function readWeeklyVolume(db: Db, userId: number, q: LogQuery): Promise<{ from: string; to: string; weeks: WeekOfVolume[] }> {
  let anchor = q.to;
  if (!anchor) {
    const scope = { from: q.from ?? "0001-01-01", to: "9999-12-31", log: q };
    const [latest] = rowsOf<{ newest: string | null }>(
      await db.execute(sql`select greatest(
        (select max(${results.date}) from ${results} where ${sessionWhere(userId, scope)}),
        (select max(${trainings.date}) from ${trainings} where ${trainingWhere(userId, scope)}))::text as newest`),
    );
    anchor = latest?.newest ?? new Date().toISOString().slice(0, 10);
  }
  const to = sundayOf(anchor);
  const from = mondayOf(q.from ?? iso(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_WEEKS * 7 - 1) * DAY_MS));
  const weekStarts = isoWeeksBetween(from, to);
  // A range longer than MAX_WEEKS shows its newest weeks, and the figures cover exactly those.
  const scope: VolumeScope = { from: weekStarts.at(-1) ?? from, to, log: q, athleteId: q.athlete };
  const [athletes, totals] = await Promise.all([readAthleteWeeks(db, userId, scope), readWeekTotals(db, userId, scope)]);
  return {
    from: scope.from,
    to,
    weeks: weekStarts.map((weekStart) => ({
      weekStart,
      total: totals.get(weekStart) ?? NO_VOLUME,
      athletes: athletes.filter((v) => v.weekStart === weekStart),
    })),
  };
}

const DAY_MS = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
/** A year of weeks at most: the range comes from the URL, and a page of 500 years of empty weeks helps nobody. */
const MAX_WEEKS = 53;

/** The Monday of the ISO week holding `day` (YYYY-MM-DD). */
export function mondayOf(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  return iso(t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS);
}

/** The Sunday of the ISO week holding `day`. */
export function sundayOf(day: string): string {
  return iso(Date.parse(`${mondayOf(day)}T00:00:00Z`) + 6 * DAY_MS);
}

/** Mondays (YYYY-MM-DD) of the ISO weeks from the one holding `to` back to the one holding `from`, newest first. */
export function isoWeeksBetween(from: string, to: string): string[] {
  const first = Date.parse(`${mondayOf(from)}T00:00:00Z`);
  const weeks: string[] = [];
  for (let t = Date.parse(`${mondayOf(to)}T00:00:00Z`); t >= first && weeks.length < MAX_WEEKS; t -= 7 * DAY_MS) weeks.push(iso(t));
  return weeks;
}
