import { metricSeries, type AnalysisInput, type AnalysisStroke } from "./input";
import { equalSegments, insufficient, ok, tolerancePct, type AnalysisOptions, type AnalysisOutcome } from "./segments";
import { changePct, mean, round } from "./stats";

interface Window {
  from_m: number | null;
  to_m: number | null;
  speed_m_s: number | null;
  rate_spm: number | null;
  stroke_distance_m: number | null;
}

export interface FinishResult {
  /** The last of `segments` equal segments. */
  finish: Window;
  /** The segments between the start and the finish (all before the finish when segments = 2). */
  body: Window;
  speed_change_pct: number | null;
  rate_change_pct: number | null;
  stroke_distance_change_pct: number | null;
  /** kick (faster finish), hold, or fade (slower finish); tolerance 3 % / sensitivity. */
  verdict: "kick" | "hold" | "fade";
  tolerance_pct: number;
}

function window(strokes: AnalysisStroke[], from: number, to: number, distance: number, seconds: number): Window {
  const avg = (values: number[]) => (values.length ? round(mean(values), 3) : null);
  return {
    from_m: round(from, 1),
    to_m: round(to, 1),
    speed_m_s: round(distance / seconds, 3),
    rate_spm: avg(metricSeries(strokes, "rate").values),
    stroke_distance_m: avg(metricSeries(strokes, "stroke_distance").values),
  };
}

/**
 * The finish against the body of the effort (docs/analytics.md "finish"):
 * speed, rate and distance per stroke of the last segment compared with the
 * segments between the start and it, and a verdict.
 */
export function finish(input: AnalysisInput, options: AnalysisOptions): AnalysisOutcome<FinishResult> {
  const segments = equalSegments(input, options.segments);
  const last = segments[segments.length - 1];
  const bodySegments = segments.length >= 3 ? segments.slice(1, -1) : segments.slice(0, -1);
  if (last.strokes.length < 3 || bodySegments.every((s) => s.strokes.length === 0))
    return insufficient("needs strokes in the finish and in the body of the effort");
  const bodyFrom = bodySegments[0];
  const bodyTo = bodySegments[bodySegments.length - 1];
  const finishWindow = window(last.strokes, last.from_m, last.to_m, last.to_m - last.from_m, last.end_s - last.start_s);
  const body = window(
    bodySegments.flatMap((s) => s.strokes),
    bodyFrom.from_m,
    bodyTo.to_m,
    bodyTo.to_m - bodyFrom.from_m,
    bodyTo.end_s - bodyFrom.start_s,
  );
  const change = (a: number | null, b: number | null) => (a === null || b === null ? null : round(changePct(a, b), 2));
  const speedChange = change(body.speed_m_s, finishWindow.speed_m_s);
  const tolerance = tolerancePct(1.5, options.sensitivity);
  return ok({
    finish: finishWindow,
    body,
    speed_change_pct: speedChange,
    rate_change_pct: change(body.rate_spm, finishWindow.rate_spm),
    stroke_distance_change_pct: change(body.stroke_distance_m, finishWindow.stroke_distance_m),
    verdict: speedChange === null || Math.abs(speedChange) <= tolerance ? "hold" : speedChange > 0 ? "kick" : "fade",
    tolerance_pct: round(tolerance, 3) ?? tolerance,
  });
}
