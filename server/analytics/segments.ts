import { timeAtDistance } from "../svc/process/track";
import { effortDistanceM, type AnalysisInput, type AnalysisStroke } from "./input";
import { median } from "./stats";

/** Options every analysis takes (data-api.md limits: segments 2–20, sensitivity 0.5–10). */
export interface AnalysisOptions {
  segments: number;
  sensitivity: number;
  /** Null: the analysis' own default metrics. */
  metrics: import("./input").StrokeMetric[] | null;
}
export const DEFAULT_OPTIONS: AnalysisOptions = { segments: 4, sensitivity: 2, metrics: null };

export type AnalysisOutcome<T> = { status: "ok"; result: T } | { status: "insufficient_data"; reason: string };
export const insufficient = (reason: string): AnalysisOutcome<never> => ({ status: "insufficient_data", reason });
export const ok = <T>(result: T): AnalysisOutcome<T> => ({ status: "ok", result });

export interface Segment {
  /** 1-based, in race order. */
  index: number;
  from_m: number;
  to_m: number;
  start_s: number;
  end_s: number;
  strokes: AnalysisStroke[];
}

/** The effort cut into `count` equal-distance segments, each with the strokes caught in it. */
export function equalSegments(input: AnalysisInput, count: number): Segment[] {
  const total = effortDistanceM(input);
  const end = input.track.t[input.track.t.length - 1] ?? 0;
  const segments: Segment[] = [];
  let startS = 0;
  for (let k = 1; k <= count; k++) {
    const from = (total * (k - 1)) / count;
    const to = (total * k) / count;
    const endS = k === count ? end : timeAtDistance(input.track, to);
    const strokes = input.strokes.filter((s) => s.distance_m >= from && (k === count ? s.distance_m <= to : s.distance_m < to));
    segments.push({ index: k, from_m: from, to_m: to, start_s: startS, end_s: endS, strokes });
    startS = endS;
  }
  return segments;
}

/**
 * Strokes at cruising speed: from the first stroke that reaches 90 % of the
 * cruise speed (the median speed of the effort's second half) to the
 * second-last (the last stroke's length is extrapolated). The standing start's
 * accelerating strokes would otherwise dominate every spread and trend.
 */
export function cruiseStrokes(input: AnalysisInput): AnalysisStroke[] {
  const strokes = input.strokes;
  if (strokes.length < 4) return [];
  const cruise = cruiseSpeed(input);
  const first = strokes.findIndex((s) => s.speed_m_s >= 0.9 * cruise);
  return first < 0 ? [] : strokes.slice(first, strokes.length - 1);
}

export function cruiseSpeed(input: AnalysisInput): number {
  const speeds = input.strokes.map((s) => s.speed_m_s);
  return median(speeds.slice(Math.floor(speeds.length / 2)));
}

/** Tolerance in percent that `sensitivity` scales: sensitivity 2 (the default) gives `atDefault`. */
export const tolerancePct = (atDefault: number, sensitivity: number) => (atDefault * 2) / sensitivity;
