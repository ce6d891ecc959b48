import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { users } from "../db/schema";
import { AppError, notFound } from "../errors";
import { listShareableLactate } from "../health/shareable-health";
import { serializeLactate } from "../http/data-api/serializers/records-health";
import { serializeSeries, serializeSessionSummary, serializeSplits, serializeStroke } from "../http/data-api/serializers/sessions";
import { serializeSetSplits, serializeSetSummary, serializeTrainingSet } from "../http/data-api/serializers/trainings";
import { toProcessingStroke } from "../results/result-analysis";
import { downsampleRoute } from "../sessions/read-session";
import { buildSeries, computeSplits, MAX_SERIES_POINTS, round, type SeriesField } from "../svc/process/track";
import type { Split } from "../svc/process/types";
import { getReadableTraining, getSetStrokes, getTrainingAthlete, getTrainingDerived, getTrainingSets, getWorkSets, trainingHeartRateIsSubjects, type TrainingAudience } from "../trainings/training-reads";
import { positionsAlong, type ExportModel, type ExportSelection, type ExportViewer } from "./export-source";

/**
 * A training as an export source (docs/exports.md "Trainings"): the same
 * projected model the format builders lay out, over the training's whole
 * span (first work start to last work end). Its `splits` are the laps of the
 * practice — one per set, work and rest — so FIT and TCX carry a lap per
 * set, and the PDF and XLSX a row per set; `training.sets` holds each work
 * set's own summary and equal-distance splits (ExportRequest `splits`).
 * A training has one paddler: `athlete` must be seat 1.
 */
const ALL_SERIES_FIELDS: SeriesField[] = ["distance", "speed", "rate", "stroke_distance"];

export async function loadTrainingModel(db: Db, trainingId: number, viewer: ExportViewer, selection: ExportSelection): Promise<ExportModel> {
  const audience: TrainingAudience = { subjectId: viewer.userId, surface: viewer.application?.surface ?? "data", applicationId: viewer.application?.id ?? 0 };
  const mode = audience.surface === "partner" ? "privacy-safe" : selection.mode;
  const row = await getReadableTraining(db, audience, trainingId);
  if (selection.athlete !== 1) throw notFound("Athlete seat");
  const derived = row.status === "ready" ? await getTrainingDerived(db, row.id) : null;
  if (!derived || !row.startAt || !row.date || !row.timeOfDay) throw new AppError("conflict", "The training has no sets yet: it is not processed");
  const [athlete, sets, works, [owner]] = await Promise.all([
    getTrainingAthlete(db, audience, row),
    getTrainingSets(db, row.id),
    getWorkSets(db, row.id),
    db.select({ name: users.name }).from(users).where(eq(users.id, row.ownerUserId)),
  ]);
  const isSubject = athlete ? athlete.isSubject : row.ownerUserId === audience.subjectId;
  // The paddler the subject may see; with no athlete named, the owner's own practice under their name.
  const shown = athlete?.athlete && (mode === "full" || athlete.isSubject) ? athlete.athlete : !athlete && isSubject ? { id: 0, name: owner?.name ?? "" } : null;
  if (!shown) throw notFound("Athlete seat");
  const heartRateIncluded = selection.healthAllowed && trainingHeartRateIsSubjects(row, athlete, viewer.userId);
  const origin = derived.effortStartS;

  // Strokes of every work set, on the training's clock and distance (from the first work start).
  const distanceAt = (t: number) => interpolate(derived.track.t, derived.track.distance, t);
  const strokeRows = (await Promise.all(works.map((w) => getSetStrokes(db, w.id)))).flatMap((rows, k) => {
    const offset = distanceAt(works[k].startS - origin);
    return rows.map((s) => ({ ...s, distanceM: s.distanceM === null ? null : s.distanceM + offset }));
  });
  strokeRows.forEach((s, i) => (s.index = i));
  const processingStrokes = strokeRows.map(toProcessingStroke);
  const seriesData = buildSeries(derived.track, processingStrokes, { fields: heartRateIncluded ? [...ALL_SERIES_FIELDS, "heart_rate"] : ALL_SERIES_FIELDS, maxPoints: MAX_SERIES_POINTS, startS: origin });
  const route = downsampleRoute(derived.track.route, MAX_SERIES_POINTS);
  const series = serializeSeries(row.id, seriesData, route.length ? route : null);

  // One lap per set, cumulative from the first work start.
  let distance = 0;
  const laps: Split[] = sets.map((set) => {
    distance += set.distanceM;
    const duration = set.durationMs / 1000;
    const work = works.find((w) => w.id === set.id);
    return { distance_m: distance, time_s: round(set.endS - origin, 3), split_time_s: round(duration, 3), speed: round(set.distanceM / Math.max(1e-6, duration), 3), rate: work ? work.summary.avg_rate : null };
  });
  const setParts = await Promise.all(
    works.map(async (w) => ({
      set: serializeTrainingSet(w, origin),
      summary: serializeSetSummary(w, heartRateIncluded),
      splits: serializeSetSplits(row.id, w.id, computeSplits(w.track, (await getSetStrokes(db, w.id)).map(toProcessingStroke), selection.splits)).splits,
    })),
  );
  const lactate = selection.healthAllowed && isSubject ? (await listShareableLactate(db, viewer.userId, { trainingId: row.id }, { after: null, take: 1000 })).map(serializeLactate) : null;
  const seat = { seat: 1, athlete: shown, is_subject: isSubject };

  return {
    source: { kind: "training", trainingId: row.id },
    mode,
    session: {
      id: row.id,
      distance_m: row.distanceM ?? 0,
      duration_ms: row.durationMs ?? 0,
      date: row.date,
      time_of_day: row.timeOfDay,
      start_at: row.startAt.toISOString(),
      target: { distance_m: null, duration_ms: null },
      boat_class: { id: row.boatClassId, type: row.boatClass, crew_size: row.crewSize },
      track: { id: row.trackId ?? 0, name: row.trackName ?? "" },
      category: { id: 0, name: "Training" },
      pace: { id: 0, name: "" },
      competition: "",
      description: row.title,
      important: false,
      status: "processed",
      created_at: row.createdAt.toISOString(),
      subject_seat: isSubject ? 1 : null,
      crew: [seat],
      weather: null,
      equipment: null,
      health: heartRateIncluded ? { avg_heart_rate_bpm: derived.summary.avg_heart_rate, max_heart_rate_bpm: derived.summary.max_heart_rate } : null,
    },
    athlete: seat,
    summary: serializeSessionSummary(row.id, derived.summary, derived.dataQuality, heartRateIncluded),
    splits: serializeSplits(row.id, laps),
    strokes: strokeRows.map((s) => serializeStroke(s, origin)),
    series,
    positions: positionsAlong(series.distance_m ?? [], route),
    lactate,
    heartRateIncluded,
    startUnixMs: row.startAt.getTime(),
    utcOffsetMin: row.utcOffsetMin ?? 0,
    training: { id: row.id, title: row.title, sets: setParts },
  };
}

function interpolate(xs: number[], ys: number[], x: number): number {
  if (!xs.length) return 0;
  if (x <= xs[0]) return ys[0];
  for (let i = 1; i < xs.length; i++) {
    if (xs[i] >= x) {
      const span = xs[i] - xs[i - 1];
      return ys[i - 1] + (span > 0 ? ((x - xs[i - 1]) / span) * (ys[i] - ys[i - 1]) : 0);
    }
  }
  return ys[ys.length - 1];
}
