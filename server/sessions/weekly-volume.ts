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

/**
 * The week view of the log: per ISO week and athlete in the crew, how many
 * sessions, metres and milliseconds, over the sessions the log's filters
 * select. Without a date range, the DEFAULT_WEEKS weeks up to the newest
 * visible session. Externals typed by hand have no athlete record and are
 * not counted. Bounded by the date range, so a plain aggregate suffices.
 */
export async function readWeeklyVolume(db: Db, userId: number, q: LogQuery): Promise<{ from: string; to: string; weeks: WeekVolume[] }> {
  let { from, to } = q;
  if (!from || !to) {
    const [latest] = rowsOf<{ newest: string | null }>(await db.execute(sql`select max(results.date)::text as newest from results where ${and(resultAccessible(userId), filterSql(q))}`));
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
  return { from, to, weeks: rows.map((r) => ({ ...r, athleteId: Number(r.athleteId), sessions: Number(r.sessions), distanceM: Number(r.distanceM), durationMs: Number(r.durationMs) })) };
}
