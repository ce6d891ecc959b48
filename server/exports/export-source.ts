import type { Db } from "../db/client";
import { finalTimeUncertainty } from "../svc/process/uncertainty";
import { AppError, notFound } from "../errors";
import { listShareableLactate } from "../health/shareable-health";
import { serializeLactate } from "../records/records-health-wire";
import {
  serializeCrewSeat,
  serializeSeries,
  serializeSessionDetail,
  serializeSessionSummary,
  splitItems,
  serializeStroke,
} from "../sessions/sessions-wire";
import { toProcessingStroke } from "../results/result-analysis";
import {
  getSessionStrokes,
  downsampleRoute,
  getCrewSeenBy,
  getReadableSession,
  getSessionAnalysis,
  getSessionWeather,
  heartRateIsSubjects,
  type CrewSeat,
} from "../sessions/read-session";
import type { SessionAudience } from "../sessions/session-boundary";
import { buildSeries, computeSplits, MAX_SERIES_POINTS, type SeriesField } from "../svc/process/track";
import { positionsAlong, withoutSessionId } from "./export-parts";
import type { ExportModel, ExportSelection, ExportSource, ExportViewer } from "./export-model";
import { loadTrainingModel } from "./training-export-source";

export type {
  EffortSeries,
  EffortSummary,
  ExportFacts,
  ExportLap,
  ExportModel,
  ExportSelection,
  ExportSource,
  ExportStroke,
  ExportViewer,
  TrainingExportPart,
} from "./export-model";

const STROKE_SEAT = 1;
const ALL_SERIES_FIELDS: SeriesField[] = ["distance", "speed", "rate", "stroke_distance"];

export async function loadExportModel(
  db: Db,
  source: ExportSource,
  viewer: ExportViewer,
  selection: ExportSelection,
): Promise<ExportModel> {
  switch (source.kind) {
    case "session":
      return loadSessionModel(db, source, viewer, selection);
    case "training":
      return loadTrainingModel(db, source.trainingId, viewer, selection);
  }
}

async function loadSessionModel(
  db: Db,
  source: Extract<ExportSource, { kind: "session" }>,
  viewer: ExportViewer,
  selection: ExportSelection,
): Promise<ExportModel> {
  const audience: SessionAudience = {
    subjectId: viewer.userId,
    surface: viewer.application?.surface ?? "data",
    applicationId: viewer.application?.id ?? 0,
  };
  // The partner surface is always privacy-safe, whatever the caller asked.
  const mode = audience.surface === "partner" ? "privacy-safe" : selection.mode;
  const row = await getReadableSession(db, audience, source.sessionId);
  const [crewSeen, weather, analysis, strokeRows] = await Promise.all([
    getCrewSeenBy(db, audience, row.id),
    getSessionWeather(db, row.id),
    getSessionAnalysis(db, row.id),
    getSessionStrokes(db, row.id),
  ]);
  const crew: CrewSeat[] =
    mode === "privacy-safe" ? crewSeen.map((seat) => (seat.isSubject ? seat : { ...seat, athlete: null })) : crewSeen;
  const chosen = crew.find((seat) => seat.seat === selection.athlete);
  // Which seats may be exported at all: those the person could export on the web (the data
  // surface's view). Full mode names the seat's athlete; privacy-safe mode exports the same
  // seats with every identity but the person's own removed (docs/exports.md "Privacy-safe mode").
  const exportable =
    mode === "privacy-safe" && audience.surface !== "data" ? await getCrewSeenBy(db, { ...audience, surface: "data" }, row.id) : crewSeen;
  // A seat the person may not see is not found, never an anonymous file of it.
  if (!chosen || !exportable.find((seat) => seat.seat === chosen.seat)?.athlete) throw notFound("Athlete seat");
  if (!analysis) throw new AppError("conflict", "The session has no processed data: its processing failed");

  const heartRateIncluded = selection.healthAllowed && selection.athlete === STROKE_SEAT && heartRateIsSubjects(crewSeen, viewer.userId);
  const lactateIncluded = selection.healthAllowed && chosen.isSubject;
  const processingStrokes = strokeRows.map(toProcessingStroke);
  const seriesData = buildSeries(analysis.track, processingStrokes, {
    fields: heartRateIncluded ? [...ALL_SERIES_FIELDS, "heart_rate"] : ALL_SERIES_FIELDS,
    maxPoints: MAX_SERIES_POINTS,
    startS: analysis.effortStartS,
  });
  const route = downsampleRoute(analysis.track.route, MAX_SERIES_POINTS);
  const series = serializeSeries(row.id, seriesData, route.length ? route : null);
  const heartRate = heartRateIncluded ? { avg: analysis.summary.avg_heart_rate, max: analysis.summary.max_heart_rate } : null;
  const lactate = lactateIncluded
    ? (await listShareableLactate(db, viewer.userId, { sessionId: row.id }, { after: null, take: 1000 })).map(serializeLactate)
    : null;

  const session = serializeSessionDetail({ row, crew, weather, equipment: null, heartRate });
  return {
    source,
    mode,
    session,
    facts: {
      kind: "session",
      id: row.id,
      title: null,
      notes: [session.competition, session.description].filter(Boolean),
      date: session.date,
      timeOfDay: session.time_of_day,
      boatClass: session.boat_class.type,
      track: session.track.name,
      crew: session.crew,
      distanceM: session.distance_m,
      durationMs: session.duration_ms,
    },
    athlete: serializeCrewSeat(chosen),
    summary: withoutSessionId(
      serializeSessionSummary(row.id, analysis.summary, analysis.dataQuality, heartRateIncluded, finalTimeUncertainty(analysis.track)),
    ),
    splits: splitItems(computeSplits(analysis.track, processingStrokes, selection.splits)),
    strokes: strokeRows.map((stroke) => serializeStroke(stroke, analysis.effortStartS)),
    series: withoutSessionId(series),
    positions: positionsAlong(series.distance_m ?? [], route),
    lactate,
    heartRateIncluded,
    startUnixMs: row.startAt.getTime(),
    utcOffsetMin: row.utcOffsetMin,
  };
}
