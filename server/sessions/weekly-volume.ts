import { and, sql } from "drizzle-orm";
import { resultAccessible } from "../access/access";
import type { Db } from "../db/client";
import { filterSql, rowsOf, type LogQuery } from "./session-log";

/** Weeks shown when the log's filters give no date range. */
export const DEFAULT_WEEKS = 8;

export interface WeekVolume {
  /** Monday of the ISO week, YYYY-MM-DD. */
  weekStart: string;
  athleteId: number;
  athleteName: string;
  sessions: number;
  distanceM: number;
  durationMs: number;
}

/** One ISO week of the range, with its athletes' volume (none in a week without sessions). */
export interface WeekOfVolume {
  /** Monday of the ISO week, YYYY-MM-DD. */
  weekStart: string;
  athletes: WeekVolume[];
}

/**
 * The week view of the log: every ISO week the range touches, newest first,
 * empty weeks included (a coach reads a gap as a gap), and in each week, per
 * crew athlete, how many sessions, metres and milliseconds, over the sessions
 * the log's filters select. Without a date range, the DEFAULT_WEEKS weeks up
 * to the newest visible session. Externals typed by hand have no athlete
 * record and are not counted. Bounded by the date range, so a plain
 * aggregate suffices.
 */
export async function readWeeklyVolume(db: Db, userId: number, q: LogQuery): Promise<{ from: string; to: string; weeks: WeekOfVolume[] }> {
  let { from, to } = q;
  if (!from || !to) {
    const [latest] = rowsOf<{ newest: string | null }>(
      await db.execute(sql`select max(results.date)::text as newest from results where ${and(resultAccessible(userId), filterSql(q))}`),
    );
    const anchor = to ?? latest?.newest ?? new Date().toISOString().slice(0, 10);
    to = anchor;
    from = from ?? new Date(Date.parse(`${anchor}T00:00:00Z`) - (DEFAULT_WEEKS * 7 - 1) * 86_400_000).toISOString().slice(0, 10);
  }
  const ranged = { ...q, from, to };
  const rows = rowsOf<WeekVolume>(
    await db.execute(sql`
      select date_trunc('week', results.date)::date::text as "weekStart", a.id as "athleteId", trim(a.name || ' ' || a.surname) as "athleteName",
        count(*)::int as sessions, sum(results.distance_m)::int as "distanceM", sum(results.duration_ms)::bigint as "durationMs"
      from results join result_crew wv_rc on wv_rc.result_id = results.id join athletes a on a.id = wv_rc.athlete_id
      where ${and(resultAccessible(userId), filterSql(ranged))}
        ${q.athlete !== undefined ? sql`and a.id = ${q.athlete}` : sql``}
      group by 1, 2, 3 order by 1 desc, 3, 2`),
  );
  const volumes = rows.map((r) => ({
    ...r,
    athleteId: Number(r.athleteId),
    sessions: Number(r.sessions),
    distanceM: Number(r.distanceM),
    durationMs: Number(r.durationMs),
  }));
  return {
    from,
    to,
    weeks: isoWeeksBetween(from, to).map((weekStart) => ({ weekStart, athletes: volumes.filter((v) => v.weekStart === weekStart) })),
  };
}

const DAY_MS = 86_400_000;
/** A year of weeks at most: the range comes from the URL, and a page of 500 years of empty weeks helps nobody. */
const MAX_WEEKS = 53;

/** Mondays (YYYY-MM-DD) of the ISO weeks from the one holding `to` back to the one holding `from`, newest first. */
export function isoWeeksBetween(from: string, to: string): string[] {
  const monday = (day: string) => {
    const t = Date.parse(`${day}T00:00:00Z`);
    return t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS;
  };
  const first = monday(from);
  const weeks: string[] = [];
  for (let t = monday(to); t >= first && weeks.length < MAX_WEEKS; t -= 7 * DAY_MS) weeks.push(new Date(t).toISOString().slice(0, 10));
  return weeks;
}
