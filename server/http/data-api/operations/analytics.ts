import { z } from "zod";
import { ANALYSIS_NAMES, DEFAULT_OPTIONS, runAnalysis, STROKE_METRIC_NAMES, type StrokeMetric } from "../../../analytics";
import { BENCHMARK_MIN_PEOPLE, BENCHMARK_PROTECTION_MS_PER_M } from "../../../analytics/benchmark-figures";
import { benchmarkOf } from "../../../analytics/benchmarks";
import { comparableSessions, personalBests, progressionOf } from "../../../analytics/cohorts";
import { loadAnalysisInput } from "../../../analytics/load-input";
import { SURFACES } from "../../../auth/oauth/scopes";
import { getCrewSeenBy, getReadableSession, heartRateIsSubjects } from "../../../sessions/read-session";
import { defineOperation } from "../define-operation";
import { intParam } from "../pagination";
import { enumQuery, idQuery, numberQuery } from "../params";
import {
  serializeBenchmark,
  serializeComparableSessions,
  serializePersonalBest,
  serializeProgression,
  serializeSessionAnalysis,
  ZBenchmark,
  ZComparableSessions,
  ZPersonalBest,
  ZProgression,
  ZSessionAnalysis,
} from "../../../analytics/analytics-wire";
import { audienceOf, NO_PROCESSED_DATA, requireAnalysis, sessionParams } from "./sessions";

/** Session analyses (data-api.md "Sessions": /sessions/{session_id}/analytics/{analysis}; docs/analytics.md). */
const ZAnalyticsQuery = z.object({
  segments: intParam("segments", 2, 20)
    .optional()
    .default(DEFAULT_OPTIONS.segments)
    .describe("equal-distance segments the effort is cut into, 2 to 20 (default 4)"),
  sensitivity: numberQuery("sensitivity", 0.5, 10)
    .optional()
    .default(DEFAULT_OPTIONS.sensitivity)
    .describe("0.5 to 10 (default 2): higher finds smaller anomalies and asymmetries, and narrows the tolerance of every verdict"),
  metrics: z
    .string()
    .max(200)
    .transform((v) => [
      ...new Set(
        v
          .split(",")
          .map((m) => m.trim())
          .filter(Boolean),
      ),
    ])
    .refine(
      (list) => list.length > 0 && list.every((m) => (STROKE_METRIC_NAMES as string[]).includes(m)),
      `metrics must be a comma-separated list of ${STROKE_METRIC_NAMES.join(", ")}`,
    )
    .optional()
    .describe(
      `comma-separated stroke metrics for anomalies, metric-relationships, progression and consistency: ${STROKE_METRIC_NAMES.join(", ")}`,
    ),
});

export const getSessionAnalytics = defineOperation({
  method: "get",
  path: "/sessions/{session_id}/analytics/{analysis}",
  operationId: "get_session_analysis",
  summary: "One derived analysis of the effort",
  description: `analysis is one of ${ANALYSIS_NAMES.join(", ")}. A session too short or of the wrong boat for an analysis answers 200 with status insufficient_data and the reason.`,
  tag: "Sessions",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  pathParams: { ...sessionParams, analysis: enumQuery("analysis", ANALYSIS_NAMES).describe("which analysis") },
  query: ZAnalyticsQuery,
  response: ZSessionAnalysis,
  errors: { 409: NO_PROCESSED_DATA },
  handler: async (ctx, { params, query }) => {
    const audience = audienceOf(ctx);
    const row = await getReadableSession(ctx.db, audience, params.session_id);
    const stored = await requireAnalysis(ctx, row.id);
    // Heart-rate facts (data-quality's coverage) follow the session's health rule.
    const heartRateAllowed =
      params.analysis === "data-quality" &&
      ctx.scopes.has("health:read") &&
      heartRateIsSubjects(await getCrewSeenBy(ctx.db, audience, row.id), ctx.subjectId);
    const input = await loadAnalysisInput(ctx.db, row.id, stored, heartRateAllowed);
    const options = {
      segments: query.segments,
      sensitivity: query.sensitivity,
      metrics: (query.metrics as StrokeMetric[] | undefined) ?? null,
    };
    return { data: serializeSessionAnalysis(row.id, params.analysis, options, runAnalysis(params.analysis, input, options)) };
  },
});

// ---- Across sessions (data-api.md "/analytics/…") --------------------------------------------

const sessionQuery = { session_id: idQuery("session_id").describe("the reference session") };

export const getComparableSessions = defineOperation({
  method: "get",
  path: "/analytics/comparable-sessions",
  operationId: "get_comparable_sessions",
  summary: "Sessions comparable with one: the same boat class and distance (or duration), ranked by track, athlete and time",
  tag: "Analytics",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  query: z.object({
    ...sessionQuery,
    limit: intParam("limit", 1, 25).optional().default(10).describe("at most this many, 1 to 25 (default 10)"),
  }),
  response: ZComparableSessions,
  handler: async (ctx, { query }) => {
    const { reference, sessions } = await comparableSessions(ctx.db, audienceOf(ctx), query.session_id, query.limit);
    return { data: serializeComparableSessions(reference, sessions) };
  },
});

export const getProgression = defineOperation({
  method: "get",
  path: "/analytics/progression",
  operationId: "get_progression",
  summary: "The same athlete, boat class and distance over time",
  tag: "Analytics",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  query: z.object(sessionQuery),
  response: ZProgression,
  handler: async (ctx, { query }) => ({ data: serializeProgression(await progressionOf(ctx.db, audienceOf(ctx), query.session_id)) }),
});

export const getPersonalBests = defineOperation({
  method: "get",
  path: "/analytics/personal-bests",
  operationId: "get_personal_bests",
  summary: "Best time per boat class and distance: the standing records of GET /records",
  tag: "Analytics",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  response: z.array(ZPersonalBest),
  handler: async (ctx) => ({ data: (await personalBests(ctx.db, audienceOf(ctx))).map(serializePersonalBest) }),
});

export const getBenchmarks = defineOperation({
  method: "get",
  path: "/analytics/benchmarks",
  operationId: "get_benchmarks",
  summary: "Where a session stands among every person's best in the service for the same boat class and distance",
  description: [
    `Aggregates only. The cohort is accounts, not athlete records: one best per person account (never demo or sandbox) from sessions its own registered unit recorded in a file sealed with a production key (never the published development key 0), so one account cannot fabricate members. Below ${BENCHMARK_MIN_PEOPLE} such accounts the answer is insufficient_data with no figure.`,
    `Each percentile is the mean of the three bests around its rank plus Laplace noise of scale m·λ/3 (λ = ${BENCHMARK_PROTECTION_MS_PER_M} ms per metre of the distance, 5 s over 500 m; m is 2 below 20 people, then 1), fixed for the cohort's state and kept for 28 days whatever the members do: asking again returns the same figures, and faster_than_pct is read off the published percentiles, never off the members.`,
    `Guarantee (docs/analytics.md): for any two values of one member's best d seconds apart, every answer is at most e^(d/λ) times as likely under one as under the other, even to someone who knows every other member's best; over 500 m, someone starting with no idea of it is left with at most a 20 % chance of placing it within ±1 s.`,
  ].join(" "),
  tag: "Analytics",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  query: z.object(sessionQuery),
  response: ZBenchmark,
  handler: async (ctx, { query }) => ({ data: serializeBenchmark(await benchmarkOf(ctx.db, audienceOf(ctx), query.session_id)) }),
});

export const analyticsOperations = [getSessionAnalytics, getComparableSessions, getProgression, getPersonalBests, getBenchmarks];
