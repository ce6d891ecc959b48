import { z } from "zod";
import { ANALYSIS_NAMES, DEFAULT_OPTIONS, runAnalysis, STROKE_METRIC_NAMES, type StrokeMetric } from "../../../analytics";
import { loadAnalysisInput } from "../../../analytics/load-input";
import { SURFACES } from "../../../auth/oauth/scopes";
import { getCrewSeenBy, getReadableSession, heartRateIsSubjects } from "../../../sessions/read-session";
import { defineOperation } from "../define-operation";
import { intParam } from "../pagination";
import { enumQuery, numberQuery } from "../params";
import { serializeSessionAnalysis, ZSessionAnalysis } from "../serializers/analytics";
import { audienceOf, NO_PROCESSED_DATA, requireAnalysis, sessionParams } from "./sessions";

/** Session analyses (data-api.md "Sessions": /sessions/{session_id}/analytics/{analysis}; docs/analytics.md). */
const ZAnalyticsQuery = z.object({
  segments: intParam("segments", 2, 20).optional().default(DEFAULT_OPTIONS.segments).describe("equal-distance segments the effort is cut into, 2 to 20 (default 4)"),
  sensitivity: numberQuery("sensitivity", 0.5, 10)
    .optional()
    .default(DEFAULT_OPTIONS.sensitivity)
    .describe("0.5 to 10 (default 2): higher finds smaller anomalies and asymmetries, and narrows the tolerance of every verdict"),
  metrics: z
    .string()
    .max(200)
    .transform((v) => [...new Set(v.split(",").map((m) => m.trim()).filter(Boolean))])
    .refine((list) => list.length > 0 && list.every((m) => (STROKE_METRIC_NAMES as string[]).includes(m)), `metrics must be a comma-separated list of ${STROKE_METRIC_NAMES.join(", ")}`)
    .optional()
    .describe(`comma-separated stroke metrics for anomalies, metric-relationships, progression and consistency: ${STROKE_METRIC_NAMES.join(", ")}`),
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
    const heartRateAllowed = params.analysis === "data-quality" && ctx.scopes.has("health:read") && heartRateIsSubjects(await getCrewSeenBy(ctx.db, audience, row.id), ctx.subjectId);
    const input = await loadAnalysisInput(ctx.db, row.id, stored, heartRateAllowed);
    const options = { segments: query.segments, sensitivity: query.sensitivity, metrics: (query.metrics as StrokeMetric[] | undefined) ?? null };
    return { data: serializeSessionAnalysis(row.id, params.analysis, options, runAnalysis(params.analysis, input, options)) };
  },
});

export const analyticsOperations = [getSessionAnalytics];
