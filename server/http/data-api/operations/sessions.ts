import { finalTimeUncertainty } from "../../../svc/process/uncertainty";
import { z } from "zod";
import { SESSION_SORTS, listSessionsPage, sessionPosition } from "../../../sessions/list-sessions";
import {
  getCrewSeenBy,
  getReadableEffortStartS,
  getReadableSession,
  getSessionAnalysis,
  getSessionEquipment,
  getSessionSeries,
  getSessionSplits,
  getSessionWeather,
  heartRateIsSubjects,
  readableStrokesPage,
} from "../../../sessions/read-session";
import type { SessionAudience } from "../../../sessions/session-boundary";
import { compareSessions, COMPARE_LIMITS } from "../../../sessions/compare-sessions";
import { serializeComparison, ZSessionComparison } from "../../../sessions/compare-wire";
import { SURFACES } from "../../../auth/oauth/scopes";
import { MAX_SERIES_POINTS, type SeriesField } from "../../../svc/process/track";
import { defineOperation, pathId, type DataApiContext } from "../define-operation";
import { DataApiError } from "../errors";
import { intParam, keysetPage } from "../pagination";
import { booleanQuery, dateQuery, enumQuery, idQuery, textQuery } from "../params";
import {
  serializeSeries,
  serializeSessionDetail,
  serializeSessionListItem,
  serializeSessionSummary,
  serializeSplits,
  serializeStroke,
  ZSeries,
  ZSessionDetail,
  ZSessionListItem,
  ZSessionSummary,
  ZSplits,
  ZStroke,
} from "../../../sessions/sessions-wire";
import { INT4_MAX } from "../../../contract/values";
import { SPLIT_COUNT } from "../../../svc/process/track";

/** Sessions (data-api.md "Sessions"): list, one session, summary, series, strokes, splits. */
export const audienceOf = (ctx: DataApiContext): SessionAudience => ({
  subjectId: ctx.subjectId,
  surface: ctx.surface,
  applicationId: ctx.applicationId,
});
export const sessionParams = { session_id: pathId("session_id").describe("session identifier") };
export const NO_PROCESSED_DATA = "conflict: the session has no processed data (its processing failed)";

export const ZSessionsQuery = z.object({
  date_from: dateQuery("date_from").optional().describe("first local date, inclusive"),
  date_to: dateQuery("date_to").optional().describe("last local date, inclusive"),
  track_id: idQuery("track_id").optional(),
  category_id: idQuery("category_id").optional(),
  pace_id: idQuery("pace_id").optional(),
  distance_m: idQuery("distance_m").optional().describe("exact distance covered, metres (minimum 1)"),
  boat_class_id: idQuery("boat_class_id").optional().describe("boat class (catalogue boats)"),
  vessel_id: idQuery("vessel_id").optional().describe("one of the subject's own boats (equipment vessels)"),
  athlete_id: idQuery("athlete_id").optional().describe("data surface only: sessions of an athlete the subject manages or coaches"),
  competition: textQuery("competition").optional().describe("part of the competition name, case-insensitive"),
  description: textQuery("description").optional().describe("part of the description, case-insensitive"),
  important: booleanQuery("important").optional(),
  sort: enumQuery("sort", SESSION_SORTS).optional().default("date"),
  order: enumQuery("order", ["asc", "desc"] as const)
    .optional()
    .default("desc"),
});

export const listSessions = defineOperation({
  method: "get",
  path: "/sessions",
  operationId: "list_sessions",
  summary: "The subject's sessions, filtered and sorted, cursor-paged",
  description:
    "Without athlete_id: sessions the subject owns or paddled in. On the session surface: only those the calling application created.",
  tag: "Sessions",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  query: ZSessionsQuery,
  paged: true,
  response: ZSessionListItem,
  handler: async (ctx, { query }) => {
    if (query.athlete_id !== undefined && ctx.surface !== "data")
      throw new DataApiError("invalid_request", "athlete_id: available on the data surface only");
    if (query.date_from && query.date_to && query.date_from > query.date_to)
      throw new DataApiError("invalid_request", "date_from: after date_to");
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => listSessionsPage(ctx.db, audienceOf(ctx), query, after, take),
      sessionPosition,
    );
    return { data: page.rows.map(serializeSessionListItem), meta: page.meta };
  },
});

export const getSession = defineOperation({
  method: "get",
  path: "/sessions/{session_id}",
  operationId: "get_session",
  summary: "One session: metadata, the subject's seat, crew as the subject may see it, equipment and permitted health fields",
  tag: "Sessions",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  pathParams: sessionParams,
  response: ZSessionDetail,
  handler: async (ctx, { params }) => {
    const audience = audienceOf(ctx);
    const row = await getReadableSession(ctx.db, audience, params.session_id);
    const [crew, weather, equipment, analysis] = await Promise.all([
      getCrewSeenBy(ctx.db, audience, row.id),
      getSessionWeather(ctx.db, row.id),
      ctx.scopes.has("equipment:read") ? getSessionEquipment(ctx.db, ctx.subjectId, row) : Promise.resolve(null),
      getSessionAnalysis(ctx.db, row.id),
    ]);
    const heartRate =
      ctx.scopes.has("health:read") && heartRateIsSubjects(crew, ctx.subjectId) && analysis
        ? { avg: analysis.summary.avg_heart_rate, max: analysis.summary.max_heart_rate }
        : null;
    return { data: serializeSessionDetail({ row, crew, weather, equipment, heartRate }) };
  },
});

export const getSessionSummary = defineOperation({
  method: "get",
  path: "/sessions/{session_id}/summary",
  operationId: "get_session_summary",
  summary: "Derived summary of the effort and its data-quality report",
  tag: "Sessions",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  pathParams: sessionParams,
  response: ZSessionSummary,
  errors: { 409: NO_PROCESSED_DATA },
  handler: async (ctx, { params }) => {
    const audience = audienceOf(ctx);
    const row = await getReadableSession(ctx.db, audience, params.session_id);
    const analysis = await requireAnalysis(ctx, row.id);
    const ownHeartRate = ctx.scopes.has("health:read") && heartRateIsSubjects(await getCrewSeenBy(ctx.db, audience, row.id), ctx.subjectId);
    return {
      data: serializeSessionSummary(row.id, analysis.summary, analysis.dataQuality, ownHeartRate, finalTimeUncertainty(analysis.track)),
    };
  },
});

/** The series query of sessions and training sets alike. */
export const SERIES_FIELDS_ALLOWED = ["distance", "speed", "rate", "stroke_distance", "heart_rate", "route"] as const;
export const ZSeriesQuery = z.object({
  fields: z
    .string()
    .max(200)
    .transform((v) =>
      v
        .split(",")
        .map((f) => f.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.length > 0 && list.every((f) => (SERIES_FIELDS_ALLOWED as readonly string[]).includes(f)),
      `fields must be a comma-separated list of ${SERIES_FIELDS_ALLOWED.join(", ")}`,
    )
    .optional()
    .describe(`comma-separated: ${SERIES_FIELDS_ALLOWED.join(", ")} (default distance,speed,rate); heart_rate needs health:read`),
  max_points: intParam("max_points", 2, MAX_SERIES_POINTS)
    .optional()
    .default(500)
    .describe(`at most this many points, 2 to ${MAX_SERIES_POINTS} (default 500)`),
});

export const getSessionSeriesOp = defineOperation({
  method: "get",
  path: "/sessions/{session_id}/series",
  operationId: "get_session_series",
  summary: "Allowlisted processed series of the effort, evenly downsampled to at most 1000 points",
  tag: "Sessions",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  pathParams: sessionParams,
  query: ZSeriesQuery,
  response: ZSeries,
  errors: { 409: NO_PROCESSED_DATA },
  handler: async (ctx, { params, query }) => {
    const fields = [...new Set(query.fields ?? ["distance", "speed", "rate"])];
    if (fields.includes("heart_rate") && !ctx.scopes.has("health:read")) {
      throw new DataApiError("insufficient_scope", "fields=heart_rate needs the scope health:read", "sessions:read health:read");
    }
    const audience = audienceOf(ctx);
    const row = await getReadableSession(ctx.db, audience, params.session_id);
    const analysis = await requireAnalysis(ctx, row.id);
    const seriesFields = fields.filter((f): f is SeriesField => f !== "route");
    const { series, route } = await getSessionSeries(ctx.db, row.id, analysis, {
      fields: seriesFields,
      route: fields.includes("route"),
      maxPoints: query.max_points,
    });
    // Another paddler's heart rate never leaves: the column is there, empty.
    if (series.heart_rate && !heartRateIsSubjects(await getCrewSeenBy(ctx.db, audience, row.id), ctx.subjectId))
      series.heart_rate = series.heart_rate.map(() => null);
    return { data: serializeSeries(row.id, series, route) };
  },
});

export const listSessionStrokes = defineOperation({
  method: "get",
  path: "/sessions/{session_id}/strokes",
  operationId: "list_session_strokes",
  summary: "Processed metrics of every stroke of the effort, cursor-paged in stroke order",
  tag: "Sessions",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  pathParams: sessionParams,
  paged: true,
  response: ZStroke,
  handler: async (ctx, { params, query }) => {
    // One statement: boundary, effort start and page (readableStrokesPage).
    const audience = audienceOf(ctx);
    let effortStartS: number | null = null;
    let page;
    try {
      page = await keysetPage(
        ctx,
        query,
        async (after, take) => {
          const read = await readableStrokesPage(ctx.db, audience, params.session_id, after ? Number(after[0]) : null, take);
          effortStartS = read.effortStartS;
          return read.rows;
        },
        (s) => [s.index],
      );
    } catch (error) {
      // A refused cursor is checked before the read: the boundary's not-found still wins over it, as if the session were read first.
      if (error instanceof DataApiError) await getReadableEffortStartS(ctx.db, audience, params.session_id);
      throw error;
    }
    return { data: page.rows.map((s) => serializeStroke(s, effortStartS ?? 0)), meta: page.meta };
  },
});

export const getSessionSplitsOp = defineOperation({
  method: "get",
  path: "/sessions/{session_id}/splits",
  operationId: "get_session_splits",
  summary: "Equal-distance splits of the effort",
  tag: "Sessions",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  pathParams: sessionParams,
  query: z.object({
    count: intParam("count", SPLIT_COUNT.min, SPLIT_COUNT.max)
      .optional()
      .default(SPLIT_COUNT.default)
      .describe(`number of equal-distance splits, ${SPLIT_COUNT.min} to ${SPLIT_COUNT.max} (default ${SPLIT_COUNT.default})`),
  }),
  response: ZSplits,
  errors: { 409: NO_PROCESSED_DATA },
  handler: async (ctx, { params, query }) => {
    const row = await getReadableSession(ctx.db, audienceOf(ctx), params.session_id);
    const analysis = await requireAnalysis(ctx, row.id);
    return { data: serializeSplits(row.id, await getSessionSplits(ctx.db, row.id, analysis, query.count)) };
  },
});

/** The stored derived data, or the documented 409 for a session whose processing failed. */
export async function requireAnalysis(ctx: DataApiContext, sessionId: number) {
  const analysis = await getSessionAnalysis(ctx.db, sessionId);
  if (!analysis) throw new DataApiError("conflict", "The session has no processed data: its processing failed");
  return analysis;
}

const { minSessions, maxSessions, points, splits } = COMPARE_LIMITS;
export const ZCompareBody = z
  .object({
    session_ids: z
      .array(
        z
          .number({ error: "a session id is an integer" })
          .int("a session id is an integer")
          .min(1, "a session id is from 1")
          .max(INT4_MAX, "not a session id"),
        {
          error: "session_ids: a list of session ids",
        },
      )
      .min(minSessions, `session_ids: ${minSessions} to ${maxSessions} sessions`)
      .max(maxSessions, `session_ids: ${minSessions} to ${maxSessions} sessions`)
      .refine((ids) => new Set(ids).size === ids.length, "session_ids: each session at most once")
      .describe(`${minSessions} to ${maxSessions} different sessions readable with this token; deltas are against the first`),
    points: z
      .number()
      .int()
      .min(points.min)
      .max(points.max)
      .optional()
      .default(points.default)
      .describe(`points of the common distance grid, ${points.min} to ${points.max} (default ${points.default})`),
    splits: z
      .number()
      .int()
      .min(splits.min)
      .max(splits.max)
      .optional()
      .default(splits.default)
      .describe(`equal splits of the common distance, ${splits.min} to ${splits.max} (default ${splits.default})`),
  })
  .strict()
  .describe("the sessions to compare");

export const compareSessionsOp = defineOperation({
  method: "post",
  path: "/sessions/compare",
  operationId: "compare_sessions",
  summary: "Compares 2 to 9 sessions: metadata, summaries, speed and rate over one distance grid, splits with deltas against the first",
  description:
    "The grid and the splits cover the common distance (the shortest session's). A session that does not exist or lies outside the token's boundary is 404, the same answer for either; a session whose processing failed is 409. No heart rate is ever part of a comparison.",
  tag: "Sessions",
  scopes: ["sessions:read"],
  surfaces: SURFACES,
  body: ZCompareBody,
  response: ZSessionComparison,
  errors: { 409: "conflict: a session has no processed data (its processing failed); the description names it" },
  handler: async (ctx, { body }) => ({
    data: serializeComparison(
      await compareSessions(ctx.db, audienceOf(ctx), body.session_ids, { points: body.points, splits: body.splits }),
    ),
  }),
});

export const sessionOperations = [
  listSessions,
  getSession,
  getSessionSummary,
  getSessionSeriesOp,
  listSessionStrokes,
  getSessionSplitsOp,
  compareSessionsOp,
];
