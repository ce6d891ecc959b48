import { isKayak, metricValue, type AnalysisInput, type AnalysisStroke, type StrokeMetric } from "./input";
import { cruiseStrokes, equalSegments, insufficient, ok, tolerancePct, type AnalysisOptions, type AnalysisOutcome } from "./segments";
import { mean, round } from "./stats";

type SideMetric = Extract<StrokeMetric, "stroke_distance" | "stroke_time" | "peak_accel">;
type SideFigures = { strokes: number } & Record<SideMetric, number | null>;
type Asymmetry = Record<SideMetric, number | null>;

export interface SideBalanceResult {
  left: SideFigures;
  right: SideFigures;
  /** (left − right) / mean of both, percent: positive means the left blade gives more. */
  asymmetry_pct: Asymmetry;
  /** A side is named when its asymmetry passes the tolerance: 6 % / sensitivity (3 % at the default). */
  tolerance_pct: number;
  /** The side whose drive is stronger (peak acceleration), or null when balanced. */
  stronger_side: "left" | "right" | null;
  /** The side whose strokes carry the boat further, or null when balanced. */
  longer_side: "left" | "right" | null;
  segments: { index: number; from_m: number | null; to_m: number | null; asymmetry_pct: Asymmetry }[];
}

function sideFigures(strokes: AnalysisStroke[], side: "left" | "right"): SideFigures {
  const own = strokes.filter((s) => s.side === side);
  const avg = (metric: SideMetric) => round(mean(own.map((s) => metricValue(s, metric)).filter((v): v is number => v !== null)), 3);
  return { strokes: own.length, stroke_distance: avg("stroke_distance"), stroke_time: avg("stroke_time"), peak_accel: avg("peak_accel") };
}

function asymmetry(left: SideFigures, right: SideFigures): Asymmetry {
  const pct = (l: number | null, r: number | null) =>
    l === null || r === null || l + r === 0 ? null : round((200 * (l - r)) / (l + r), 2);
  return {
    stroke_distance: pct(left.stroke_distance, right.stroke_distance),
    stroke_time: pct(left.stroke_time, right.stroke_time),
    peak_accel: pct(left.peak_accel, right.peak_accel),
  };
}

/**
 * Left against right blade in a kayak (docs/analytics.md "side-balance"):
 * distance per stroke, stroke time and drive peak per side over the cruise
 * strokes, overall and per segment. A canoe paddles on one side: not applicable.
 */
export function sideBalance(input: AnalysisInput, options: AnalysisOptions): AnalysisOutcome<SideBalanceResult> {
  if (!isKayak(input)) return insufficient("side balance compares the two blades of a kayak; a canoe paddles on one side");
  const strokes = cruiseStrokes(input);
  const left = sideFigures(strokes, "left");
  const right = sideFigures(strokes, "right");
  if (left.strokes < 10 || right.strokes < 10) return insufficient("needs at least 10 cruise strokes on each side");
  const overall = asymmetry(left, right);
  const tolerance = tolerancePct(3, options.sensitivity);
  const named = (value: number | null) => (value === null || Math.abs(value) < tolerance ? null : value > 0 ? "left" : "right");
  const cruise = new Set(strokes);
  return ok({
    left,
    right,
    asymmetry_pct: overall,
    tolerance_pct: round(tolerance, 3) ?? tolerance,
    stronger_side: named(overall.peak_accel),
    longer_side: named(overall.stroke_distance),
    segments: equalSegments(input, options.segments).map((seg) => {
      const own = seg.strokes.filter((s) => cruise.has(s));
      return {
        index: seg.index,
        from_m: round(seg.from_m, 1),
        to_m: round(seg.to_m, 1),
        asymmetry_pct: asymmetry(sideFigures(own, "left"), sideFigures(own, "right")),
      };
    }),
  });
}
