import type { DataQuality, ProcessedStroke } from "../svc/process/types";
import { SEGMENTS, segmentsOf, type AnalysisInput } from "./session-analyses";

/** Data quality, anomalies, metric relationships, progression and split motion (docs/analytics.md). */

const insufficient = (reason: string) => ({ status: "insufficient_data" as const, reason });
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[sorted.length >> 1] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};
const strokeDistance = (s: ProcessedStroke) => s.stroke_distance ?? s.left_stroke_distance ?? s.right_stroke_distance ?? 0;

export const STROKE_METRICS = {
  rate: (s: ProcessedStroke) => s.rate,
  speed: (s: ProcessedStroke) => s.filtered_speed,
  stroke_distance: strokeDistance,
  drive_peak: (s: ProcessedStroke) => s.max_accel_x,
} as const;
export type StrokeMetric = keyof typeof STROKE_METRICS;

function checkSegments(segments: number) {
  if (!Number.isInteger(segments) || segments < SEGMENTS.min || segments > SEGMENTS.max) throw new RangeError(`segments must be an integer from ${SEGMENTS.min} to ${SEGMENTS.max}`);
}
function checkMetrics(metrics: string[]): StrokeMetric[] {
  if (metrics.length === 0 || metrics.some((m) => !(m in STROKE_METRICS))) throw new RangeError(`metrics must be among ${Object.keys(STROKE_METRICS).join(", ")}`);
  return [...new Set(metrics)] as StrokeMetric[];
}

/**
 * Data quality of the recording behind the effort: shares of lost IMU
 * samples and missing GNSS fixes, GNSS outage time within the effort as a
 * share of it, satellites and HDOP, heart-rate coverage; `grade` good /
 * fair / poor by the thresholds in docs/analytics.md, and the issues found.
 */
export function dataQualityAnalysis(input: AnalysisInput & { data_quality: DataQuality }) {
  const q = input.data_quality;
  const imuLost = (q.imu_lost_samples / Math.max(1, q.imu_samples)) * 100;
  const gnssMissing = (q.gnss_missing_fixes / Math.max(1, q.gnss_fixes + q.gnss_missing_fixes)) * 100;
  const effortGap = (q.effort_fix_gap_s / Math.max(1e-9, input.effort.duration_ms / 1000)) * 100;
  const issues: string[] = [];
  if (imuLost >= 0.5) issues.push(`${imuLost.toFixed(1)} % of IMU samples lost`);
  if (q.longest_imu_gap_ms > 500) issues.push(`IMU gap of ${q.longest_imu_gap_ms} ms`);
  if (effortGap >= 2) issues.push(`GNSS lost for ${effortGap.toFixed(1)} % of the effort`);
  if (q.hdop_mean !== null && q.hdop_mean > 2) issues.push(`mean HDOP ${q.hdop_mean}`);
  if (q.satellites_min !== null && q.satellites_min < 6) issues.push(`as few as ${q.satellites_min} satellites`);
  if (q.gnss_fixes === 0) issues.push("no GNSS fixes");
  const good = imuLost < 0.5 && effortGap < 2 && (q.hdop_mean ?? 99) <= 2 && (q.satellites_min ?? 0) >= 6 && q.longest_imu_gap_ms <= 500;
  const fair = imuLost < 2 && effortGap < 10 && q.gnss_fixes > 0;
  return {
    status: "ok" as const,
    grade: good ? ("good" as const) : fair ? ("fair" as const) : ("poor" as const),
    imu_lost_pct: round(imuLost, 3),
    longest_imu_gap_ms: q.longest_imu_gap_ms,
    gnss_missing_pct: round(gnssMissing, 2),
    effort_gnss_gap_pct: round(effortGap, 2),
    satellites_min: q.satellites_min,
    hdop_mean: q.hdop_mean,
    heart_rate_coverage_pct: round(q.heart_rate_coverage * 100, 1),
    issues,
  };
}

/**
 * Anomalies: strokes whose rate or stroke distance departs from the median
 * of their neighbours (10 on each side) by more than k robust standard
 * deviations (1.4826 × the median absolute deviation of those neighbours,
 * at least 1 % of their median), with k = 11 − sensitivity (sensitivity
 * 0.5–10, default 5: k = 6; higher flags more).
 */
export function anomalies(input: AnalysisInput, options: { sensitivity?: number } = {}) {
  const sensitivity = options.sensitivity ?? 5;
  if (!(sensitivity >= 0.5 && sensitivity <= 10)) throw new RangeError("sensitivity must be from 0.5 to 10");
  const strokes = input.strokes;
  if (strokes.length < 21) return insufficient("fewer than 21 strokes");
  const k = 11 - sensitivity;
  const found: { stroke: number; catch_s: number; metric: "rate" | "stroke_distance"; value: number; expected: number; deviations: number }[] = [];
  for (const metric of ["rate", "stroke_distance"] as const) {
    const values = strokes.map(STROKE_METRICS[metric]);
    values.forEach((value, i) => {
      const neighbours = values.slice(Math.max(0, i - 10), i).concat(values.slice(i + 1, i + 11));
      const centre = median(neighbours);
      const spread = Math.max(1.4826 * median(neighbours.map((v) => Math.abs(v - centre))), 0.01 * Math.abs(centre));
      const deviations = Math.abs(value - centre) / spread;
      if (deviations > k) found.push({ stroke: i, catch_s: strokes[i].catch_s, metric, value: round(value, 3), expected: round(centre, 3), deviations: round(deviations, 1) });
    });
  }
  found.sort((a, b) => a.stroke - b.stroke);
  return { status: "ok" as const, threshold_deviations: k, anomalies: found };
}

/**
 * Metric relationships: Pearson correlation of each pair of the chosen
 * stroke metrics (default all four) over the strokes after the first
 * `segments`-th of the distance, and the least-squares slope of the second
 * on the first (units of the second per unit of the first).
 */
export function metricRelationships(input: AnalysisInput, options: { metrics?: string[]; segments?: number } = {}) {
  const metrics = checkMetrics(options.metrics ?? Object.keys(STROKE_METRICS));
  const count = options.segments ?? SEGMENTS.default;
  checkSegments(count);
  if (metrics.length < 2) throw new RangeError("metric relationships need at least two metrics");
  const length = input.track.distance[input.track.distance.length - 1];
  const strokes = input.strokes.filter((s) => s.distance >= length / count);
  if (strokes.length < 10) return insufficient("fewer than 10 strokes after the start phase");
  const pairs = [];
  for (let a = 0; a < metrics.length; a++) {
    for (let b = a + 1; b < metrics.length; b++) {
      const x = strokes.map(STROKE_METRICS[metrics[a]]);
      const y = strokes.map(STROKE_METRICS[metrics[b]]);
      const mx = mean(x);
      const my = mean(y);
      let sxy = 0, sxx = 0, syy = 0;
      for (let i = 0; i < x.length; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) ** 2;
        syy += (y[i] - my) ** 2;
      }
      pairs.push({ x: metrics[a], y: metrics[b], correlation: sxx > 0 && syy > 0 ? round(sxy / Math.sqrt(sxx * syy), 3) : null, slope: sxx > 0 ? round(sxy / sxx, 5) : null });
    }
  }
  return { status: "ok" as const, strokes: strokes.length, pairs };
}

/**
 * Progression within the effort: for each chosen metric, its mean per
 * segment (after the first, which holds the start) and the least-squares
 * trend across those segments, as % of the metric's mean per segment
 * (negative: declining).
 */
export function progression(input: AnalysisInput, options: { metrics?: string[]; segments?: number } = {}) {
  const metrics = checkMetrics(options.metrics ?? ["speed", "rate", "stroke_distance"]);
  const count = options.segments ?? SEGMENTS.default;
  checkSegments(count);
  if (count < 3) throw new RangeError("progression needs at least 3 segments");
  const length = input.track.distance[input.track.distance.length - 1];
  const bounds = Array.from({ length: count }, (_, k) => [(length * k) / count, (length * (k + 1)) / count]);
  const perSegment = bounds.map(([from, to], k) => input.strokes.filter((s) => s.distance >= from && (k === count - 1 ? s.distance <= to : s.distance < to)));
  if (perSegment.slice(1).some((s) => s.length < 3)) return insufficient("fewer than 3 strokes in a segment");
  const segments = segmentsOf(input, count);
  const trends = metrics.map((metric) => {
    const means = perSegment.slice(1).map((strokes, k) => (metric === "speed" ? segments[k + 1].speed : mean(strokes.map(STROKE_METRICS[metric]))));
    const xs = means.map((_, k) => k);
    const mx = mean(xs);
    const my = mean(means);
    const slope = xs.reduce((a, x, k) => a + (x - mx) * (means[k] - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
    return { metric, segment_means: means.map((v) => round(v, 3)), trend_pct_per_segment: round((slope / my) * 100, 2) };
  });
  return { status: "ok" as const, segments: count, trends };
}

/**
 * Split motion: per segment, the boat's motion within its strokes — mean
 * of each stroke's largest pitch and roll magnitudes (degrees) and of its
 * surge range (`max_accel_x − min_accel_x`, m/s²).
 */
export function splitMotion(input: AnalysisInput, options: { segments?: number } = {}) {
  const count = options.segments ?? SEGMENTS.default;
  checkSegments(count);
  const length = input.track.distance[input.track.distance.length - 1];
  const perSegment = Array.from({ length: count }, (_, k) => input.strokes.filter((s) => s.distance >= (length * k) / count && (k === count - 1 ? s.distance <= length : s.distance < (length * (k + 1)) / count)));
  if (perSegment.some((s) => s.length < 3)) return insufficient("fewer than 3 strokes in a segment");
  return {
    status: "ok" as const,
    segments: perSegment.map((strokes, k) => ({
      from_m: round((length * k) / count, 1),
      to_m: round((length * (k + 1)) / count, 1),
      pitch_deg: round(mean(strokes.map((s) => s.max_pitch)), 2),
      roll_deg: round(mean(strokes.map((s) => s.max_roll)), 2),
      surge_range: round(mean(strokes.map((s) => s.max_accel_x - s.min_accel_x)), 2),
    })),
  };
}
