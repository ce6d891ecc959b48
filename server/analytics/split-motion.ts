import type { AnalysisInput } from "./input";
import { equalSegments, insufficient, ok, type AnalysisOptions, type AnalysisOutcome } from "./segments";
import { cvPct, mean, round } from "./stats";

export interface SplitMotionResult {
  segments: {
    index: number;
    from_m: number | null;
    to_m: number | null;
    /** Mean of each stroke's largest pitch and roll, degrees. */
    pitch_deg: number | null;
    roll_deg: number | null;
    /** Mean surge swing per stroke (drive peak − check), m/s². */
    surge_range_m_s2: number | null;
    /** Speed fluctuation within the segment: CV of the stored speed samples, percent. */
    speed_fluctuation_pct: number | null;
  }[];
  /** The segment with the least and the most roll: where the boat sat steadiest and roughest. */
  steadiest_segment: number | null;
  roughest_segment: number | null;
}

/**
 * How the boat moved in each split (docs/analytics.md "split-motion"): pitch,
 * roll and surge swing per stroke, and the speed's fluctuation, per segment.
 */
export function splitMotion(input: AnalysisInput, options: AnalysisOptions): AnalysisOutcome<SplitMotionResult> {
  const segments = equalSegments(input, options.segments);
  if (segments.some((s) => s.strokes.length < 2)) return insufficient("every segment needs at least 2 strokes; try fewer segments");
  const { t, speed } = input.track;
  const rows = segments.map((s) => {
    const samples = speed.filter((_, i) => t[i] >= s.start_s && t[i] <= s.end_s);
    return {
      index: s.index,
      from_m: round(s.from_m, 1),
      to_m: round(s.to_m, 1),
      pitch_deg: round(mean(s.strokes.map((k) => k.pitch_deg)), 2),
      roll_deg: round(mean(s.strokes.map((k) => k.roll_deg)), 2),
      surge_range_m_s2: round(mean(s.strokes.map((k) => k.peak_accel_m_s2 - k.check_accel_m_s2)), 3),
      speed_fluctuation_pct: round(cvPct(samples), 2),
    };
  });
  const byRoll = rows.filter((r) => r.roll_deg !== null).sort((a, b) => a.roll_deg! - b.roll_deg!);
  return ok({ segments: rows, steadiest_segment: byRoll[0]?.index ?? null, roughest_segment: byRoll[byRoll.length - 1]?.index ?? null });
}
