import { heartRateReadableBy } from "../health/heart-rate-share";
import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { athleteAccessible } from "../access/access";
import type { Db } from "../db/client";
import {
  athletes,
  tracks,
  trainingCrew,
  trainingDerived,
  trainings,
  trainingSetCorrections,
  trainingSets,
  trainingSetStrokes,
  users,
  vessels,
  workoutTemplates,
} from "../db/schema";
import { notFound } from "../errors";
import {
  effortFigures,
  ownHeartRateOf,
  trainingHeartRateOwner,
  viewerDataQuality,
  type EffortFigures,
  type OwnHeartRate,
} from "../health/health-projection";
import { computeSplits } from "../svc/process/track";
import type { DataQuality, EffortTrack, SessionSummary, Split } from "../svc/process/types";
import type { NormalizedTemplate } from "../workouts/template";
import { INT4_MAX } from "../contract/values";

/**
 * What the web pages read about trainings (docs/trainings.md "Web pages").
 * A person sees the trainings they uploaded and those of an athlete they
 * may see (the athlete themself, their manager, their team's coaches: the
 * same rule as sessions); any other training answers as a missing one (404).
 */
export function trainingVisible(userId: number): SQL {
  return or(
    eq(trainings.ownerUserId, userId),
    and(sql`${trainings.athleteId} is not null`, athleteAccessible(userId, sql`${trainings.athleteId}`)),
    // Any paddler of a crew boat's training, as a session's crew.
    sql`exists (select 1 from training_crew tv_c where tv_c.training_id = ${trainings.id} and ${athleteAccessible(userId, sql`tv_c.athlete_id`)})`,
  )!;
}

export const TRAININGS_PAGE_SIZE = 25;

export interface TrainingListItem {
  id: number;
  title: string;
  status: "queued" | "processing" | "ready" | "failed";
  vesselType: string;
  date: string | null;
  timeOfDay: string | null;
  uploadedAt: string;
  distanceM: number | null;
  durationMs: number | null;
  workSetCount: number | null;
  templateName: string | null;
  failureMessage: string | null;
  /** The named paddlers from the bow ("Ana Vega", or a crew's "Ana Vega / Eva Ruiz"); empty when nobody is named. */
  crew: string[];
}

/** The list's filters (docs/web-app.md "Squad views"): all optional, all combined. */
export interface TrainingFilters {
  /** Trainings this athlete paddled (alone or in a crew). */
  athleteId?: number;
  /** Boat class, e.g. "K1". */
  boatClass?: string;
  templateId?: number;
  /** Local date of the recording, inclusive (YYYY-MM-DD). */
  from?: string;
  to?: string;
}

function trainingFilterSql(f: TrainingFilters): SQL[] {
  return [
    f.athleteId !== undefined
      ? sql`(${trainings.athleteId} = ${f.athleteId} or exists (select 1 from training_crew tf_c where tf_c.training_id = ${trainings.id} and tf_c.athlete_id = ${f.athleteId}))`
      : undefined,
    f.boatClass !== undefined ? eq(vessels.type, f.boatClass) : undefined,
    f.templateId !== undefined ? eq(trainings.templateId, f.templateId) : undefined,
    f.from !== undefined ? sql`${trainings.date} >= ${f.from}` : undefined,
    f.to !== undefined ? sql`${trainings.date} <= ${f.to}` : undefined,
  ].filter((c): c is SQL => c !== undefined);
}

/** Keyset cursor: the sort key in microseconds since 1970 (exact, as Postgres keeps it) and the id. */
function encodeCursor(micros: string, id: number): string {
  return Buffer.from(`${micros}|${id}`).toString("base64url");
}
function decodeCursor(cursor: string | undefined): { micros: string; id: number } | null {
  if (!cursor || cursor.length > 100) return null;
  const [micros, id] = Buffer.from(cursor, "base64url").toString().split("|");
  const n = Number(id);
  if (!/^-?\d{1,17}$/.test(micros ?? "") || !Number.isInteger(n) || n < 1 || n > INT4_MAX) return null;
  return { micros, id: n };
}

/** The trainings the user may see, newest first, one page after `cursor` (an unreadable cursor starts at the top). */
export async function listTrainings(
  db: Db,
  userId: number,
  cursor?: string,
  limit = TRAININGS_PAGE_SIZE,
  filters: TrainingFilters = {},
): Promise<{ items: TrainingListItem[]; nextCursor: string | null }> {
  const sortKey = sql<Date>`coalesce(${trainings.startAt}, ${trainings.createdAt})`;
  const after = decodeCursor(cursor);
  const rows = await db
    .select({
      id: trainings.id,
      title: trainings.title,
      status: trainings.status,
      vesselType: vessels.type,
      date: trainings.date,
      timeOfDay: trainings.timeOfDay,
      createdAt: trainings.createdAt,
      distanceM: trainings.distanceM,
      durationMs: trainings.durationMs,
      workSetCount: trainings.workSetCount,
      templateSnapshot: trainings.templateSnapshot,
      failureMessage: trainings.failureMessage,
      crew: sql<
        string[] | null
      >`coalesce((select array_agg(trim(tl_a.name || ' ' || tl_a.surname) order by tl_c.seat) from training_crew tl_c
        join athletes tl_a on tl_a.id = tl_c.athlete_id where tl_c.training_id = ${trainings.id}),
        (select array[trim(tl_p.name || ' ' || tl_p.surname)] from athletes tl_p where tl_p.id = ${trainings.athleteId}))`,
      sortMicros: sql<string>`(extract(epoch from ${sortKey}) * 1000000)::bigint::text`,
    })
    .from(trainings)
    .innerJoin(vessels, eq(vessels.id, trainings.vesselId))
    .where(
      and(
        trainingVisible(userId),
        ...trainingFilterSql(filters),
        after
          ? sql`(${sortKey}, ${trainings.id}) < (timestamptz 'epoch' + ${after.micros}::bigint * interval '1 microsecond', ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(sortKey), desc(trainings.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({
      id: r.id,
      title: r.title,
      status: r.status,
      vesselType: r.vesselType,
      date: r.date,
      timeOfDay: r.timeOfDay,
      uploadedAt: r.createdAt.toISOString(),
      distanceM: r.distanceM,
      durationMs: r.durationMs,
      workSetCount: r.workSetCount,
      templateName: (r.templateSnapshot as NormalizedTemplate | null)?.name ?? null,
      failureMessage: r.failureMessage,
      crew: r.crew ?? [],
    })),
    nextCursor: rows.length > limit && last ? encodeCursor(last.sortMicros, last.id) : null,
  };
}

export interface SetPoint {
  distance: number;
  speed: number | null;
  rate: number | null;
  strokeDistance: number | null;
}

export interface TrainingSetView {
  id: number;
  position: number;
  kind: "work" | "rest";
  /** Work sets numbered 1.. in order; null for rests. */
  workNumber: number | null;
  startS: number;
  endS: number;
  distanceM: number;
  durationMs: number;
  strokeCount: number;
  stepIndex: number | null;
  /** The template step in words ("500 m", "60 s"), when matched. */
  stepLabel: string | null;
  /** The matched step's number among the template's work steps (work 1, 2, 3 …: rests are not counted). */
  stepWorkNumber: number | null;
  complete: boolean;
  extra: boolean;
  /** The set's figures without health data. */
  summary: EffortFigures | null;
  /** The set's heart rate: the key exists only when the viewer is the paddler it belongs to. */
  ownHeartRate?: OwnHeartRate;
  /** Work sets: one point per stroke, distance from the set start. */
  points: SetPoint[];
  /** Work sets: four equal-distance splits with their uncertainties (docs/processing.md "Split uncertainty"); empty for rests. */
  splits: Split[];
  /** A person's correction made this set (docs/trainings.md "Corrected sets"). */
  corrected: boolean;
}

/** What the correction controls need; only for the owner and the paddler (docs/trainings.md "Corrected sets"). */
export interface TrainingCorrecting {
  /** Catch times of every stroke (recording clock, s): where a boundary may move. */
  strokeCatches: number[];
  /** The latest correction in force, for the undo: what it did, by whom and when. */
  last: { id: number; op: string; by: string | null; at: string } | null;
  activeCount: number;
}

export interface TrainingView {
  id: number;
  title: string;
  notes: string;
  status: "queued" | "processing" | "ready" | "failed";
  failureCode: string | null;
  failureMessage: string | null;
  vesselType: string;
  trackName: string | null;
  athleteName: string | null;
  /** The named seats from the bow: the crew of a crew boat, the paddler of a single. */
  crew: { seat: number; name: string }[];
  templateName: string | null;
  templateId: number | null;
  templateStillExists: boolean;
  sensitivity: number;
  originalFilename: string | null;
  uploadedAt: string;
  processedAt: string | null;
  processingCoreVersion: number | null;
  date: string | null;
  timeOfDay: string | null;
  distanceM: number | null;
  durationMs: number | null;
  workSetCount: number | null;
  /** The whole training's figures without health data. */
  summary: EffortFigures | null;
  /** The whole training's heart rate: the key exists only when the viewer is the paddler it belongs to. */
  ownHeartRate?: OwnHeartRate;
  warnings: string[];
  /** Template work steps no set was found for, in words. */
  unmatchedSteps: { index: number; workNumber: number; label: string }[];
  sets: TrainingSetView[];
  /** Reprocessing kept a person's corrected sets that no longer fit the new detection. */
  needsReview: boolean;
  /** Present only when the viewer may correct the sets. */
  correcting: TrainingCorrecting | null;
}

const stepLabel = (step: { distance_m?: number; duration_s?: number } | undefined) =>
  !step ? null : step.distance_m !== undefined ? `${step.distance_m} m` : step.duration_s !== undefined ? `${step.duration_s} s` : null;

/** A template step's number among its work steps, 1-based: a coach counts "work 3", not "step 5" (rests between). */
export const workStepNumber = (template: NormalizedTemplate | null, index: number): number =>
  (template?.steps ?? []).slice(0, index + 1).filter((step) => step.kind === "work").length || index + 1;

export async function loadTrainingView(db: Db, userId: number, trainingId: number): Promise<TrainingView> {
  const [t] = await db
    .select({
      training: trainings,
      vesselType: vessels.type,
      trackName: tracks.name,
      athleteName: sql<string | null>`nullif(trim(${athletes.name} || ' ' || ${athletes.surname}), '')`,
      athleteLinkedUserId: athletes.userId,
      templateStillExists: sql<boolean>`${workoutTemplates.id} is not null`,
    })
    .from(trainings)
    .innerJoin(vessels, eq(vessels.id, trainings.vesselId))
    .leftJoin(tracks, eq(tracks.id, trainings.trackId))
    .leftJoin(athletes, eq(athletes.id, trainings.athleteId))
    .leftJoin(workoutTemplates, eq(workoutTemplates.id, trainings.templateId))
    .where(and(eq(trainings.id, trainingId), trainingVisible(userId)));
  if (!t) throw notFound("Training");
  const tr = t.training;
  const template = tr.templateSnapshot as NormalizedTemplate | null;
  const ready = tr.status === "ready";
  const crewRows = await db
    .select({ seat: trainingCrew.seat, name: sql<string>`trim(${athletes.name} || ' ' || ${athletes.surname})` })
    .from(trainingCrew)
    .innerJoin(athletes, eq(athletes.id, trainingCrew.athleteId))
    .where(eq(trainingCrew.trainingId, trainingId))
    .orderBy(asc(trainingCrew.seat));
  const [derived] = ready ? await db.select().from(trainingDerived).where(eq(trainingDerived.trainingId, trainingId)) : [];
  const setRows = ready
    ? await db.select().from(trainingSets).where(eq(trainingSets.trainingId, trainingId)).orderBy(asc(trainingSets.position))
    : [];
  const workIds = setRows.filter((s) => s.kind === "work").map((s) => s.id);
  const strokes = workIds.length
    ? await db
        .select({
          setId: trainingSetStrokes.setId,
          distance: trainingSetStrokes.distanceM,
          speed: trainingSetStrokes.filteredSpeedMS,
          rate: trainingSetStrokes.rateSpm,
          strokeDistance: trainingSetStrokes.strokeDistanceM,
          left: trainingSetStrokes.leftStrokeDistanceM,
          right: trainingSetStrokes.rightStrokeDistanceM,
        })
        .from(trainingSetStrokes)
        .where(inArray(trainingSetStrokes.setId, workIds))
        .orderBy(asc(trainingSetStrokes.setId), asc(trainingSetStrokes.strokeIndex))
    : [];
  const pointsBySet = new Map<number, SetPoint[]>();
  // The splits take the stored strokes as the Data API does (unrounded), so the figures agree.
  const splitStrokesBySet = new Map<number, { distance: number; rate: number }[]>();
  for (const s of strokes) {
    const raw = splitStrokesBySet.get(s.setId) ?? [];
    raw.push({ distance: s.distance ?? 0, rate: s.rate ?? 0 });
    splitStrokesBySet.set(s.setId, raw);
    const list = pointsBySet.get(s.setId) ?? [];
    list.push({
      distance: round(s.distance ?? 0, 1),
      speed: s.speed === null ? null : round(s.speed, 3),
      rate: s.rate === null ? null : round(s.rate, 1),
      strokeDistance: nullableRound(s.strokeDistance ?? s.left ?? s.right, 2),
    });
    pointsBySet.set(s.setId, list);
  }
  // The unit's heart rate is the paddler's (docs/access.md "Health data in every view").
  const heartRateIsViewers = await heartRateReadableBy(
    db,
    trainingHeartRateOwner({ ownerUserId: tr.ownerUserId, athleteId: tr.athleteId, athleteLinkedUserId: t.athleteLinkedUserId }),
    userId,
  );
  const ownHeartRate = (summary: SessionSummary | null | undefined) => {
    const own = heartRateIsViewers && summary ? ownHeartRateOf(summary) : null;
    return own ? { ownHeartRate: own } : {};
  };
  const totalSummary = derived?.summary as SessionSummary | undefined;
  const match = derived?.templateMatch as { unmatched_steps: number[]; extra_sets: number[] } | null | undefined;
  let work = 0;
  const canCorrect = tr.ownerUserId === userId || t.athleteLinkedUserId === userId;
  const correcting = canCorrect && ready ? await correctingOf(db, trainingId, (derived?.strokeCatches as number[] | null) ?? []) : null;
  return {
    needsReview: tr.needsReview,
    correcting,
    id: tr.id,
    title: tr.title,
    notes: tr.notes,
    status: tr.status,
    failureCode: tr.failureCode,
    failureMessage: tr.failureMessage,
    vesselType: t.vesselType,
    trackName: t.trackName,
    athleteName: t.athleteName,
    crew: crewRows.map((c) => ({ seat: c.seat, name: c.name })),
    templateName: template ? (template.name ?? "Unnamed template") : null,
    templateId: tr.templateId,
    templateStillExists: t.templateStillExists,
    sensitivity: tr.sensitivity,
    originalFilename: tr.originalFilename,
    uploadedAt: tr.createdAt.toISOString(),
    processedAt: tr.processedAt?.toISOString() ?? null,
    processingCoreVersion: tr.processingCoreVersion,
    date: tr.date,
    timeOfDay: tr.timeOfDay,
    distanceM: tr.distanceM,
    durationMs: tr.durationMs,
    workSetCount: tr.workSetCount,
    summary: totalSummary ? effortFigures(totalSummary) : null,
    ...ownHeartRate(totalSummary),
    warnings: derived ? viewerDataQuality(derived.dataQuality as DataQuality).warnings.slice(0, 10) : [],
    unmatchedSteps: (match?.unmatched_steps ?? []).map((index) => ({
      index,
      workNumber: workStepNumber(template, index),
      label: stepLabel(template?.steps[index]) ?? `step ${index + 1}`,
    })),
    sets: setRows.map((s, k) => ({
      id: s.id,
      position: s.position,
      kind: s.kind,
      workNumber: s.kind === "work" ? ++work : null,
      startS: s.startS,
      endS: s.endS,
      distanceM: s.distanceM,
      durationMs: s.durationMs,
      strokeCount: s.strokeCount,
      stepIndex: s.stepIndex,
      stepLabel: s.stepIndex === null ? null : stepLabel(template?.steps[s.stepIndex]),
      stepWorkNumber: s.stepIndex === null ? null : workStepNumber(template, s.stepIndex),
      complete: s.complete,
      extra: s.kind === "work" && !!match && match.extra_sets.includes(k),
      summary: s.summary ? effortFigures(s.summary as SessionSummary) : null,
      ...ownHeartRate(s.summary as SessionSummary | null),
      points: pointsBySet.get(s.id) ?? [],
      splits: s.kind === "work" && s.track ? computeSplits(s.track as EffortTrack, splitStrokesBySet.get(s.id) ?? [], SET_SPLITS) : [],
      corrected: s.corrected,
    })),
  };
}

async function correctingOf(db: Db, trainingId: number, strokeCatches: number[]): Promise<TrainingCorrecting> {
  const rows = await db
    .select({
      id: trainingSetCorrections.id,
      operation: trainingSetCorrections.operation,
      by: users.name,
      at: trainingSetCorrections.createdAt,
    })
    .from(trainingSetCorrections)
    .leftJoin(users, eq(users.id, trainingSetCorrections.userId))
    .where(and(eq(trainingSetCorrections.trainingId, trainingId), isNull(trainingSetCorrections.undoneAt)))
    .orderBy(desc(trainingSetCorrections.id));
  const last = rows[0];
  return {
    strokeCatches,
    activeCount: rows.length,
    last: last ? { id: last.id, op: (last.operation as { op: string }).op, by: last.by, at: last.at.toISOString() } : null,
  };
}

const round = (v: number, digits: number) => Number(v.toFixed(digits));
/** The set splits the training page shows (the Data API's default count). */
const SET_SPLITS = 4;
const nullableRound = (v: number | null | undefined, digits: number) => (v === null || v === undefined ? null : round(v, digits));

/** The owner's workout templates for the upload form's choice. */
export async function listTemplateChoices(db: Db, userId: number): Promise<{ id: number; name: string }[]> {
  return db
    .select({ id: workoutTemplates.id, name: workoutTemplates.name })
    .from(workoutTemplates)
    .where(eq(workoutTemplates.ownerUserId, userId))
    .orderBy(asc(workoutTemplates.name), asc(workoutTemplates.id));
}
