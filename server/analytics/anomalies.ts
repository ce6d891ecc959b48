import { metricSeries, type AnalysisInput, type StrokeMetric } from "./input";
import { cruiseStrokes, insufficient, ok, type AnalysisOptions, type AnalysisOutcome } from "./segments";
import { mad, median, round } from "./stats";

export interface AnomaliesResult {
  /** A stroke is flagged when its robust z-score passes this: 7 / sensitivity (3.5 at the default 2). */
  threshold_z: number;
  metrics: StrokeMetric[];
  strokes_examined: number;
  /** Flagged strokes, strongest first, at most 100. */
  anomalies: {
    stroke_index: number;
    time_s: number | null;
    distance_m: number | null;
    metric: StrokeMetric;
    value: number | null;
    expected: number | null;
    z: number | null;
  }[];
  /** Flagged strokes per 100 examined. */
  per_100_strokes: number | null;
}

const DEFAULT_METRICS: StrokeMetric[] = ["speed", "rate", "stroke_distance"];
const WINDOW = 9;
const MAX_LISTED = 100;

/**
 * Strokes that break from their neighbours (docs/analytics.md "anomalies"):
 * for each metric, the residual of every cruise stroke from the median of the
 * 9 strokes around it, scaled to a robust z-score (0.6745 · residual / MAD of
 * the residuals). The local median follows the effort's own trend, so a fade
 * is not an anomaly; a missed catch or a crab is. The standing start's
 * accelerating strokes are left out: cut off at the edge of their window, each
 * sits far below the median of the faster strokes after it, and they used to
 * top the list. For the same reason the window narrows symmetrically at the
 * edges of the series.
 */
export function anomalies(input: AnalysisInput, options: AnalysisOptions): AnalysisOutcome<AnomaliesResult> {
  const strokes = pastAcceleration(cruiseStrokes(input));
  if (strokes.length < 20) return insufficient("needs at least 20 strokes at cruising speed");
  const metrics = options.metrics ?? DEFAULT_METRICS;
  const threshold = 7 / options.sensitivity;
  const found: AnomaliesResult["anomalies"] = [];
  const flagged = new Set<number>();
  for (const metric of metrics) {
    const series = metricSeries(strokes, metric);
    if (series.values.length < 20) continue;
    // Centred, and as narrow on both sides as at the series' edges: a one-sided window reads any trend there as a break.
    const last = series.values.length - 1;
    const expected = series.values.map((_, i) => {
      const half = Math.min(WINDOW >> 1, i, last - i);
      return median(series.values.slice(i - half, i + half + 1));
    });
    const residuals = series.values.map((v, i) => v - expected[i]);
    const spread = mad(residuals);
    if (!(spread > 0)) continue;
    residuals.forEach((r, i) => {
      const z = (0.6745 * r) / spread;
      if (Math.abs(z) <= threshold) return;
      const s = series.strokes[i];
      flagged.add(s.index);
      found.push({
        stroke_index: s.index,
        time_s: round(s.t_s, 2),
        distance_m: round(s.distance_m, 1),
        metric,
        value: round(series.values[i], 3),
        expected: round(expected[i], 3),
        z: round(z, 2),
      });
    });
  }
  found.sort((a, b) => Math.abs(b.z ?? 0) - Math.abs(a.z ?? 0));
  return ok({
    threshold_z: round(threshold, 3) ?? threshold,
    metrics,
    strokes_examined: strokes.length,
    anomalies: found.slice(0, MAX_LISTED),
    per_100_strokes: round((100 * flagged.size) / strokes.length, 2),
  });
}

/** From the first stroke no longer gaining speed: within 2 % of the median of the five after it. */
export function pastAcceleration<T extends { speed_m_s: number }>(strokes: T[]): T[] {
  const settled = strokes.findIndex(
    (s, i) => i + AHEAD < strokes.length && s.speed_m_s >= 0.98 * median(strokes.slice(i + 1, i + 1 + AHEAD).map((x) => x.speed_m_s)),
  );
  return settled <= 0 ? strokes : strokes.slice(settled);
}
const AHEAD = 5;
