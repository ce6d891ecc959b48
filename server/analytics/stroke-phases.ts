import type { AnalysisInput, AnalysisStroke } from "./input";
import { cruiseStrokes, equalSegments, insufficient, ok, type AnalysisOptions, type AnalysisOutcome } from "./segments";
import { mean, round } from "./stats";

interface PhaseFigures {
  strokes: number;
  /** Mean peak surge acceleration of the drive, m/s². */
  drive_peak_m_s2: number | null;
  /** Mean deepest deceleration around the catch (the check), m/s², negative. */
  check_m_s2: number | null;
  /** |check| / drive peak: how much of the drive's push the recovery and catch give back. */
  check_to_drive_ratio: number | null;
  /** Mean stroke time (catch to catch), s. */
  stroke_time_s: number | null;
}

export interface StrokePhasesResult {
  overall: PhaseFigures;
  segments: ({ index: number; from_m: number | null; to_m: number | null } & PhaseFigures)[];
}

function figures(strokes: AnalysisStroke[]): PhaseFigures {
  const drive = mean(strokes.map((s) => s.peak_accel_m_s2));
  const check = mean(strokes.map((s) => s.check_accel_m_s2));
  return {
    strokes: strokes.length,
    drive_peak_m_s2: round(drive, 3),
    check_m_s2: round(check, 3),
    check_to_drive_ratio: round(Math.abs(check) / drive, 3),
    stroke_time_s: round(mean(strokes.filter((s) => s.rate_spm > 0).map((s) => 60 / s.rate_spm)), 3),
  };
}

/**
 * The two phases the unit resolves in every stroke (docs/analytics.md
 * "stroke-phases"): the drive, by its peak surge acceleration, and the check
 * around the catch, by its deepest deceleration; with their ratio, overall and
 * per segment. Stored strokes keep these extremes, not the whole curve, so
 * phase durations are not reported.
 */
export function strokePhases(input: AnalysisInput, options: AnalysisOptions): AnalysisOutcome<StrokePhasesResult> {
  const cruise = cruiseStrokes(input);
  if (cruise.length < 10) return insufficient("needs at least 10 strokes at cruising speed");
  const inCruise = new Set(cruise);
  return ok({
    overall: figures(cruise),
    segments: equalSegments(input, options.segments).map((s) => ({
      index: s.index,
      from_m: round(s.from_m, 1),
      to_m: round(s.to_m, 1),
      ...figures(s.strokes.filter((k) => inCruise.has(k))),
    })),
  });
}
