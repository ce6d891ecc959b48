import type { z } from "zod";
import type { Db } from "../db/client";
import { AppError, notFound } from "../errors";
import { listShareableLactate } from "../health/shareable-health";
import { serializeLactate } from "../records/records-health-wire";
import { serializeSeries, serializeStroke, type ZCrewSeat } from "../sessions/sessions-wire";
import { serializeSetSplits, serializeTimeline, serializeTrainingDetail, serializeTrainingSummary } from "../trainings/trainings-wire";
import { toProcessingStroke } from "../results/result-analysis";
import { downsampleRoute } from "../sessions/read-session";
import { buildSeries, computeSplits, MAX_SERIES_POINTS, round, type SeriesField } from "../svc/process/track";
import {
  getReadableTraining,
  getSetStrokes,
  getTrainingAthlete,
  getTrainingDerived,
  getTrainingSets,
  getTrainingTemplate,
  getWorkSets,
  trainingHeartRateIsSubjects,
  type TrainingAudience,
  type TrainingSetRow,
} from "../trainings/training-reads";
import { positionsAlong, withoutSessionId } from "./export-parts";
import type { ExportLap, ExportModel, ExportSelection, ExportViewer } from "./export-model";

/**
 * A training as an export source (docs/exports.md "Trainings"): the same
 * projected model the format builders lay out, over the training's whole
 * span (first work start to last work end), in a training's own terms. Its
 * `splits` are the laps of the practice — one per set, work and rest — so
 * FIT and TCX carry a lap per set, and the PDF and XLSX a row per set.
 * Nothing here is dressed up as a session: no category, pace, target or
 * status it does not have, no id that is not the training's or its sets'
 * (issue 23 §4).
 */
const ALL_SERIES_FIELDS: SeriesField[] = ["distance", "speed", "rate", "stroke_distance"];

export async function loadTrainingModel(
  db: Db,
  trainingId: number,
  viewer: ExportViewer,
  selection: ExportSelection,
): Promise<ExportModel> {
  const audience: TrainingAudience = {
    subjectId: viewer.userId,
    surface: viewer.application?.surface ?? "data",
    applicationId: viewer.application?.id ?? 0,
  };
  const mode = audience.surface === "partner" ? "privacy-safe" : selection.mode;
  const row = await getReadableTraining(db, audience, trainingId);
  const derived = row.status === "ready" ? await getTrainingDerived(db, row.id) : null;
  if (!derived || !row.startAt || !row.date || !row.timeOfDay)
    throw new AppError("conflict", "The training has no sets yet: it is not processed");
  const [athlete, sets, works, template] = await Promise.all([
    getTrainingAthlete(db, audience, row),
    getTrainingSets(db, row.id),
    getWorkSets(db, row.id),
    getTrainingTemplate(db, row.id, row.ownerUserId),
  ]);
  const isSubject = athlete ? athlete.isSubject : row.ownerUserId === audience.subjectId;
  // The crew as the person may see it: a named paddler they may see (privacy-safe: only themselves), or no identity at all.
  const seen = athlete?.athlete && (mode === "full" || athlete.isSubject) ? athlete.athlete : null;
  const crew: z.output<typeof ZCrewSeat>[] = [{ seat: 1, athlete: seen, is_subject: isSubject }];
  const chosen = crew.find((seat) => seat.seat === selection.athlete);
  // A seat the person may see, or the person's own practice recorded without an athlete record; anything else is not found.
  if (!chosen || (chosen.athlete === null && !(isSubject && !athlete))) throw notFound("Athlete seat");
  const heartRateIncluded = selection.healthAllowed && trainingHeartRateIsSubjects(row, athlete, viewer.userId);
  const origin = derived.effortStartS;

  // Strokes of every work set, on the training's clock and distance (from the first work start).
  const distanceAt = (t: number) => interpolate(derived.track.t, derived.track.distance, t);
  const setStrokes = await Promise.all(works.map((w) => getSetStrokes(db, w.id)));
  const strokeRows = setStrokes.flatMap((rows, k) => {
    const offset = distanceAt(works[k].startS - origin);
    return rows.map((s) => ({ ...s, distanceM: s.distanceM === null ? null : s.distanceM + offset, setId: works[k].id }));
  });
  strokeRows.forEach((s, i) => (s.index = i));
  const processingStrokes = strokeRows.map(toProcessingStroke);
  const seriesData = buildSeries(derived.track, processingStrokes, {
    fields: heartRateIncluded ? [...ALL_SERIES_FIELDS, "heart_rate"] : ALL_SERIES_FIELDS,
    maxPoints: MAX_SERIES_POINTS,
    startS: origin,
  });
  const route = downsampleRoute(derived.track.route, MAX_SERIES_POINTS);
  const series = withoutSessionId(serializeSeries(row.id, seriesData, route.length ? route : null));

  const summary = serializeTrainingSummary(
    row.id,
    { summary: derived.summary, dataQuality: derived.dataQuality },
    works,
    heartRateIncluded,
  );
  const lactate =
    selection.healthAllowed && isSubject
      ? (await listShareableLactate(db, viewer.userId, { trainingId: row.id }, { after: null, take: 1000 })).map(serializeLactate)
      : null;
  const detail = serializeTrainingDetail({
    row,
    athlete: athlete && { ...athlete, athlete: seen },
    template,
    match: derived.templateMatch,
    sets,
  });

  return {
    source: { kind: "training", trainingId: row.id },
    mode,
    facts: {
      kind: "training",
      id: row.id,
      title: row.title,
      notes: [row.notes].filter(Boolean),
      date: row.date,
      timeOfDay: row.timeOfDay,
      boatClass: row.boatClass,
      track: row.trackName,
      crew,
      distanceM: row.distanceM ?? summary.total.distance_m,
      durationMs: row.durationMs ?? summary.total.duration_ms,
    },
    athlete: chosen,
    summary: summary.total,
    splits: laps(sets, works, origin),
    strokes: strokeRows.map((s) => ({ ...serializeStroke(s, origin), set_id: s.setId })),
    series,
    positions: positionsAlong(series.distance_m ?? [], route),
    lactate,
    heartRateIncluded,
    startUnixMs: row.startAt.getTime(),
    utcOffsetMin: row.utcOffsetMin ?? 0,
    training: {
      // The Data API's detail carries needs_review and each set's corrected (docs/trainings.md "Corrected sets").
      detail: { crew, ...detail },
      summary,
      timeline: serializeTimeline(row.id, sets, works),
      setSplits: await Promise.all(
        works.map(async (w, k) =>
          serializeSetSplits(row.id, w.id, computeSplits(w.track, setStrokes[k].map(toProcessingStroke), selection.splits)),
        ),
      ),
    },
  };
}

/** One lap per set, work and rest, cumulative from the first work start. */
function laps(sets: TrainingSetRow[], works: { id: number; summary: { avg_rate: number | null } }[], origin: number): ExportLap[] {
  let distance = 0;
  return sets.map((set, i) => {
    distance += set.distanceM;
    const duration = set.durationMs / 1000;
    const work = works.find((w) => w.id === set.id);
    return {
      index: i + 1,
      distance_m: distance,
      elapsed_s: round(set.endS - origin, 3),
      split_s: round(duration, 3),
      speed_m_s: round(set.distanceM / Math.max(1e-6, duration), 3),
      rate_spm: work ? work.summary.avg_rate : null,
      // A lap is a whole set, bounded by the set detection, not an equal-distance split: its
      // error is the detection's (docs/trainings.md), not the speed noise's; the set's own
      // splits (setSplits) carry their uncertainties.
      elapsed_uncertainty_s: null,
      split_uncertainty_s: null,
      set: { id: set.id, position: set.position, kind: set.kind },
    };
  });
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
