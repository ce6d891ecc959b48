import type { EffortTrack, SessionSummary } from "../svc/process/types";
import { formatPace500, formatSpeed } from "./figure-format";

/**
 * The figures of one effort, each computed once (docs/processing.md
 * "Figures"): every surface — the log, the session, share and compare pages,
 * the course and chart sentences, the PDFs and the other exports — reads
 * these, never its own arithmetic on strokes, series or downsampled points.
 *
 * The stored summary (the processing core's) is the source; what it stores
 * rounded (the average speed, to 3 decimals) is recomputed here from the
 * unrounded facts, so a pace formatted from it cannot differ by a tenth from
 * one formatted elsewhere.
 */
export interface SessionFigures {
  distanceM: number;
  durationMs: number;
  /** Distance ÷ time, unrounded. */
  avgSpeedMS: number;
  /** Seconds per 500 m at the average speed, unrounded. */
  avgPace500S: number | null;
  /** The highest 10 Hz smoothed speed of the effort (the start's surge included). */
  topSpeedMS: number | null;
  strokeCount: number;
  avgRateSpm: number | null;
  maxRateSpm: number | null;
  avgStrokeDistanceM: number | null;
}

/** Distance ÷ time in m/s, the one average speed (0 for a zero duration). */
export function averageSpeedMS(distanceM: number, durationMs: number): number {
  return durationMs > 0 ? distanceM / (durationMs / 1000) : 0;
}

/** Seconds per 500 m at a speed; null when not moving. */
export function pace500S(speedMS: number | null | undefined): number | null {
  return typeof speedMS === "number" && Number.isFinite(speedMS) && speedMS > 0 ? 500 / speedMS : null;
}

/** The APIs' `pace_500m_s`: seconds per 500 m to the tenth, from the unrounded speed (what the pages show as m:ss.t). */
export function pace500Tenths(speedMS: number): number | null {
  const pace = pace500S(speedMS);
  return pace === null ? null : Math.round(pace * 10) / 10;
}

type SummaryFigures = Pick<
  SessionSummary,
  "distance_m" | "duration_ms" | "max_speed" | "stroke_count" | "avg_rate" | "max_rate" | "avg_stroke_distance"
>;

export function sessionFigures(summary: SummaryFigures): SessionFigures {
  const avgSpeedMS = averageSpeedMS(summary.distance_m, summary.duration_ms);
  return {
    distanceM: summary.distance_m,
    durationMs: summary.duration_ms,
    avgSpeedMS,
    avgPace500S: pace500S(avgSpeedMS),
    topSpeedMS: summary.stroke_count > 0 || summary.max_speed > 0 ? summary.max_speed : null,
    strokeCount: summary.stroke_count,
    avgRateSpm: summary.avg_rate,
    maxRateSpm: summary.max_rate,
    avgStrokeDistanceM: summary.avg_stroke_distance,
  };
}

/** The standing start ends where the smoothed speed first reaches this share of the effort's average speed. */
export const START_SETTLED_FRACTION = 0.9;

/**
 * The range of speed (and pace) quoted in words: the top speed of the whole
 * effort, and the slowest speed after the standing start (a boat from
 * standstill is "slow" for its first seconds, which says nothing about the
 * paddling). The stored track ends at the finish, so the drift after it is
 * never in the range.
 */
export interface SpeedRange {
  topSpeedMS: number;
  /** Metres from the start where the top speed was reached. */
  topAtM: number;
  slowestMS: number;
  slowestAtM: number;
  /** Seconds of the standing start left out of the slowest speed. */
  startExcludedS: number;
}

export function speedRange(
  track: Pick<EffortTrack, "t" | "distance" | "speed">,
  figures: Pick<SessionFigures, "avgSpeedMS" | "topSpeedMS">,
): SpeedRange | null {
  const n = track.speed.length;
  if (!n || figures.topSpeedMS === null) return null;
  const settled = track.speed.findIndex((v) => v >= START_SETTLED_FRACTION * figures.avgSpeedMS);
  const from = settled < 0 ? 0 : settled;
  let top = 0;
  let slowest = from;
  for (let i = 0; i < n; i++) if (track.speed[i] > track.speed[top]) top = i;
  for (let i = from; i < n; i++) if (track.speed[i] < track.speed[slowest]) slowest = i;
  return {
    topSpeedMS: figures.topSpeedMS,
    topAtM: track.distance[top] ?? 0,
    slowestMS: track.speed[slowest],
    slowestAtM: track.distance[slowest] ?? 0,
    startExcludedS: track.t[from] ?? 0,
  };
}

/** The range in words, pace first: what the course and the speed chart say. */
export function speedRangeSentence(range: SpeedRange): string {
  const start =
    range.startExcludedS > 0 ? `after the standing start's first ${range.startExcludedS.toFixed(1)} s` : "over the whole effort";
  return (
    `Top speed ${formatSpeed(range.topSpeedMS)} m/s (${formatPace500(range.topSpeedMS)} /500 m) at ${Math.round(range.topAtM)} m; ` +
    `slowest ${start}: ${formatSpeed(range.slowestMS)} m/s (${formatPace500(range.slowestMS)} /500 m) at ${Math.round(range.slowestAtM)} m.`
  );
}
