import type { DataQuality, EffortTrack } from "../svc/process/types";

/**
 * What every analysis reads: the stored, already processed effort — never the
 * raw file. Times are seconds from the effort start (the first catch).
 */
export interface AnalysisStroke {
  index: number;
  t_s: number;
  side: "left" | "right" | null;
  /** Metres from the start at the catch. */
  distance_m: number;
  speed_m_s: number;
  rate_spm: number;
  /** Metres from this catch to the next (the stroke's own side for kayaks). */
  stroke_distance_m: number | null;
  /** Peak surge acceleration of the drive and the deepest deceleration (the check), m/s². */
  peak_accel_m_s2: number;
  check_accel_m_s2: number;
  pitch_deg: number;
  roll_deg: number;
}

export interface AnalysisInput {
  strokes: AnalysisStroke[];
  track: EffortTrack;
  dataQuality: DataQuality;
  /** Whether heart-rate facts may appear (health:read and the heart rate is the viewer's own). */
  heartRateAllowed: boolean;
}

/** The per-stroke metrics an analysis can be asked about with `metrics`, and their units. */
export const STROKE_METRICS = {
  speed: "m/s",
  rate: "spm",
  stroke_distance: "m",
  stroke_time: "s",
  peak_accel: "m/s²",
  check_accel: "m/s²",
  pitch: "°",
  roll: "°",
} as const;
export type StrokeMetric = keyof typeof STROKE_METRICS;
export const STROKE_METRIC_NAMES = Object.keys(STROKE_METRICS) as [StrokeMetric, ...StrokeMetric[]];

export function metricValue(stroke: AnalysisStroke, metric: StrokeMetric): number | null {
  switch (metric) {
    case "speed":
      return stroke.speed_m_s;
    case "rate":
      return stroke.rate_spm;
    case "stroke_distance":
      return stroke.stroke_distance_m;
    case "stroke_time":
      return stroke.rate_spm > 0 ? 60 / stroke.rate_spm : null;
    case "peak_accel":
      return stroke.peak_accel_m_s2;
    case "check_accel":
      return stroke.check_accel_m_s2;
    case "pitch":
      return stroke.pitch_deg;
    case "roll":
      return stroke.roll_deg;
  }
}

/** The values of one metric over some strokes, with the strokes that have it. */
export function metricSeries(strokes: readonly AnalysisStroke[], metric: StrokeMetric): { strokes: AnalysisStroke[]; values: number[] } {
  const kept: AnalysisStroke[] = [];
  const values: number[] = [];
  for (const s of strokes) {
    const v = metricValue(s, metric);
    if (v !== null && Number.isFinite(v)) {
      kept.push(s);
      values.push(v);
    }
  }
  return { strokes: kept, values };
}

export const isKayak = (input: AnalysisInput) => input.strokes.some((s) => s.side !== null);
export const effortDistanceM = (input: AnalysisInput) => input.track.distance[input.track.distance.length - 1] ?? 0;
export const effortDurationS = (input: AnalysisInput) => input.track.t[input.track.t.length - 1] ?? 0;
