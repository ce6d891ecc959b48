import type { z } from "zod";
import type { Surface } from "../auth/oauth/scopes";
import type { Db } from "../db/client";
import { finalTimeUncertainty } from "../svc/process/uncertainty";
import { AppError, notFound } from "../errors";
import { listShareableLactate } from "../health/shareable-health";
import { serializeLactate, type ZLactate } from "../contract/data-api/records-health";
import {
  serializeCrewSeat,
  serializeSeries,
  serializeSessionDetail,
  serializeSessionSummary,
  splitItems,
  serializeStroke,
  type ZCrewSeat,
  type ZSeries,
  type ZSessionDetail,
  type ZSessionSummary,
  type ZSplit,
  type ZStroke,
} from "../contract/data-api/sessions";
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
import type { ZSetSplits, ZTrainingSummary, ZTrainingTimeline } from "../contract/data-api/trainings";
import type { ZExportTraining } from "./builders/json";
import { positionsAlong, withoutSessionId } from "./export-parts";
import { loadTrainingModel } from "./training-export-source";

/**
 * What an export is built from, loaded once and already projected
 * (docs/exports.md "Builders"). Every field here comes out of the Data API's
 * allowlisted serializers, so a file can never hold more than the API would
 * show the same person; the format builders only lay it out.
 */

/** What is exported: a session, or a whole training (server/exports/training-export-source.ts). */
export type ExportSource = { kind: "session"; sessionId: number } | { kind: "training"; trainingId: number };

/**
 * Who asks. The web application reads as the Data API's `data` surface does
 * (so a web download and a data-surface API download are the same bytes);
 * an API job passes the calling application's surface.
 */
export interface ExportViewer {
  userId: number;
  application?: { id: number; surface: Surface };
}

export interface ExportSelection {
  /** Seat (1–4) whose identity and heart rate the file is about. */
  athlete: number;
  /** Equal-distance splits, 1–20. */
  splits: number;
  mode: "full" | "privacy-safe";
  /** The person may receive their own health data (web app: yes; API: the token holds health:read). */
  healthAllowed: boolean;
}

/** A summary of the whole effort; each JSON document adds the id of what it describes. */
export type EffortSummary = Omit<z.output<typeof ZSessionSummary>, "session_id">;
/** The bounded series of the whole effort, without an owning id. */
export type EffortSeries = Omit<z.output<typeof ZSeries>, "session_id">;
/** A stroke; a training's strokes also name their work set. */
export type ExportStroke = z.output<typeof ZStroke> & { set_id?: number };
/** A lap: a session's equal-distance split, or one set of a training (`set` then says which, and whether work or rest). */
export type ExportLap = z.output<typeof ZSplit> & { set?: { id: number; position: number; kind: "work" | "rest" } };

/**
 * What every format names about the source, in its own terms: a session or a
 * training, its id and date, what the person wrote. Absent is null, never a
 * placeholder (issue 23 §4): a training without a track has `track: null`.
 */
export interface ExportFacts {
  kind: "session" | "training";
  id: number;
  /** The training's title; null for a session (its words are in `notes`). */
  title: string | null;
  /** Free text: a session's competition and description, a training's notes; empty ones left out. */
  notes: string[];
  date: string;
  timeOfDay: string;
  boatClass: string;
  /** The track's name, null when none was chosen. */
  track: string | null;
  crew: z.output<typeof ZCrewSeat>[];
  distanceM: number;
  durationMs: number;
}

interface ExportModelCommon {
  mode: "full" | "privacy-safe";
  facts: ExportFacts;
  /**
   * The chosen seat as the crew list shows it. `athlete` is null only where
   * the projection has no identity to give (a person's own practice recorded
   * without an athlete record; a privacy-safe seat), never a made-up one.
   */
  athlete: z.output<typeof ZCrewSeat>;
  summary: EffortSummary;
  /** Session: equal-distance splits (ExportRequest `splits`). Training: one lap per set, work and rest. */
  splits: ExportLap[];
  strokes: ExportStroke[];
  /** At most 1000 evenly spaced points; `heart_rate_bpm` only when heart rate is included. */
  series: EffortSeries;
  /** [latitude, longitude] at each series point, from the downsampled route (null without fixes). */
  positions: ([number, number] | null)[];
  /** The person's own lactate readings of this effort (manual and own-device only); null when health is not included. */
  lactate: z.output<typeof ZLactate>[] | null;
  heartRateIncluded: boolean;
  /** Effort start, ms since the epoch: every timestamp in a file derives from it, never from the clock. */
  startUnixMs: number;
  /** Device clock offset from UTC, minutes (local times in reports). */
  utcOffsetMin: number;
}

export type ExportModel = ExportModelCommon &
  (
    | { source: Extract<ExportSource, { kind: "session" }>; session: z.output<typeof ZSessionDetail> }
    | { source: Extract<ExportSource, { kind: "training" }>; training: TrainingExportPart }
  );

/** A training's own members of the JSON document, already serialized (server/exports/builders/json.ts). */
export interface TrainingExportPart {
  detail: z.output<typeof ZExportTraining>;
  summary: z.output<typeof ZTrainingSummary>;
  timeline: z.output<typeof ZTrainingTimeline>;
  setSplits: z.output<typeof ZSetSplits>[];
}

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
