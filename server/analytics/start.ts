import { timeAtDistance } from "../svc/process/track";
import { effortDistanceM, type AnalysisInput } from "./input";
import { cruiseSpeed, insufficient, ok, type AnalysisOutcome } from "./segments";
import { round } from "./stats";

const MARKS_M = [10, 25, 50, 100] as const;

export interface StartResult {
  /** Seconds from the first catch to each mark; null when the effort is shorter. */
  time_to_m: { distance_m: number; time_s: number | null }[];
  /** Median speed of the effort's second half, m/s. */
  cruise_speed_m_s: number | null;
  /** First time the boat reached 90 % of cruise speed, and the strokes it took. */
  time_to_90pct_cruise_s: number | null;
  strokes_to_90pct_cruise: number | null;
  peak_speed_m_s: number | null;
  time_to_peak_speed_s: number | null;
  /** The first ten strokes as they came. */
  first_strokes: {
    stroke_index: number;
    time_s: number | null;
    rate_spm: number | null;
    speed_m_s: number | null;
    stroke_distance_m: number | null;
  }[];
  peak_rate_first_10_spm: number | null;
}

/**
 * The standing start (docs/analytics.md "start"): times to 10, 25, 50 and
 * 100 m from the first catch, how fast the boat reached cruising speed, and
 * the first ten strokes. `segments`, `sensitivity` and `metrics` do not apply.
 */
export function start(input: AnalysisInput): AnalysisOutcome<StartResult> {
  const { track, strokes } = input;
  if (strokes.length < 5 || effortDistanceM(input) < 25) return insufficient("needs at least 5 strokes and 25 m");
  const cruise = cruiseSpeed(input);
  const reach = track.speed.findIndex((v) => v >= 0.9 * cruise);
  const reachS = reach >= 0 ? track.t[reach] : NaN;
  let peak = 0;
  for (let i = 1; i < track.speed.length; i++) if (track.speed[i] > track.speed[peak]) peak = i;
  const firstTen = strokes.slice(0, 10);
  return ok({
    time_to_m: MARKS_M.map((d) => ({ distance_m: d, time_s: effortDistanceM(input) >= d ? round(timeAtDistance(track, d), 2) : null })),
    cruise_speed_m_s: round(cruise, 3),
    time_to_90pct_cruise_s: round(reachS, 2),
    strokes_to_90pct_cruise: Number.isFinite(reachS) ? strokes.filter((s) => s.t_s <= reachS).length : null,
    peak_speed_m_s: round(track.speed[peak], 3),
    time_to_peak_speed_s: round(track.t[peak], 2),
    first_strokes: firstTen.map((s) => ({
      stroke_index: s.index,
      time_s: round(s.t_s, 2),
      rate_spm: round(s.rate_spm, 1),
      speed_m_s: round(s.speed_m_s, 3),
      stroke_distance_m: s.stroke_distance_m === null ? null : round(s.stroke_distance_m, 2),
    })),
    peak_rate_first_10_spm: round(Math.max(...firstTen.map((s) => s.rate_spm)), 1),
  });
}
