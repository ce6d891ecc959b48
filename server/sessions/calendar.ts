import { and, sql } from "drizzle-orm";
import { resultAccessible } from "../access/access";
import type { Db } from "../db/client";
import { trainings } from "../db/schema";
import { trainingVisible } from "../trainings/training-view";
import { filterSql, rowsOf, type LogQuery } from "./session-log";

/**
 * The log's calendar view (docs/web-app.md "Calendar"): one month of
 * sessions and trainings by local day, each day with its distance and the
 * trainings' work sets. Sessions follow the log's filters (the month replaces
 * the date range); trainings follow the athlete, boat class and track
 * filters, the ones they have. A month is at most 31 days, so a plain query.
 */
export interface CalendarSession {
  id: number;
  timeOfDay: string;
  boatClass: string;
  distanceM: number;
  durationMs: number;
  crew: string;
  status: string;
}

export interface CalendarTraining {
  id: number;
  title: string;
  boatClass: string;
  distanceM: number;
  durationMs: number;
  status: string;
  /** Work sets in order: distance (m) and time (ms). */
  workSets: { distanceM: number; durationMs: number }[];
}

export interface CalendarDay {
  date: string;
  /** Sessions' and trainings' distance, m. */
  distanceM: number;
  sessions: CalendarSession[];
  trainings: CalendarTraining[];
}

export interface CalendarMonth {
  month: string;
  previous: string;
  next: string;
  /** Every day of the month, empty ones included. */
  days: CalendarDay[];
}

const pad = (n: number) => String(n).padStart(2, "0");
const monthOf = (year: number, monthIndex: number) => {
  const d = new Date(Date.UTC(year, monthIndex, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
};

/** The month asked for, else the month of the newest session the filters select, else this month. */
export async function readCalendar(db: Db, userId: number, q: LogQuery, today = new Date()): Promise<CalendarMonth> {
  const filters = filterSql({ ...q, from: undefined, to: undefined });
  let month = q.month;
  if (!month) {
    const [latest] = rowsOf<{ newest: string | null }>(
      await db.execute(sql`select max(results.date)::text as newest from results where ${and(resultAccessible(userId), filters)}`),
    );
    month = (latest?.newest ?? today.toISOString()).slice(0, 7);
  }
  const [year, m] = month.split("-").map(Number);
  const daysIn = new Date(Date.UTC(year, m, 0)).getUTCDate();
  const from = `${month}-01`;
  const to = `${month}-${pad(daysIn)}`;
  const crewFilter =
    q.athlete !== undefined
      ? sql`and exists (select 1 from result_crew c_rc where c_rc.result_id = results.id and c_rc.athlete_id = ${q.athlete})`
      : sql``;
  const sessionRows = rowsOf<CalendarSession & { date: string }>(
    await db.execute(sql`
      select results.id, results.date::text as date, results.time_of_day as "timeOfDay", v.type as "boatClass", results.distance_m as "distanceM", results.duration_ms as "durationMs", results.status,
        coalesce((select string_agg(coalesce(trim(a.name || ' ' || a.surname), trim(rc.external_name || ' ' || coalesce(rc.external_surname, ''))), ', ' order by rc.seat)
          from result_crew rc left join athletes a on a.id = rc.athlete_id where rc.result_id = results.id), '') as crew
      from results join vessels v on v.id = results.vessel_id
      where ${and(resultAccessible(userId), filters, sql`results.date between ${from} and ${to}`)} ${crewFilter}
      order by results.start_at, results.id`),
  );
  const trainingRows = rowsOf<
    Omit<CalendarTraining, "workSets"> & { date: string; workSets: { distanceM: number; durationMs: number }[] | null }
  >(
    await db.execute(sql`
      select ${trainings.id} as id, ${trainings.date}::text as date, ${trainings.title} as title, v.type as "boatClass", coalesce(${trainings.distanceM}, 0) as "distanceM",
        coalesce(${trainings.durationMs}, 0) as "durationMs", ${trainings.status} as status,
        (select json_agg(json_build_object('distanceM', ts.distance_m, 'durationMs', ts.duration_ms) order by ts.position) from training_sets ts where ts.training_id = ${trainings.id} and ts.kind = 'work') as "workSets"
      from ${trainings} join vessels v on v.id = ${trainings.vesselId}
      where ${and(
        trainingVisible(userId),
        sql`${trainings.date} between ${from} and ${to}`,
        q.athlete !== undefined ? sql`${trainings.athleteId} = ${q.athlete}` : undefined,
        q.boat !== undefined ? sql`${trainings.vesselId} = ${q.boat}` : undefined,
        q.track !== undefined ? sql`${trainings.trackId} = ${q.track}` : undefined,
      )}
      order by ${trainings.startAt}, ${trainings.id}`),
  );
  const days: CalendarDay[] = [];
  for (let d = 1; d <= daysIn; d++) {
    const date = `${month}-${pad(d)}`;
    const sessions = sessionRows
      .filter((r) => r.date === date)
      .map((r) => ({
        id: Number(r.id),
        timeOfDay: r.timeOfDay,
        boatClass: r.boatClass,
        distanceM: Number(r.distanceM),
        durationMs: Number(r.durationMs),
        crew: r.crew,
        status: r.status,
      }));
    const dayTrainings = trainingRows
      .filter((r) => r.date === date)
      .map((r) => ({
        id: Number(r.id),
        title: r.title,
        boatClass: r.boatClass,
        distanceM: Number(r.distanceM),
        durationMs: Number(r.durationMs),
        status: r.status,
        workSets: (r.workSets ?? []).map((w) => ({ distanceM: Number(w.distanceM), durationMs: Number(w.durationMs) })),
      }));
    const distanceM = sessions.reduce((sum, s) => sum + s.distanceM, 0) + dayTrainings.reduce((sum, t) => sum + t.distanceM, 0);
    days.push({ date, distanceM, sessions, trainings: dayTrainings });
  }
  return { month, previous: monthOf(year, m - 2), next: monthOf(year, m), days };
}
