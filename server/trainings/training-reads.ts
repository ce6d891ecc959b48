import { and, asc, desc, eq, gt, gte, ilike, inArray, lte, sql, type SQL } from "drizzle-orm";
import { trainingHeartRateOwner } from "../health/health-projection";
import { athleteAccessible } from "../access/access";
import type { Db } from "../db/client";
import { athletes, tracks, trainingDerived, trainingSets, trainingSetStrokes, trainings, vessels, workoutTemplates } from "../db/schema";
import { notFound } from "../errors";
import type { SessionAudience } from "../sessions/session-boundary";
import type { KeysetPosition } from "../contract/keyset";
import type { DataQuality, EffortTrack, SessionSummary } from "../svc/process/types";
import type { NormalizedTemplate } from "../workouts/template";

/**
 * Reads of trainings for the Data API (docs/trainings.md "Data API"). Every
 * read starts from the boundary: a training is the subject's when they own
 * it; on the session surface, only when the calling application created it
 * too. Absent and outside the boundary are the same not-found.
 */
export type TrainingAudience = SessionAudience;

export function trainingReadable(audience: TrainingAudience): SQL {
  const owned = eq(trainings.ownerUserId, audience.subjectId);
  return audience.surface === "session" ? and(owned, eq(trainings.createdByApplicationId, audience.applicationId))! : owned;
}

const trainingColumns = {
  id: trainings.id,
  ownerUserId: trainings.ownerUserId,
  title: trainings.title,
  notes: trainings.notes,
  status: trainings.status,
  failureCode: trainings.failureCode,
  failureMessage: trainings.failureMessage,
  date: trainings.date,
  timeOfDay: trainings.timeOfDay,
  startAt: trainings.startAt,
  utcOffsetMin: trainings.utcOffsetMin,
  distanceM: trainings.distanceM,
  durationMs: trainings.durationMs,
  workSetCount: trainings.workSetCount,
  needsReview: trainings.needsReview,
  sensitivity: trainings.sensitivity,
  boatClassId: trainings.vesselId,
  boatClass: vessels.type,
  crewSize: vessels.npeople,
  trackId: trainings.trackId,
  trackName: tracks.name,
  athleteId: trainings.athleteId,
  templateId: trainings.templateId,
  createdAt: trainings.createdAt,
  processedAt: trainings.processedAt,
  /** coalesce(start_at, created_at) as text: the list's sort key (a queued training sorts by its upload). */
  sortKey: sql<string>`coalesce(${trainings.startAt}, ${trainings.createdAt})::text`,
};

function selectTrainings(db: Db) {
  return db
    .select(trainingColumns)
    .from(trainings)
    .innerJoin(vessels, eq(vessels.id, trainings.vesselId))
    .leftJoin(tracks, eq(tracks.id, trainings.trackId));
}
export type TrainingRow = Awaited<ReturnType<typeof selectTrainings>>[number];

export interface TrainingFilters {
  title?: string;
  date_from?: string;
  date_to?: string;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One keyset page of the audience's trainings, newest first (index trainings_owner_start_idx). */
export function listTrainingsPage(
  db: Db,
  audience: TrainingAudience,
  filters: TrainingFilters,
  after: KeysetPosition | null,
  take: number,
) {
  const sortColumn = sql`coalesce(${trainings.startAt}, ${trainings.createdAt})`;
  const seek = after ? sql`(${sortColumn}, ${trainings.id}) < (${String(after[0])}::timestamptz, ${Number(after[1])})` : undefined;
  return selectTrainings(db)
    .where(
      and(
        trainingReadable(audience),
        filters.title ? ilike(trainings.title, `%${escapeLike(filters.title)}%`) : undefined,
        filters.date_from ? gte(trainings.date, filters.date_from) : undefined,
        filters.date_to ? lte(trainings.date, filters.date_to) : undefined,
        seek,
      ),
    )
    .orderBy(desc(sortColumn), desc(trainings.id))
    .limit(take);
}
export const trainingPosition = (row: TrainingRow): KeysetPosition => [row.sortKey, row.id];

export async function getReadableTraining(db: Db, audience: TrainingAudience, trainingId: number): Promise<TrainingRow> {
  const [row] = await selectTrainings(db).where(and(eq(trainings.id, trainingId), trainingReadable(audience)));
  if (!row) throw notFound("Training");
  return row;
}

/**
 * The paddler as the subject may see them: their own athlete record always,
 * on the data surface also an athlete they manage or coach; otherwise null.
 * `linkedUserId` decides whose heart rate the unit recorded; never serialized.
 */
export async function getTrainingAthlete(db: Db, audience: TrainingAudience, row: Pick<TrainingRow, "athleteId">) {
  if (row.athleteId === null) return null;
  const visible = audience.surface === "data" ? athleteAccessible(audience.subjectId, sql`${athletes.id}`) : sql`false`;
  const [athlete] = await db
    .select({
      id: athletes.id,
      name: sql<string>`trim(${athletes.name} || ' ' || ${athletes.surname})`,
      linkedUserId: athletes.userId,
      visible: sql<boolean>`coalesce(${visible}, false)`,
    })
    .from(athletes)
    .where(eq(athletes.id, row.athleteId));
  if (!athlete) return null;
  const isSubject = athlete.linkedUserId === audience.subjectId;
  return {
    athlete: isSubject || athlete.visible ? { id: athlete.id, name: athlete.name } : null,
    isSubject,
    linkedUserId: athlete.linkedUserId,
  };
}
export type TrainingAthlete = Awaited<ReturnType<typeof getTrainingAthlete>>;

/**
 * The unit's heart rate belongs to the paddler: readable (with health:read)
 * only when that is the subject — the training's athlete is their own
 * athlete record, or no athlete is named and it is the subject's own
 * practice (data-api.md "Health data rules"; docs/trainings.md).
 */
export function trainingHeartRateIsSubjects(
  row: Pick<TrainingRow, "ownerUserId" | "athleteId">,
  athlete: TrainingAthlete,
  subjectId: number,
): boolean {
  return (
    trainingHeartRateOwner({
      ownerUserId: row.ownerUserId,
      athleteId: athlete ? row.athleteId : null,
      athleteLinkedUserId: athlete?.linkedUserId ?? null,
    }) === subjectId
  );
}

/** The template the training followed, as it was at upload (the snapshot), with its id when the subject still has it. */
export async function getTrainingTemplate(db: Db, trainingId: number, ownerUserId: number) {
  const [row] = await db
    .select({
      templateId: trainings.templateId,
      snapshot: trainings.templateSnapshot,
      liveId: workoutTemplates.id,
      liveName: workoutTemplates.name,
    })
    .from(trainings)
    .leftJoin(workoutTemplates, and(eq(workoutTemplates.id, trainings.templateId), eq(workoutTemplates.ownerUserId, ownerUserId)))
    .where(eq(trainings.id, trainingId));
  if (!row || !row.snapshot) return null;
  return { id: row.liveId, name: row.liveName, template: row.snapshot as NormalizedTemplate };
}

export interface TrainingDerived {
  effortStartS: number;
  effortEndS: number;
  summary: SessionSummary;
  dataQuality: DataQuality;
  track: EffortTrack;
  templateMatch: { unmatched_steps: number[]; extra_sets: number[] } | null;
}

export async function getTrainingDerived(db: Db, trainingId: number): Promise<TrainingDerived | null> {
  const [row] = await db.select().from(trainingDerived).where(eq(trainingDerived.trainingId, trainingId));
  if (!row) return null;
  return {
    effortStartS: row.effortStartS,
    effortEndS: row.effortEndS,
    summary: row.summary as SessionSummary,
    dataQuality: row.dataQuality as DataQuality,
    track: row.track as EffortTrack,
    templateMatch: row.templateMatch as TrainingDerived["templateMatch"],
  };
}

const setColumns = {
  id: trainingSets.id,
  trainingId: trainingSets.trainingId,
  position: trainingSets.position,
  kind: trainingSets.kind,
  startS: trainingSets.startS,
  endS: trainingSets.endS,
  distanceM: trainingSets.distanceM,
  durationMs: trainingSets.durationMs,
  strokeCount: trainingSets.strokeCount,
  stepIndex: trainingSets.stepIndex,
  complete: trainingSets.complete,
  corrected: trainingSets.corrected,
};
export interface TrainingSetRow {
  id: number;
  trainingId: number;
  position: number;
  kind: "work" | "rest";
  startS: number;
  endS: number;
  distanceM: number;
  durationMs: number;
  strokeCount: number;
  stepIndex: number | null;
  complete: boolean;
  /** A person's correction made this set (its kind or bounds differ from detection). */
  corrected: boolean;
}

/** Every set of a training in time order (no per-set summaries or tracks). */
export async function getTrainingSets(db: Db, trainingId: number): Promise<TrainingSetRow[]> {
  return db.select(setColumns).from(trainingSets).where(eq(trainingSets.trainingId, trainingId)).orderBy(asc(trainingSets.position));
}

export interface WorkSet extends TrainingSetRow {
  kind: "work";
  summary: SessionSummary;
  track: EffortTrack;
  heartRate: [number, number][];
}

function toWorkSet(row: TrainingSetRow & { summary: unknown; track: unknown; heartRate: unknown }): WorkSet {
  return {
    ...row,
    kind: "work",
    summary: row.summary as SessionSummary,
    track: row.track as EffortTrack,
    heartRate: (row.heartRate ?? []) as [number, number][],
  };
}
const workColumns = { ...setColumns, summary: trainingSets.summary, track: trainingSets.track, heartRate: trainingSets.heartRate };

/** The work sets of a training with their summaries and tracks, in time order. */
export async function getWorkSets(db: Db, trainingId: number): Promise<WorkSet[]> {
  const rows = await db
    .select(workColumns)
    .from(trainingSets)
    .where(and(eq(trainingSets.trainingId, trainingId), eq(trainingSets.kind, "work")))
    .orderBy(asc(trainingSets.position));
  return rows.map(toWorkSet);
}

/**
 * One work (active) set of a readable training: absent, outside the
 * boundary, of another training, or a rest are the same not-found (a rest has
 * no strokes, series or splits of its own).
 */
export async function getReadableWorkSet(
  db: Db,
  audience: TrainingAudience,
  trainingId: number,
  setId: number,
): Promise<{ training: TrainingRow; set: WorkSet }> {
  const training = await getReadableTraining(db, audience, trainingId);
  const [row] = await db
    .select(workColumns)
    .from(trainingSets)
    .where(and(eq(trainingSets.id, setId), eq(trainingSets.trainingId, training.id), eq(trainingSets.kind, "work")));
  if (!row || row.summary === null || row.track === null) throw notFound("Set");
  return { training, set: toWorkSet(row) };
}

/** Work sets of one training among the given ids (the rest are not its active sets). */
export async function getWorkSetsByIds(db: Db, trainingId: number, setIds: number[]): Promise<WorkSet[]> {
  if (!setIds.length) return [];
  const rows = await db
    .select(workColumns)
    .from(trainingSets)
    .where(and(eq(trainingSets.trainingId, trainingId), eq(trainingSets.kind, "work"), inArray(trainingSets.id, setIds)));
  return rows.filter((r) => r.summary !== null && r.track !== null).map(toWorkSet);
}

const strokeColumns = {
  index: trainingSetStrokes.strokeIndex,
  catchS: trainingSetStrokes.catchS,
  side: trainingSetStrokes.side,
  distanceM: trainingSetStrokes.distanceM,
  speedMS: trainingSetStrokes.filteredSpeedMS,
  rateSpm: trainingSetStrokes.rateSpm,
  strokeDistanceM: trainingSetStrokes.strokeDistanceM,
  leftStrokeDistanceM: trainingSetStrokes.leftStrokeDistanceM,
  rightStrokeDistanceM: trainingSetStrokes.rightStrokeDistanceM,
  maxAccelXMS2: trainingSetStrokes.maxAccelXMS2,
  minAccelXMS2: trainingSetStrokes.minAccelXMS2,
  maxPitchDeg: trainingSetStrokes.maxPitchDeg,
  maxRollDeg: trainingSetStrokes.maxRollDeg,
};

/** One keyset page of a set's strokes on the primary key (set_id, stroke_index). */
export function setStrokesPageQuery(db: Db, setId: number, afterIndex: number | null, take: number) {
  return db
    .select(strokeColumns)
    .from(trainingSetStrokes)
    .where(and(eq(trainingSetStrokes.setId, setId), afterIndex === null ? undefined : gt(trainingSetStrokes.strokeIndex, afterIndex)))
    .orderBy(asc(trainingSetStrokes.strokeIndex))
    .limit(take);
}

/** Every stroke of a set, in order. */
export function getSetStrokes(db: Db, setId: number) {
  return db
    .select(strokeColumns)
    .from(trainingSetStrokes)
    .where(eq(trainingSetStrokes.setId, setId))
    .orderBy(asc(trainingSetStrokes.strokeIndex));
}
