import { z } from "zod";
import { pace500Tenths } from "../results/figures";
import { ANALYSIS_NAMES, STROKE_METRIC_NAMES, type AnalysisName, type AnalysisOptions, type AnalysisOutcome } from ".";
import type { AnomaliesResult } from "./anomalies";
import type { ConsistencyResult } from "./consistency";
import type { DataQualityResult } from "./data-quality";
import type { FinishResult } from "./finish";
import type { MetricRelationshipsResult } from "./metric-relationships";
import type { PacingResult } from "./pacing";
import type { ProgressionResult } from "./progression";
import type { SideBalanceResult } from "./side-balance";
import type { SplitMotionResult } from "./split-motion";
import type { StartResult } from "./start";
import type { StrokePhasesResult } from "./stroke-phases";

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
  pairs: z.array(
    z.object({
      x: metric,
      y: metric,
      n: int,
      pearson_r: num,
      slope: num,
      intercept: num,
      strength: z.enum(["none", "weak", "moderate", "strong"]),
    }),
  ),
}) satisfies z.ZodType<MetricRelationshipsResult>;

const ZPacing = z.object({
  segments: z.array(
    z.object({ index: int, ...range, time_s: num, speed_m_s: num, pace_500m_s: num, relative_speed_pct: num, rate_spm: num }),
  ),
  second_half_change_pct: num,
  profile: z.enum(["even", "positive", "negative"]),
  tolerance_pct: z.number(),
  fade_pct: num,
  fastest_segment: int,
  slowest_segment: int,
}) satisfies z.ZodType<PacingResult>;

const ZInSessionProgression = z.object({
  metrics: z.array(z.object({ metric, by_segment: z.array(num), trend_per_100m: num, change_pct: num })),
}) satisfies z.ZodType<ProgressionResult>;

const ZPhaseFigures = z.object({ strokes: int, drive_peak_m_s2: num, check_m_s2: num, check_to_drive_ratio: num, stroke_time_s: num });
const ZStrokePhases = z.object({
  overall: ZPhaseFigures,
  segments: z.array(ZPhaseFigures.extend({ index: int, ...range })),
}) satisfies z.ZodType<StrokePhasesResult>;

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
  progression: ZInSessionProgression,
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

export function serializeSessionAnalysis(
  sessionId: number,
  analysis: AnalysisName,
  options: AnalysisOptions,
  outcome: AnalysisOutcome<unknown>,
): z.output<typeof ZSessionAnalysis> {
  return {
    session_id: sessionId,
    analysis,
    status: outcome.status,
    reason: outcome.status === "ok" ? null : outcome.reason,
    parameters: { segments: options.segments, sensitivity: options.sensitivity, metrics: options.metrics },
    result: outcome.status === "ok" ? RESULT_SCHEMAS[analysis].parse(outcome.result) : null,
  };
}

// ---- Across sessions -------------------------------------------------------------------------

const pace500 = pace500Tenths;
const speed3 = (speed: number) => Math.round(speed * 1000) / 1000;

const ZEffortRef = {
  session_id: int.describe("the reference session"),
  boat_class: z.string(),
  target_distance_m: int.nullable().describe("the distance the cohort shares (distance efforts)"),
  target_duration_ms: int.nullable().describe("the duration the cohort shares (timed efforts)"),
};
type EffortRef = { id: number; boatClass: string; targetDistanceM: number | null; targetDurationMs: number | null };
const effortRef = (r: EffortRef) => ({
  session_id: r.id,
  boat_class: r.boatClass,
  target_distance_m: r.targetDistanceM,
  target_duration_ms: r.targetDurationMs,
});

export const ZComparableSessions = z.object({
  ...ZEffortRef,
  ranking: z.string().describe("how the list is ordered, in words"),
  sessions: z.array(
    z.object({
      session_id: int,
      date: z.string(),
      distance_m: int,
      duration_ms: int,
      avg_speed_m_s: z.number(),
      pace_500m_s: num,
      same_track: z.boolean(),
      same_athlete: z.boolean().describe("shares a crew athlete the subject may see"),
      delta_ms: int.describe("this session's time minus the reference's (negative: faster)"),
    }),
  ),
});
export function serializeComparableSessions(
  reference: EffortRef,
  sessions: import("./cohorts").ComparableSession[],
): z.output<typeof ZComparableSessions> {
  return {
    ...effortRef(reference),
    ranking: "same track and a shared crew athlete score one point each, highest first; then closest in time to the reference; then id",
    sessions: sessions.map((s) => ({
      session_id: s.sessionId,
      date: s.date,
      distance_m: s.distanceM,
      duration_ms: s.durationMs,
      avg_speed_m_s: speed3(s.avgSpeedMS),
      pace_500m_s: pace500(s.avgSpeedMS),
      same_track: s.sameTrack,
      same_athlete: s.sameAthlete,
      delta_ms: s.deltaMs,
    })),
  };
}

export const ZProgression = z.object({
  ...ZEffortRef,
  athlete: z
    .object({ id: int, name: z.string() })
    .nullable()
    .describe("the cohort's athlete; null when the cohort is the owner's sessions"),
  sessions: z
    .array(
      z.object({
        session_id: int,
        date: z.string(),
        duration_ms: int,
        avg_speed_m_s: z.number(),
        pace_500m_s: num,
        is_reference: z.boolean(),
      }),
    )
    .describe("oldest first, at most 200 (the most recent)"),
  best_duration_ms: int,
  trend_s_per_30_days: num.describe("least-squares change of the time per 30 days (negative: faster); null under 3 sessions"),
  latest_vs_best_pct: z.number().describe("the most recent session against the best, percent slower"),
});
export function serializeProgression(p: import("./cohorts").Progression): z.output<typeof ZProgression> {
  return {
    ...effortRef(p.reference),
    athlete: p.athlete ? { id: p.athlete.id, name: p.athlete.name } : null,
    sessions: p.sessions.map((s) => ({
      session_id: s.sessionId,
      date: s.date,
      duration_ms: s.durationMs,
      avg_speed_m_s: speed3(s.avgSpeedMS),
      pace_500m_s: pace500(s.avgSpeedMS),
      is_reference: s.isReference,
    })),
    best_duration_ms: p.bestDurationMs,
    trend_s_per_30_days: p.trendSPer30Days,
    latest_vs_best_pct: p.latestVsBestPct,
  };
}

export const ZPersonalBest = z.object({
  boat_class: z.string(),
  crew_size: int,
  distance_m: int,
  session_id: int,
  date: z.string(),
  duration_ms: int,
  avg_speed_m_s: z.number(),
  pace_500m_s: num,
});
export function serializePersonalBest(entry: {
  resultId: number;
  vesselType: string;
  crewSize: number;
  distanceM: number;
  durationMs: number;
  date: string;
}): z.output<typeof ZPersonalBest> {
  const speed = entry.distanceM / (entry.durationMs / 1000);
  return {
    boat_class: entry.vesselType,
    crew_size: entry.crewSize,
    distance_m: entry.distanceM,
    session_id: entry.resultId,
    date: entry.date,
    duration_ms: entry.durationMs,
    avg_speed_m_s: speed3(speed),
    pace_500m_s: pace500(speed),
  };
}

export const ZBenchmark = z.object({
  ...ZEffortRef,
  status: z.enum(["ok", "insufficient_data"]),
  reason: z.string().nullable(),
  session_duration_ms: int,
  people: int
    .nullable()
    .describe("person accounts whose best makes the benchmark (at least 10): one each, from their own unit's production-sealed files"),
  percentiles: z
    .array(z.object({ percentile: int, duration_ms: int }))
    .describe(
      "about p percent of the people's bests are faster than this: the mean of the 3 bests around its rank plus calibrated noise fixed for the cohort's state, so no value is one person's time nor reveals it",
    ),
  faster_than_pct: num.describe(
    "estimated share of the people whose best is slower than this session, percent, read off the published percentiles (linear between them)",
  ),
});
export function serializeBenchmark(b: import("./benchmarks").Benchmark): z.output<typeof ZBenchmark> {
  const base = { ...effortRef(b.reference), session_duration_ms: b.reference.durationMs };
  return b.kind === "ok"
    ? {
        ...base,
        status: "ok",
        reason: null,
        people: b.people,
        percentiles: b.percentiles.map((p) => ({ percentile: p.percentile, duration_ms: p.durationMs })),
        faster_than_pct: b.fasterThanPct,
      }
    : { ...base, status: "insufficient_data", reason: b.reason, people: null, percentiles: [], faster_than_pct: null };
}
