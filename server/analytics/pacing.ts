import type { AnalysisInput } from "./input";
import { equalSegments, insufficient, ok, tolerancePct, type AnalysisOptions, type AnalysisOutcome } from "./segments";
import { changePct, mean, round } from "./stats";

export interface PacingResult {
  segments: {
    index: number;
    from_m: number | null;
    to_m: number | null;
    time_s: number | null;
    speed_m_s: number | null;
    pace_500m_s: number | null;
    relative_speed_pct: number | null;
    rate_spm: number | null;
  }[];
  /** Mean speed of the second half against the first, percent (the first segment, the start, left out when there are 3 or more). */
  second_half_change_pct: number | null;
  /** even, positive (slower second half: a fade) or negative (faster second half); tolerance 3 % / sensitivity. */
  profile: "even" | "positive" | "negative";
  tolerance_pct: number;
  /** Drop from the fastest segment to the last, percent (0 when the last is the fastest). */
  fade_pct: number | null;
  fastest_segment: number;
  slowest_segment: number;
}

/**
 * How the effort was spread over its distance (docs/analytics.md "pacing"):
 * `segments` equal-distance segments with time, speed, pace per 500 m and
 * speed relative to the effort's mean; a split profile and the fade.
 */
export function pacing(input: AnalysisInput, options: AnalysisOptions): AnalysisOutcome<PacingResult> {
  const segments = equalSegments(input, options.segments);
  if (segments.some((s) => s.end_s - s.start_s <= 0) || segments[segments.length - 1].to_m < 20)
    return insufficient("the effort is too short for this many segments");
  const speeds = segments.map((s) => (s.to_m - s.from_m) / (s.end_s - s.start_s));
  const meanSpeed = segments[segments.length - 1].to_m / segments[segments.length - 1].end_s;
  const body = speeds.length >= 3 ? speeds.slice(1) : speeds;
  const half = Math.floor(body.length / 2);
  const firstHalf = mean(body.slice(0, half || 1));
  const secondHalf = mean(body.slice(body.length - (half || 1)));
  const change = changePct(firstHalf, secondHalf);
  const tolerance = tolerancePct(1.5, options.sensitivity);
  const fastest = speeds.indexOf(Math.max(...speeds));
  const slowest = speeds.indexOf(Math.min(...speeds));
  return ok({
    segments: segments.map((s, i) => ({
      index: s.index,
      from_m: round(s.from_m, 1),
      to_m: round(s.to_m, 1),
      time_s: round(s.end_s - s.start_s, 2),
      speed_m_s: round(speeds[i], 3),
      pace_500m_s: round(500 / speeds[i], 1),
      relative_speed_pct: round(changePct(meanSpeed, speeds[i]), 2),
      rate_spm: s.strokes.length ? round(mean(s.strokes.map((k) => k.rate_spm)), 1) : null,
    })),
    second_half_change_pct: round(change, 2),
    profile: change < -tolerance ? "positive" : change > tolerance ? "negative" : "even",
    tolerance_pct: round(tolerance, 3) ?? tolerance,
    fade_pct: round(Math.max(0, -changePct(speeds[fastest], speeds[speeds.length - 1])), 2),
    fastest_segment: fastest + 1,
    slowest_segment: slowest + 1,
  });
}
