import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { trainings } from "../db/schema";
import { averageSpeedMS, pace500S } from "../results/figures";
import { rowsOf } from "../sessions/session-log";
import type { SessionSummary } from "../svc/process/types";
import type { NormalizedTemplate } from "../workouts/template";
import { trainingVisible } from "./training-view";

/**
 * Following a set across the season (docs/web-app.md "Squad views"): every
 * time an athlete or crew rowed a chosen template, or reps of a chosen length,
 * with each rep's pace and rate, the set's average and its fade. Only the
 * trainings the person may see (`trainingVisible`: their own, and those of
 * the athletes they manage or coach), processed ones only.
 */
export type SetChoice = { templateId: number } | { repM: number } | { repS: number };

export interface HistoryRep {
  /** Work rep number within the training (1, 2, 3 …: as the coach counts them). */
  workNumber: number;
  distanceM: number;
  durationMs: number;
  speedMS: number;
  pace500S: number | null;
  rateSpm: number | null;
}

export interface HistoryEntry {
  trainingId: number;
  date: string;
  boatClass: string;
  /** Sorted athlete ids of the crew: the series this entry belongs to. */
  crewKey: string;
  crewName: string;
  reps: HistoryRep[];
  /** The reps' total distance ÷ total time (server/results/figures.ts), and its pace. */
  avgSpeedMS: number;
  avgPace500S: number | null;
  /** Rate averaged over the reps, each weighted by its time. */
  avgRateSpm: number | null;
  /** Last rep's pace minus the first's, s/500 m: positive when the set slowed. Null with fewer than two reps. */
  fadeS: number | null;
  /** The same as a share of the first rep's pace (0.02 = 2 % slower). */
  fadeRatio: number | null;
}

export interface HistorySeries {
  crewKey: string;
  crewName: string;
  entries: HistoryEntry[];
}

export interface SetHistory {
  entries: HistoryEntry[];
  series: HistorySeries[];
}

/** How close an untemplated work set must be to the chosen rep length (5 %) to count as one. */
export const REP_TOLERANCE = 0.05;
/** At most this many trainings, newest first (a season of weekly sets for a squad fits many times over). */
export const HISTORY_LIMIT = 400;

interface Row {
  training_id: number;
  date: string;
  boat_class: string;
  template: NormalizedTemplate | null;
  crew_ids: number[] | null;
  crew_names: string[] | null;
  sets: { distance_m: number; duration_ms: number; step_index: number | null; summary: SessionSummary | null }[];
}

export async function readSetHistory(
  db: Db,
  userId: number,
  choice: SetChoice,
  filters: { athleteId?: number; from?: string; to?: string } = {},
): Promise<SetHistory> {
  const where: SQL[] = [trainingVisible(userId), sql`${trainings.status} = 'ready'`];
  if ("templateId" in choice) where.push(sql`${trainings.templateId} = ${choice.templateId}`);
  if (filters.athleteId !== undefined)
    where.push(
      sql`(${trainings.athleteId} = ${filters.athleteId} or exists (select 1 from training_crew h_f where h_f.training_id = ${trainings.id} and h_f.athlete_id = ${filters.athleteId}))`,
    );
  if (filters.from) where.push(sql`${trainings.date} >= ${filters.from}`);
  if (filters.to) where.push(sql`${trainings.date} <= ${filters.to}`);
  const result = await db.execute(sql`
    select ${trainings.id} as training_id, ${trainings.date}::text as date, v.type as boat_class, ${trainings.templateSnapshot} as template,
      coalesce(c.ids, case when ${trainings.athleteId} is null then null else array[${trainings.athleteId}] end) as crew_ids,
      coalesce(c.names, case when ${trainings.athleteId} is null then null else array[trim(pa.name || ' ' || pa.surname)] end) as crew_names,
      (select coalesce(json_agg(json_build_object('distance_m', s.distance_m, 'duration_ms', s.duration_ms, 'step_index', s.step_index,
         'summary', s.summary) order by s.position), '[]'::json)
       from training_sets s where s.training_id = ${trainings.id} and s.kind = 'work') as sets
    from ${trainings}
    join vessels v on v.id = ${trainings.vesselId}
    left join athletes pa on pa.id = ${trainings.athleteId}
    left join lateral (
      select array_agg(tc.athlete_id order by tc.seat) as ids, array_agg(trim(a.name || ' ' || a.surname) order by tc.seat) as names
      from training_crew tc join athletes a on a.id = tc.athlete_id where tc.training_id = ${trainings.id}
    ) c on true
    where ${sql.join(where, sql` and `)}
    order by ${trainings.startAt} desc nulls last, ${trainings.id} desc
    limit ${HISTORY_LIMIT}`);
  const rows = rowsOf<Row>(result);
  const entries = rows
    .map((r) => entryOf(r, choice))
    .filter((e): e is HistoryEntry => e !== null)
    .reverse();
  const byCrew = new Map<string, HistorySeries>();
  for (const e of entries) {
    const series = byCrew.get(e.crewKey) ?? { crewKey: e.crewKey, crewName: e.crewName, entries: [] };
    series.entries.push(e);
    byCrew.set(e.crewKey, series);
  }
  return { entries, series: [...byCrew.values()].sort((a, b) => a.crewName.localeCompare(b.crewName)) };
}

/** One training's reps of the choice with their figures; null when it holds none. */
function entryOf(r: Row, choice: SetChoice): HistoryEntry | null {
  const reps: HistoryRep[] = [];
  r.sets.forEach((s, k) => {
    if (!matches(s, r.template, choice) || s.duration_ms <= 0) return;
    const speedMS = averageSpeedMS(s.distance_m, s.duration_ms);
    reps.push({
      workNumber: k + 1,
      distanceM: s.distance_m,
      durationMs: s.duration_ms,
      speedMS,
      pace500S: pace500S(speedMS),
      rateSpm: s.summary?.avg_rate ?? null,
    });
  });
  if (!reps.length) return null;
  const distance = reps.reduce((a, x) => a + x.distanceM, 0);
  const time = reps.reduce((a, x) => a + x.durationMs, 0);
  const rated = reps.filter((x) => x.rateSpm !== null);
  const ratedTime = rated.reduce((a, x) => a + x.durationMs, 0);
  const avgSpeedMS = averageSpeedMS(distance, time);
  const first = reps[0].pace500S;
  const last = reps[reps.length - 1].pace500S;
  const fadeS = reps.length > 1 && first !== null && last !== null ? last - first : null;
  const ids = r.crew_ids ?? [];
  return {
    trainingId: Number(r.training_id),
    date: r.date,
    boatClass: r.boat_class,
    crewKey: ids.length ? [...ids].sort((a, b) => a - b).join("-") : `training-${r.training_id}`,
    crewName: r.crew_names?.length ? r.crew_names.join(" / ") : "Unnamed paddler",
    reps,
    avgSpeedMS,
    avgPace500S: pace500S(avgSpeedMS),
    avgRateSpm: ratedTime > 0 ? rated.reduce((a, x) => a + x.rateSpm! * x.durationMs, 0) / ratedTime : null,
    fadeS,
    fadeRatio: fadeS !== null && first ? fadeS / first : null,
  };
}

/** A work set belongs to the choice: any work set of the chosen template, or a rep whose template step (else its own length) is the chosen one. */
function matches(s: Row["sets"][number], template: NormalizedTemplate | null, choice: SetChoice): boolean {
  if ("templateId" in choice) return true;
  const step = s.step_index !== null ? template?.steps[s.step_index] : undefined;
  if ("repM" in choice)
    return step ? step.distance_m === choice.repM : !template && Math.abs(s.distance_m - choice.repM) <= choice.repM * REP_TOLERANCE;
  return step ? step.duration_s === choice.repS : !template && Math.abs(s.duration_ms / 1000 - choice.repS) <= choice.repS * REP_TOLERANCE;
}

export interface SetChoices {
  templates: { id: number; name: string }[];
  repLengths: { key: string; label: string }[];
}

/** What the person can follow: the templates their visible trainings used, and the work step lengths in them. */
export async function readSetChoices(db: Db, userId: number): Promise<SetChoices> {
  const result = await db.execute(sql`
    select ${trainings.templateId} as id, (array_agg(${trainings.templateSnapshot} order by ${trainings.id} desc))[1] as template
    from ${trainings}
    where ${trainingVisible(userId)} and ${trainings.status} = 'ready' and ${trainings.templateId} is not null
    group by ${trainings.templateId}`);
  const rows = rowsOf<{ id: number; template: NormalizedTemplate | null }>(result);
  const lengths = new Map<string, { key: string; label: string; sort: number }>();
  for (const r of rows)
    for (const step of r.template?.steps ?? [])
      if (step.kind === "work") {
        if (step.distance_m !== undefined)
          lengths.set(`m${step.distance_m}`, { key: `m${step.distance_m}`, label: `${step.distance_m} m`, sort: step.distance_m });
        else if (step.duration_s !== undefined)
          lengths.set(`s${step.duration_s}`, { key: `s${step.duration_s}`, label: `${step.duration_s} s`, sort: 1e6 + step.duration_s });
      }
  return {
    templates: rows
      .map((r) => ({ id: Number(r.id), name: r.template?.name ?? `Template ${r.id}` }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id),
    repLengths: [...lengths.values()].sort((a, b) => a.sort - b.sort).map(({ key, label }) => ({ key, label })),
  };
}

/** `?set=t12` (a template), `?set=m250` or `?set=s45` (a rep length) to a choice; null when it does not parse. */
export function parseSetChoice(value: string | undefined): SetChoice | null {
  const m = /^([tms])([1-9]\d{0,8})$/.exec(value ?? "");
  if (!m) return null;
  const n = Number(m[2]);
  if (m[1] === "t") return { templateId: n };
  if (n > 50_000) return null;
  return m[1] === "m" ? { repM: n } : { repS: n };
}

/** The `set` value of a choice (the inverse of parseSetChoice). */
export const setChoiceKey = (choice: SetChoice): string =>
  "templateId" in choice ? `t${choice.templateId}` : "repM" in choice ? `m${choice.repM}` : `s${choice.repS}`;
