import { metricValue, type AnalysisInput, type StrokeMetric } from "./input";
import { cruiseStrokes, insufficient, ok, type AnalysisOptions, type AnalysisOutcome } from "./segments";
import { linearFit, round } from "./stats";

export interface MetricRelationshipsResult {
  strokes: number;
  /** Every pair of the requested metrics: y ≈ intercept + slope · x over the cruise strokes. */
  pairs: {
    x: StrokeMetric;
    y: StrokeMetric;
    n: number;
    pearson_r: number | null;
    slope: number | null;
    intercept: number | null;
    strength: "none" | "weak" | "moderate" | "strong";
  }[];
}

const DEFAULT_METRICS: StrokeMetric[] = ["rate", "stroke_distance", "speed"];

/** |r| below 0.2 none, below 0.4 weak, below 0.7 moderate, else strong. */
export const correlationStrength = (r: number): MetricRelationshipsResult["pairs"][number]["strength"] => {
  const a = Math.abs(r);
  return a < 0.2 ? "none" : a < 0.4 ? "weak" : a < 0.7 ? "moderate" : "strong";
};

/**
 * How the stroke metrics move together (docs/analytics.md
 * "metric-relationships"): Pearson's r and a least-squares line for each pair
 * of metrics, stroke by stroke at cruising speed. The classic reading: does
 * more rate buy speed, or cost distance per stroke?
 */
export function metricRelationships(input: AnalysisInput, options: AnalysisOptions): AnalysisOutcome<MetricRelationshipsResult> {
  const strokes = cruiseStrokes(input);
  if (strokes.length < 10) return insufficient("needs at least 10 strokes at cruising speed");
  const metrics = options.metrics ?? DEFAULT_METRICS;
  if (metrics.length < 2) return insufficient("metrics must name at least two metrics to relate");
  const pairs: MetricRelationshipsResult["pairs"] = [];
  for (let i = 0; i < metrics.length; i++) {
    for (let j = i + 1; j < metrics.length; j++) {
      const xs: number[] = [];
      const ys: number[] = [];
      for (const s of strokes) {
        const x = metricValue(s, metrics[i]);
        const y = metricValue(s, metrics[j]);
        if (x !== null && y !== null && Number.isFinite(x) && Number.isFinite(y)) {
          xs.push(x);
          ys.push(y);
        }
      }
      const fit = linearFit(xs, ys);
      pairs.push({
        x: metrics[i],
        y: metrics[j],
        n: xs.length,
        pearson_r: fit ? round(fit.r, 3) : null,
        slope: fit ? round(fit.slope, 4) : null,
        intercept: fit ? round(fit.intercept, 4) : null,
        strength: fit ? correlationStrength(fit.r) : "none",
      });
    }
  }
  return ok({ strokes: strokes.length, pairs });
}
