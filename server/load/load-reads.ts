import { and, asc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import { athleteAccessible } from "../access/access";
import type { Db } from "../db/client";
import { athleteLoads, athletes } from "../db/schema";
import { notFound } from "../errors";
import { heartRateReadableAthletes } from "../health/heart-rate-share";
import { addDays, FITNESS_DAYS, fitnessSeries, weekStart, type FitnessDay } from "./model";

/**
 * What the load pages read (docs/load.md "Pages"): sums of the stored
 * athlete_loads rows, never a recomputation of a season. Fitness, fatigue and
 * form are the exponentially weighted daily sums (model.ts), computed from the
 * stored daily loads on each read: a few hundred additions.
 *
 * Access is the athlete page's (athleteAccessible: athlete_viewers); an
 * athlete that does not exist and one the viewer may not see are the same
 * not-found. Heart-rate load is health data: the athlete's own account, or a
 * coach of the record while the athlete shares their heart rate
 * (heartRateReadableAthletes); for anyone else it is absent, not zero.
 */

/** Weeks on the load page's bars and chart, this week included. */
export const LOAD_WEEKS = 16;
/** Days read before the season so fitness (τ = 42 days) does not start from zero on the first day shown. */
export const WARM_UP_DAYS = 3 * FITNESS_DAYS;

export interface LoadWeek {
  /** Monday of the ISO week, YYYY-MM-DD. */
  weekStart: string;
  speedLoad: number;
  /** Present only where the viewer may read the athlete's heart rate. */
  heartRateLoad?: number;
  efforts: number;
}

export interface AthleteLoadView {
  athleteId: number;
  name: string;
  /** Whether heart-rate load is shown (own record, or shared with this coach). */
  heartRateVisible: boolean;
  weeks: LoadWeek[];
  /** One day per date from the first week's Monday to today. */
  series: FitnessDay[];
  today: FitnessDay;
}

/** First day of the season shown: the Monday LOAD_WEEKS − 1 weeks before this week's. */
export function seasonStart(today: string): string {
  return addDays(weekStart(today), -7 * (LOAD_WEEKS - 1));
}

export async function athleteLoadView(db: Db, userId: number, athleteId: number, today: string): Promise<AthleteLoadView> {
  const [athlete] = await db
    .select({ id: athletes.id, name: athletes.name, surname: athletes.surname })
    .from(athletes)
    .where(and(eq(athletes.id, athleteId), athleteAccessible(userId)));
  if (!athlete) throw notFound("Athlete");
  const heartRateVisible = (await heartRateReadableAthletes(db, userId, [athleteId])).has(athleteId);
  const from = seasonStart(today);
  const warmUp = addDays(from, -WARM_UP_DAYS);
  const days = await db
    .select({
      date: athleteLoads.date,
      speedLoad: sql<number>`sum(${athleteLoads.speedLoad})::float8`,
      heartRateLoad: sql<number | null>`sum(${athleteLoads.heartRateLoad})::float8`,
      efforts: sql<number>`count(*)::int`,
    })
    .from(athleteLoads)
    .where(and(eq(athleteLoads.athleteId, athleteId), gte(athleteLoads.date, warmUp), lte(athleteLoads.date, today)))
    .groupBy(athleteLoads.date)
    .orderBy(asc(athleteLoads.date));
  const weeks: LoadWeek[] = [];
  for (let w = from; w <= today; w = addDays(w, 7))
    weeks.push({ weekStart: w, speedLoad: 0, ...(heartRateVisible ? { heartRateLoad: 0 } : {}), efforts: 0 });
  const daily = new Map<string, number>();
  for (const d of days) {
    daily.set(d.date, d.speedLoad);
    if (d.date < from) continue;
    const week = weeks[Math.floor(daysBetween(from, d.date) / 7)];
    week.speedLoad += d.speedLoad;
    week.efforts += d.efforts;
    if (heartRateVisible) week.heartRateLoad! += d.heartRateLoad ?? 0;
  }
  for (const w of weeks) {
    w.speedLoad = round1(w.speedLoad);
    if (w.heartRateLoad !== undefined) w.heartRateLoad = round1(w.heartRateLoad);
  }
  const series = fitnessSeries(daily, warmUp, today).filter((d) => d.date >= from);
  return {
    athleteId,
    name: `${athlete.name} ${athlete.surname}`.trim(),
    heartRateVisible,
    weeks,
    series,
    today: series[series.length - 1],
  };
}

export const SQUAD_SORTS = ["name", "week", "average", "form"] as const;
export type SquadSortKey = (typeof SQUAD_SORTS)[number];
export interface SquadSort {
  key: SquadSortKey;
  descending: boolean;
}

/** `?sort=week` (ascending) or `?sort=-week` (descending); anything else is by name. */
export function parseSquadSort(raw: string | string[] | undefined): SquadSort {
  const value = typeof raw === "string" ? raw : "";
  const descending = value.startsWith("-");
  const key = SQUAD_SORTS.find((k) => k === value.replace(/^-/, ""));
  return key ? { key, descending } : { key: "name", descending: false };
}

export interface SquadRow {
  athleteId: number;
  name: string;
  /** Speed load of this ISO week so far. */
  weekLoad: number;
  /** Mean weekly speed load of the four complete weeks before this one. */
  fourWeekAverage: number;
  /** Fitness − fatigue today (speed load). */
  form: number;
}

/**
 * The squad page (docs/load.md "Pages"): one row per athlete the person may
 * see, other than their own record (athlete_viewers without `own`). Speed
 * load only: no heart-rate figure, whatever is shared.
 */
export async function squadLoad(
  db: Db,
  userId: number,
  today: string,
  sort: SquadSort = { key: "name", descending: false },
): Promise<SquadRow[]> {
  const people = await db
    .selectDistinct({ id: athletes.id, name: athletes.name, surname: athletes.surname })
    .from(athletes)
    .where(sql`${athletes.id} in (select sq_v.athlete_id from athlete_viewers sq_v where sq_v.user_id = ${userId} and not sq_v.own)`);
  if (!people.length) return [];
  const from = addDays(today, -WARM_UP_DAYS);
  const days = await db
    .select({
      athleteId: athleteLoads.athleteId,
      date: athleteLoads.date,
      speedLoad: sql<number>`sum(${athleteLoads.speedLoad})::float8`,
    })
    .from(athleteLoads)
    .where(
      and(
        inArray(
          athleteLoads.athleteId,
          people.map((p) => p.id),
        ),
        gte(athleteLoads.date, from),
        lte(athleteLoads.date, today),
      ),
    )
    .groupBy(athleteLoads.athleteId, athleteLoads.date);
  const byAthlete = new Map<number, Map<string, number>>();
  for (const d of days) {
    const daily = byAthlete.get(d.athleteId) ?? new Map<string, number>();
    daily.set(d.date, d.speedLoad);
    byAthlete.set(d.athleteId, daily);
  }
  const thisWeek = weekStart(today);
  const fourWeeksBefore = addDays(thisWeek, -28);
  const rows = people.map((p): SquadRow => {
    const daily = byAthlete.get(p.id) ?? new Map<string, number>();
    let weekLoad = 0;
    let previous = 0;
    for (const [date, load] of daily) {
      if (date >= thisWeek) weekLoad += load;
      else if (date >= fourWeeksBefore) previous += load;
    }
    const series = fitnessSeries(daily, from, today);
    return {
      athleteId: p.id,
      name: `${p.name} ${p.surname}`.trim(),
      weekLoad: round1(weekLoad),
      fourWeekAverage: round1(previous / 4),
      form: series[series.length - 1].form,
    };
  });
  const value = (r: SquadRow) => (sort.key === "week" ? r.weekLoad : sort.key === "average" ? r.fourWeekAverage : r.form);
  const byName = (a: SquadRow, b: SquadRow) => a.name.localeCompare(b.name) || a.athleteId - b.athleteId;
  rows.sort((a, b) => {
    const order = sort.key === "name" ? byName(a, b) : value(a) - value(b) || byName(a, b);
    return sort.descending ? -order : order;
  });
  return rows;
}

/** The stored load of one session or training, per named paddler the viewer may see (the figure the weekly bars count). */
export interface EffortLoad {
  athleteId: number;
  name: string;
  speedLoad: number;
  heartRateLoad?: number;
}

export async function effortLoads(db: Db, userId: number, source: { resultId: number } | { trainingId: number }): Promise<EffortLoad[]> {
  const rows = await db
    .select({
      athleteId: athleteLoads.athleteId,
      name: athletes.name,
      surname: athletes.surname,
      speedLoad: athleteLoads.speedLoad,
      heartRateLoad: athleteLoads.heartRateLoad,
    })
    .from(athleteLoads)
    .innerJoin(athletes, eq(athletes.id, athleteLoads.athleteId))
    .where(
      and(
        "resultId" in source ? eq(athleteLoads.resultId, source.resultId) : eq(athleteLoads.trainingId, source.trainingId),
        athleteAccessible(userId, sql`${athleteLoads.athleteId}`),
      ),
    )
    .orderBy(asc(athleteLoads.id));
  const readable = await heartRateReadableAthletes(
    db,
    userId,
    rows.filter((r) => r.heartRateLoad !== null).map((r) => r.athleteId),
  );
  return rows.map((r) => ({
    athleteId: r.athleteId,
    name: `${r.name} ${r.surname}`.trim(),
    speedLoad: r.speedLoad,
    ...(r.heartRateLoad !== null && readable.has(r.athleteId) ? { heartRateLoad: r.heartRateLoad } : {}),
  }));
}

function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
