import { z } from "zod";
import { ANALYSIS_NAMES, STROKE_METRIC_NAMES, type AnalysisName, type AnalysisOptions, type AnalysisOutcome } from "../../../analytics";
import type { AnomaliesResult } from "../../../analytics/anomalies";
import type { ConsistencyResult } from "../../../analytics/consistency";
import type { DataQualityResult } from "../../../analytics/data-quality";
import type { FinishResult } from "../../../analytics/finish";
import type { MetricRelationshipsResult } from "../../../analytics/metric-relationships";
import type { PacingResult } from "../../../analytics/pacing";
import type { ProgressionResult } from "../../../analytics/progression";
import type { SideBalanceResult } from "../../../analytics/side-balance";
import type { SplitMotionResult } from "../../../analytics/split-motion";
import type { StartResult } from "../../../analytics/start";
import type { StrokePhasesResult } from "../../../analytics/stroke-phases";

/**
 * The session analyses as they leave the API (docs/analytics.md): one schema
 * per analysis. Parsing through them is the allowlist: a member an analysis
 * grows later stays inside until it is named here.
 */
const num = z.number().nullable();
const int = z.number().int();
const metric = z.enum(STROKE_METRIC_NAMES);
const range = { from_m: num, to_m: num };

const ZDataQuality = z.object({
  grade: z.enum(["good", "fair", "poor"]),
  reasons: z.array(z.string()),
  imu_samples: int,
  imu_lost_pct: num,
  imu_gaps: int,
  longest_imu_gap_ms: z.number(),
  gnss_fixes: int,
  gnss_missing_pct: num,
  effort_fix_gaps: int,
  effort_fix_gap_s: z.number(),
  satellites_mean: num,
  hdop_mean: num,
  heart_rate_coverage: num.describe("only with health:read when the unit's heart rate is the subject's own"),
  warnings: z.array(z.string()),
}) satisfies z.ZodType<DataQualityResult>;

const ZAnomalies = z.object({
  threshold_z: z.number(),
  metrics: z.array(metric),
  strokes_examined: int,
  anomalies: z.array(z.object({ stroke_index: int, time_s: num, distance_m: num, metric, value: num, expected: num, z: num })),
  per_100_strokes: num,
}) satisfies z.ZodType<AnomaliesResult>;

const ZSideFigures = z.object({ strokes: int, stroke_distance: num, stroke_time: num, peak_accel: num });
const ZAsymmetry = z.object({ stroke_distance: num, stroke_time: num, peak_accel: num });
const side = z.enum(["left", "right"]).nullable();
const ZSideBalance = z.object({
  left: ZSideFigures,
  right: ZSideFigures,
  asymmetry_pct: ZAsymmetry,
  tolerance_pct: z.number(),
  stronger_side: side,
  longer_side: side,
  segments: z.array(z.object({ index: int, ...range, asymmetry_pct: ZAsymmetry })),
}) satisfies z.ZodType<SideBalanceResult>;

const ZMetricRelationships = z.object({
  strokes: int,
  pairs: z.array(z.object({ x: metric, y: metric, n: int, pearson_r: num, slope: num, intercept: num, strength: z.enum(["none", "weak", "moderate", "strong"]) })),
}) satisfies z.ZodType<MetricRelationshipsResult>;

const ZPacing = z.object({
  segments: z.array(z.object({ index: int, ...range, time_s: num, speed_m_s: num, pace_500m_s: num, relative_speed_pct: num, rate_spm: num })),
  second_half_change_pct: num,
  profile: z.enum(["even", "positive", "negative"]),
  tolerance_pct: z.number(),
  fade_pct: num,
  fastest_segment: int,
  slowest_segment: int,
}) satisfies z.ZodType<PacingResult>;

const ZProgression = z.object({
  metrics: z.array(z.object({ metric, by_segment: z.array(num), trend_per_100m: num, change_pct: num })),
}) satisfies z.ZodType<ProgressionResult>;

const ZPhaseFigures = z.object({ strokes: int, drive_peak_m_s2: num, check_m_s2: num, check_to_drive_ratio: num, stroke_time_s: num });
const ZStrokePhases = z.object({ overall: ZPhaseFigures, segments: z.array(ZPhaseFigures.extend({ index: int, ...range })) }) satisfies z.ZodType<StrokePhasesResult>;

const ZConsistency = z.object({
  strokes: int,
  cv_pct: z.array(z.object({ metric, overall: num, by_segment: z.array(num) })),
  rhythm_rmssd_ms: num,
  score: num,
}) satisfies z.ZodType<ConsistencyResult>;

const ZStart = z.object({
  time_to_m: z.array(z.object({ distance_m: int, time_s: num })),
  cruise_speed_m_s: num,
  time_to_90pct_cruise_s: num,
  strokes_to_90pct_cruise: int.nullable(),
  peak_speed_m_s: num,
  time_to_peak_speed_s: num,
  first_strokes: z.array(z.object({ stroke_index: int, time_s: num, rate_spm: num, speed_m_s: num, stroke_distance_m: num })),
  peak_rate_first_10_spm: num,
}) satisfies z.ZodType<StartResult>;

const ZWindow = z.object({ ...range, speed_m_s: num, rate_spm: num, stroke_distance_m: num });
const ZFinish = z.object({
  finish: ZWindow,
  body: ZWindow,
  speed_change_pct: num,
  rate_change_pct: num,
  stroke_distance_change_pct: num,
  verdict: z.enum(["kick", "hold", "fade"]),
  tolerance_pct: z.number(),
}) satisfies z.ZodType<FinishResult>;

const ZSplitMotion = z.object({
  segments: z.array(z.object({ index: int, ...range, pitch_deg: num, roll_deg: num, surge_range_m_s2: num, speed_fluctuation_pct: num })),
  steadiest_segment: int.nullable(),
  roughest_segment: int.nullable(),
}) satisfies z.ZodType<SplitMotionResult>;

const RESULT_SCHEMAS: Record<AnalysisName, z.ZodType> = {
  "data-quality": ZDataQuality,
  anomalies: ZAnomalies,
  "side-balance": ZSideBalance,
  "metric-relationships": ZMetricRelationships,
  pacing: ZPacing,
  progression: ZProgression,
  "stroke-phases": ZStrokePhases,
  consistency: ZConsistency,
  start: ZStart,
  finish: ZFinish,
  "split-motion": ZSplitMotion,
};

export const ZSessionAnalysis = z.object({
  session_id: int,
  analysis: z.enum(ANALYSIS_NAMES),
  status: z.enum(["ok", "insufficient_data"]),
  reason: z.string().nullable().describe("with insufficient_data: what is missing, in words"),
  parameters: z.object({ segments: int, sensitivity: z.number(), metrics: z.array(metric).nullable() }),
  result: z
    .union(Object.values(RESULT_SCHEMAS) as [z.ZodType, z.ZodType, ...z.ZodType[]])
    .nullable()
    .describe("the analysis' own shape (see docs/analytics.md); null with insufficient_data"),
});

export function serializeSessionAnalysis(sessionId: number, analysis: AnalysisName, options: AnalysisOptions, outcome: AnalysisOutcome<unknown>): z.output<typeof ZSessionAnalysis> {
  return {
    session_id: sessionId,
    analysis,
    status: outcome.status,
    reason: outcome.status === "ok" ? null : outcome.reason,
    parameters: { segments: options.segments, sensitivity: options.sensitivity, metrics: options.metrics },
    result: outcome.status === "ok" ? RESULT_SCHEMAS[analysis].parse(outcome.result) : null,
  };
}
