import { z } from "zod";
import { SURFACES } from "../../../auth/oauth/scopes";
import { toProcessingStroke } from "../../../results/result-analysis";
import { downsampleRoute } from "../../../sessions/read-session";
import { buildSeries, computeSplits, type SeriesField } from "../../../svc/process/track";
import {
  getReadableTraining,
  getReadableWorkSet,
  getSetStrokes,
  getTrainingAthlete,
  getTrainingDerived,
  getTrainingSets,
  getTrainingTemplate,
  getWorkSets,
  getWorkSetsByIds,
  listTrainingsPage,
  setStrokesPageQuery,
  trainingHeartRateIsSubjects,
  trainingPosition,
  type TrainingRow,
} from "../../../trainings/training-reads";
import { defineOperation, pathId, type DataApiContext } from "../define-operation";
import { DataApiError } from "../errors";
import { intParam, keysetPage } from "../pagination";
import { ZSeriesQuery } from "./sessions";
import { dateQuery, textQuery } from "../params";
import { serializeStroke, ZStroke } from "../../../sessions/sessions-wire";
import {
  serializeComparison,
  serializeSetSeries,
  serializeSetSplits,
  serializeTimeline,
  serializeTrainingDetail,
  serializeTrainingListItem,
  serializeTrainingSummary,
  ZSetComparison,
  ZSetSeries,
  ZSetSplits,
  ZTrainingDetail,
  ZTrainingListItem,
  ZTrainingSummary,
  ZTrainingTimeline,
} from "../../../trainings/trainings-wire";
import { audienceOf } from "./sessions";
import { INT4_MAX } from "../../../contract/values";
import { SPLIT_COUNT, SPLIT_COUNT_RULE } from "../../../svc/process/track";

/**
 * Trainings (data-api.md "Trainings"; docs/trainings.md "Data API"): list,
 * one training, per-set summaries, the timeline, one work set's series,
 * strokes and splits, and set compare. Exports are in operations/exports.ts.
 */
export const trainingParams = { training_id: pathId("training_id").describe("training identifier") };
const setParams = { ...trainingParams, set_id: pathId("set_id").describe("a work (active) set of the training; a rest is 404") };
export const NOT_READY =
  "conflict: the training has no sets yet (queued or processing) or its processing failed; GET /trainings/{training_id} shows its status";

/** The stored figures of a ready training, or the documented 409 for one still processing or failed. */
export async function requireReady(ctx: DataApiContext, row: TrainingRow) {
  const derived = row.status === "ready" ? await getTrainingDerived(ctx.db, row.id) : null;
  if (!derived) {
    const why = row.status === "failed" ? "its processing failed" : `it is ${row.status === "ready" ? "being reprocessed" : row.status}`;
    throw new DataApiError("conflict", `The training has no sets yet: ${why}`);
  }
  return derived;
}

export const ZTrainingsQuery = z.object({
  title: textQuery("title").optional().describe("part of the title, case-insensitive"),
  date_from: dateQuery("date_from")
    .optional()
    .describe("first local date, inclusive (trainings not processed yet have no date and are left out)"),
  date_to: dateQuery("date_to").optional().describe("last local date, inclusive"),
});

export const listTrainings = defineOperation({
  method: "get",
  path: "/trainings",
  operationId: "list_trainings",
  summary: "The subject's trainings, newest first, cursor-paged",
  description:
    "Trainings the subject owns, by the first work set's start (a training not processed yet by its upload time). On the session surface: only those the calling application created.",
  tag: "Trainings",
  scopes: ["trainings:read"],
  surfaces: SURFACES,
  query: ZTrainingsQuery,
  paged: true,
  response: ZTrainingListItem,
  handler: async (ctx, { query }) => {
    if (query.date_from && query.date_to && query.date_from > query.date_to)
      throw new DataApiError("invalid_request", "date_from: after date_to");
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => listTrainingsPage(ctx.db, audienceOf(ctx), query, after, take),
      trainingPosition,
    );
    return { data: page.rows.map(serializeTrainingListItem), meta: page.meta };
  },
});

export const getTraining = defineOperation({
  method: "get",
  path: "/trainings/{training_id}",
  operationId: "get_training",
  summary: "One training: its status, structure (work sets and rests) and the template when it followed one",
  description: "A training that is queued, processing or failed answers 200 with its status (and failure reason) and no sets.",
  tag: "Trainings",
  scopes: ["trainings:read"],
  surfaces: SURFACES,
  pathParams: trainingParams,
  response: ZTrainingDetail,
  handler: async (ctx, { params }) => {
    const audience = audienceOf(ctx);
    const row = await getReadableTraining(ctx.db, audience, params.training_id);
    const [athlete, template, sets, derived] = await Promise.all([
      getTrainingAthlete(ctx.db, audience, row),
      getTrainingTemplate(ctx.db, row.id, row.ownerUserId),
      row.status === "ready" ? getTrainingSets(ctx.db, row.id) : Promise.resolve([]),
      row.status === "ready" ? getTrainingDerived(ctx.db, row.id) : Promise.resolve(null),
    ]);
    return { data: serializeTrainingDetail({ row, athlete, template, match: derived?.templateMatch ?? null, sets }) };
  },
});

export const getTrainingSummary = defineOperation({
  method: "get",
  path: "/trainings/{training_id}/summary",
  operationId: "get_training_summary",
  summary: "Derived summaries of every work set, and of the whole training with its data-quality report",
  tag: "Trainings",
  scopes: ["trainings:read"],
  surfaces: SURFACES,
  pathParams: trainingParams,
  response: ZTrainingSummary,
  errors: { 409: NOT_READY },
  handler: async (ctx, { params }) => {
    const audience = audienceOf(ctx);
    const row = await getReadableTraining(ctx.db, audience, params.training_id);
    const derived = await requireReady(ctx, row);
    const [works, athlete] = await Promise.all([getWorkSets(ctx.db, row.id), getTrainingAthlete(ctx.db, audience, row)]);
    const heartRate = ctx.scopes.has("health:read") && trainingHeartRateIsSubjects(row, athlete, ctx.subjectId);
    return { data: serializeTrainingSummary(row.id, derived, works, heartRate) };
  },
});

export const getTrainingTimeline = defineOperation({
  method: "get",
  path: "/trainings/{training_id}/timeline",
  operationId: "get_training_timeline",
  summary: "The workout as it happened: work and rest intervals with relative times and derived metrics only",
  description: "Privacy-projected: no timestamps, positions, device data or identities; times are seconds from the first work set's start.",
  tag: "Trainings",
  scopes: ["trainings:read"],
  surfaces: SURFACES,
  pathParams: trainingParams,
  response: ZTrainingTimeline,
  errors: { 409: NOT_READY },
  handler: async (ctx, { params }) => {
    const row = await getReadableTraining(ctx.db, audienceOf(ctx), params.training_id);
    await requireReady(ctx, row);
    const [sets, works] = await Promise.all([getTrainingSets(ctx.db, row.id), getWorkSets(ctx.db, row.id)]);
    return { data: serializeTimeline(row.id, sets, works) };
  },
});

export const getSetSeries = defineOperation({
  method: "get",
  path: "/trainings/{training_id}/sets/{set_id}/series",
  operationId: "get_training_set_series",
  summary: "Allowlisted processed series of one work set, evenly downsampled to at most 1000 points",
  tag: "Trainings",
  scopes: ["trainings:read"],
  surfaces: SURFACES,
  pathParams: setParams,
  query: ZSeriesQuery,
  response: ZSetSeries,
  handler: async (ctx, { params, query }) => {
    const fields = [...new Set(query.fields ?? ["distance", "speed", "rate"])];
    if (fields.includes("heart_rate") && !ctx.scopes.has("health:read")) {
      throw new DataApiError("insufficient_scope", "fields=heart_rate needs the scope health:read", "trainings:read health:read");
    }
    const audience = audienceOf(ctx);
    const { training, set } = await getReadableWorkSet(ctx.db, audience, params.training_id, params.set_id);
    const strokes = await getSetStrokes(ctx.db, set.id);
    const seriesFields = fields.filter((f): f is SeriesField => f !== "route");
    const series = buildSeries(set.track, strokes.map(toProcessingStroke), {
      fields: seriesFields,
      maxPoints: query.max_points,
      startS: set.startS,
    });
    // Another paddler's heart rate never leaves: the column is there, empty.
    if (series.heart_rate && !trainingHeartRateIsSubjects(training, await getTrainingAthlete(ctx.db, audience, training), ctx.subjectId))
      series.heart_rate = series.heart_rate.map(() => null);
    const route = fields.includes("route") ? downsampleRoute(set.track.route, query.max_points) : null;
    return { data: serializeSetSeries(training.id, set.id, series, route) };
  },
});

export const listSetStrokes = defineOperation({
  method: "get",
  path: "/trainings/{training_id}/sets/{set_id}/strokes",
  operationId: "list_training_set_strokes",
  summary: "Processed metrics of every stroke of one work set, cursor-paged in stroke order",
  description: "time_s is seconds from the set's start and distance_m metres from it.",
  tag: "Trainings",
  scopes: ["trainings:read"],
  surfaces: SURFACES,
  pathParams: setParams,
  paged: true,
  response: ZStroke,
  handler: async (ctx, { params, query }) => {
    // The boundary first: its not-found wins over any complaint about the cursor.
    const { set } = await getReadableWorkSet(ctx.db, audienceOf(ctx), params.training_id, params.set_id);
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => setStrokesPageQuery(ctx.db, set.id, after ? Number(after[0]) : null, take),
      (s) => [s.index],
    );
    return { data: page.rows.map((s) => serializeStroke(s, set.startS)), meta: page.meta };
  },
});

export const getSetSplits = defineOperation({
  method: "get",
  path: "/trainings/{training_id}/sets/{set_id}/splits",
  operationId: "get_training_set_splits",
  summary: "Equal-distance splits of one work set",
  tag: "Trainings",
  scopes: ["trainings:read"],
  surfaces: SURFACES,
  pathParams: setParams,
  query: z.object({
    count: intParam("count", SPLIT_COUNT.min, SPLIT_COUNT.max)
      .optional()
      .default(SPLIT_COUNT.default)
      .describe(`number of equal-distance splits, ${SPLIT_COUNT.min} to ${SPLIT_COUNT.max} (default ${SPLIT_COUNT.default})`),
  }),
  response: ZSetSplits,
  handler: async (ctx, { params, query }) => {
    const { training, set } = await getReadableWorkSet(ctx.db, audienceOf(ctx), params.training_id, params.set_id);
    const strokes = await getSetStrokes(ctx.db, set.id);
    return { data: serializeSetSplits(training.id, set.id, computeSplits(set.track, strokes.map(toProcessingStroke), query.count)) };
  },
});

const COMPARE_MIN = 2;
const COMPARE_MAX = 9;
const setIdsMessage = `must be an array of ${COMPARE_MIN} to ${COMPARE_MAX} unique set ids`;
export const ZCompareBody = z
  .strictObject({
    set_ids: z
      .array(
        z
          .number({ error: "must be integer set ids" })
          .int("must be integer set ids")
          .min(1, "must be positive set ids")
          .max(INT4_MAX, "must be set ids"),
        { error: setIdsMessage },
      )
      .min(COMPARE_MIN, setIdsMessage)
      .max(COMPARE_MAX, setIdsMessage)
      .refine((ids) => new Set(ids).size === ids.length, "must not repeat a set id")
      .describe(`${COMPARE_MIN} to ${COMPARE_MAX} unique ids of work sets of this training, in the order to compare`),
    splits: z
      .number({ error: SPLIT_COUNT_RULE })
      .int(SPLIT_COUNT_RULE)
      .min(SPLIT_COUNT.min, SPLIT_COUNT_RULE)
      .max(SPLIT_COUNT.max, SPLIT_COUNT_RULE)
      .default(SPLIT_COUNT.default)
      .describe(`equal-distance splits per set, ${SPLIT_COUNT.min} to ${SPLIT_COUNT.max} (default ${SPLIT_COUNT.default})`),
  })
  .describe("set compare request");

export const compareSets = defineOperation({
  method: "post",
  path: "/trainings/{training_id}/compare",
  operationId: "compare_training_sets",
  summary: "Compare 2 to 9 work sets of one training side by side",
  description:
    "Each set's time, speed, pace, rate, distance per stroke, rank by average speed, difference to the first set requested, and equal-distance splits. A set id that is not a work set of this training (a rest, another training's set, or no set at all) is 400 invalid_request naming set_ids, the same for all of them.",
  tag: "Trainings",
  scopes: ["trainings:read"],
  surfaces: SURFACES,
  pathParams: trainingParams,
  body: ZCompareBody,
  response: ZSetComparison,
  errors: { 409: NOT_READY },
  handler: async (ctx, { params, body }) => {
    const row = await getReadableTraining(ctx.db, audienceOf(ctx), params.training_id);
    await requireReady(ctx, row);
    const found = new Map((await getWorkSetsByIds(ctx.db, row.id, body.set_ids)).map((s) => [s.id, s]));
    const missing = body.set_ids.findIndex((id) => !found.has(id));
    if (missing >= 0)
      throw new DataApiError("invalid_request", `set_ids[${missing}]: ${body.set_ids[missing]} is not a work set of this training`);
    const sets = await Promise.all(
      body.set_ids.map(async (id) => {
        const set = found.get(id)!;
        const strokes = await getSetStrokes(ctx.db, set.id);
        return { set, splits: computeSplits(set.track, strokes.map(toProcessingStroke), body.splits) };
      }),
    );
    return { data: serializeComparison(row.id, body.splits, sets) };
  },
});

export const trainingOperations = [
  listTrainings,
  getTraining,
  getTrainingSummary,
  getTrainingTimeline,
  getSetSeries,
  listSetStrokes,
  getSetSplits,
  compareSets,
];
