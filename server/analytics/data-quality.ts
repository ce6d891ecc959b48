import type { AnalysisInput } from "./input";
import { ok, type AnalysisOutcome } from "./segments";
import { round } from "./stats";

export interface DataQualityResult {
  grade: "good" | "fair" | "poor";
  /** Why the grade is not "good", in words. */
  reasons: string[];
  imu_samples: number;
  imu_lost_pct: number | null;
  imu_gaps: number;
  longest_imu_gap_ms: number;
  gnss_fixes: number;
  gnss_missing_pct: number | null;
  effort_fix_gaps: number;
  effort_fix_gap_s: number;
  satellites_mean: number | null;
  hdop_mean: number | null;
  /** Share of the effort with heart-rate readings; null unless the viewer may see that heart rate. */
  heart_rate_coverage: number | null;
  warnings: string[];
}

/**
 * How far the figures can be trusted (docs/analytics.md "data-quality"): the
 * stored data-quality report graded by fixed limits. `segments`, `sensitivity`
 * and `metrics` do not apply.
 */
export function dataQuality(input: AnalysisInput): AnalysisOutcome<DataQualityResult> {
  const q = input.dataQuality;
  const lostPct = q.imu_samples > 0 ? (100 * q.imu_lost_samples) / (q.imu_samples + q.imu_lost_samples) : NaN;
  const missingPct = q.gnss_fixes + q.gnss_missing_fixes > 0 ? (100 * q.gnss_missing_fixes) / (q.gnss_fixes + q.gnss_missing_fixes) : NaN;
  const poor: string[] = [];
  const fair: string[] = [];
  const check = (value: number, fairAbove: number, poorAbove: number, what: string) => {
    if (!Number.isFinite(value)) return;
    if (value > poorAbove) poor.push(what);
    else if (value > fairAbove) fair.push(what);
  };
  check(q.effort_fix_gap_s, 1, 5, `GNSS lost for ${q.effort_fix_gap_s.toFixed(1)} s during the effort`);
  check(lostPct, 0.5, 2, `${lostPct.toFixed(1)} % of motion samples lost`);
  check(q.longest_imu_gap_ms, 200, 1000, `longest motion-sensor gap ${Math.round(q.longest_imu_gap_ms)} ms`);
  check(q.hdop_mean ?? NaN, 2, 5, `mean HDOP ${q.hdop_mean?.toFixed(1)}`);
  return ok({
    grade: poor.length ? "poor" : fair.length ? "fair" : "good",
    reasons: [...poor, ...fair],
    imu_samples: q.imu_samples,
    imu_lost_pct: round(lostPct, 2),
    imu_gaps: q.imu_gaps,
    longest_imu_gap_ms: q.longest_imu_gap_ms,
    gnss_fixes: q.gnss_fixes,
    gnss_missing_pct: round(missingPct, 2),
    effort_fix_gaps: q.effort_fix_gaps,
    effort_fix_gap_s: q.effort_fix_gap_s,
    satellites_mean: q.satellites_mean,
    hdop_mean: q.hdop_mean,
    heart_rate_coverage: input.heartRateAllowed ? q.heart_rate_coverage : null,
    warnings: [...q.warnings],
  });
}
