import { metricSeries, type AnalysisInput, type StrokeMetric } from "./input";
import { cruiseStrokes, equalSegments, insufficient, ok, type AnalysisOptions, type AnalysisOutcome } from "./segments";
import { changePct, linearFit, mean, round } from "./stats";

export interface ProgressionResult {
  metrics: {
    metric: StrokeMetric;
    /** Mean of the cruise strokes in each segment (null for a segment without any). */
    by_segment: (number | null)[];
    /** Least-squares slope of the metric against distance, per 100 m. */
    trend_per_100m: number | null;
    /** Last segment against the first segment with cruise strokes, percent. */
    change_pct: number | null;
  }[];
}

const DEFAULT_METRICS: StrokeMetric[] = ["speed", "rate", "stroke_distance"];

/**
 * How each stroke metric evolves through the effort (docs/analytics.md
 * "progression"): its mean per segment and its linear trend over distance,
 * after the start. Across sessions, see GET /analytics/progression instead.
 */
export function progression(input: AnalysisInput, options: AnalysisOptions): AnalysisOutcome<ProgressionResult> {
  const cruise = cruiseStrokes(input);
  if (cruise.length < 10) return insufficient("needs at least 10 strokes at cruising speed");
  const inCruise = new Set(cruise);
  const segments = equalSegments(input, options.segments).map((s) => s.strokes.filter((k) => inCruise.has(k)));
  return ok({
    metrics: (options.metrics ?? DEFAULT_METRICS).map((metric) => {
      const bySegment = segments.map((strokes) => {
        const { values } = metricSeries(strokes, metric);
        return values.length ? mean(values) : null;
      });
      const series = metricSeries(cruise, metric);
      const fit = linearFit(
        series.strokes.map((s) => s.distance_m),
        series.values,
      );
      const present = bySegment.filter((v): v is number => v !== null);
      return {
        metric,
        by_segment: bySegment.map((v) => (v === null ? null : round(v, 3))),
        trend_per_100m: fit ? round(fit.slope * 100, 4) : null,
        change_pct: present.length >= 2 ? round(changePct(present[0], present[present.length - 1]), 2) : null,
      };
    }),
  });
}
