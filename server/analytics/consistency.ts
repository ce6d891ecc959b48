import { metricSeries, type AnalysisInput, type StrokeMetric } from "./input";
import { cruiseStrokes, equalSegments, insufficient, ok, type AnalysisOptions, type AnalysisOutcome } from "./segments";
import { cvPct, mean, round } from "./stats";

export interface ConsistencyResult {
  strokes: number;
  /** Coefficient of variation (sd / mean, percent) per metric over the cruise strokes: lower is steadier. */
  cv_pct: { metric: StrokeMetric; overall: number | null; by_segment: (number | null)[] }[];
  /** Root mean square of successive stroke-time differences, ms: the stroke-to-stroke rhythm. */
  rhythm_rmssd_ms: number | null;
  /** 100 − 10 × the mean CV of the metrics, clipped to 0–100. */
  score: number | null;
}

const DEFAULT_METRICS: StrokeMetric[] = ["rate", "stroke_distance", "speed"];

/**
 * How steady the paddling was (docs/analytics.md "consistency"): the spread
 * of each metric stroke to stroke at cruising speed, overall and per segment,
 * the rhythm's successive differences, and one score.
 */
export function consistency(input: AnalysisInput, options: AnalysisOptions): AnalysisOutcome<ConsistencyResult> {
  const cruise = cruiseStrokes(input);
  if (cruise.length < 10) return insufficient("needs at least 10 strokes at cruising speed");
  const inCruise = new Set(cruise);
  const segments = equalSegments(input, options.segments).map((s) => s.strokes.filter((k) => inCruise.has(k)));
  const metrics = options.metrics ?? DEFAULT_METRICS;
  const overall = metrics.map((metric) => cvPct(metricSeries(cruise, metric).values));
  const times = cruise.filter((s) => s.rate_spm > 0).map((s) => 60_000 / s.rate_spm);
  const diffs = times.slice(1).map((t, i) => (t - times[i]) ** 2);
  const meanCv = mean(overall.filter(Number.isFinite));
  return ok({
    strokes: cruise.length,
    cv_pct: metrics.map((metric, i) => ({
      metric,
      overall: round(overall[i], 2),
      by_segment: segments.map((strokes) => round(cvPct(metricSeries(strokes, metric).values), 2)),
    })),
    rhythm_rmssd_ms: round(Math.sqrt(mean(diffs)), 1),
    score: round(Math.min(100, Math.max(0, 100 - 10 * meanCv)), 1),
  });
}
