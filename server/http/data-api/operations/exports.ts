import { z } from "zod";
import { SURFACES } from "../../../auth/oauth/scopes";
import { exportFileResponse } from "../../../exports/download-response";
import { EXPORT_RETRY_AFTER_S, getExportJobFor, readExportFile, type ExportJob } from "../../../exports/export-jobs";
import { requestSessionExport, requestTrainingExport } from "../../../exports/request-session-export";
import { IDEMPOTENCY_KEY_MAX_LENGTH, parseIdempotencyKey, requestFingerprint } from "../../../idempotency/idempotency";
import { defineOperation, pathId, type DataApiContext } from "../define-operation";
import { serializeExportJob, ZExportJob } from "../../../exports/exports-wire";
import { SPLIT_COUNT } from "../../../svc/process/track";

/** Exports (data-api.md "Exports", "ExportRequest"; docs/exports.md): create, poll, download. */

const EXPORT_FORMATS = ["json", "pdf", "pdf-full", "xlsx", "fit", "tcx"] as const;
/** Content types of the six formats, for the download's documentation. */
const EXPORT_CONTENT_TYPES = [
  "application/json",
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.ant.fit",
  "application/vnd.garmin.tcx+xml",
];

const intField = (min: number, max: number) => {
  const message = `must be an integer from ${min} to ${max}`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
};

export const ZExportRequest = z
  .strictObject({
    format: z.enum(EXPORT_FORMATS, { error: `must be one of ${EXPORT_FORMATS.join(", ")}` }).describe("file format"),
    athlete: intField(1, 4).default(1).describe("seat (1 to 4) whose heart rate and subject fields are included"),
    splits: intField(SPLIT_COUNT.min, SPLIT_COUNT.max).default(SPLIT_COUNT.default).describe("number of equal-distance splits"),
    lang: z.enum(["en", "es"], { error: "must be en or es" }).default("en").describe("language of labels"),
  })
  .describe("ExportRequest");

const ZIdempotencyKey = z
  .string()
  .optional()
  .describe(
    `Optional, at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters: the same key with the identical request (path, body, application, person) returns the same job for 24 hours; with a different request it is a 409 idempotency_key_reused`,
  );

const ZJobId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "job_id: not a job id")
  .describe("export job id from the creation response");

const retryAfter = { "Retry-After": String(EXPORT_RETRY_AFTER_S) };

/** What a session or training export request shares: the audience, the privacy mode and the Idempotency-Key scope. */
function exportRequestCommon(ctx: DataApiContext, path: string, body: z.output<typeof ZExportRequest>, idempotencyKey: string | undefined) {
  const key = parseIdempotencyKey(idempotencyKey ?? null);
  return {
    audience: { subjectId: ctx.subjectId, surface: ctx.surface, applicationId: ctx.applicationId },
    applicationId: ctx.applicationId,
    request: body,
    mode: ctx.surface === "partner" ? ("privacy-safe" as const) : ("full" as const),
    healthAllowed: ctx.scopes.has("health:read"),
    idempotency: key
      ? {
          scope: `data:app:${ctx.applicationId}:user:${ctx.subjectId}`,
          key,
          fingerprint: requestFingerprint({ method: "POST", path, body }),
        }
      : null,
  };
}

/** 202 with the job's status document, where to poll it and when. */
function accepted(job: ExportJob) {
  const data = serializeExportJob(job);
  return { status: 202 as const, data, headers: { Location: data.links.self, ...retryAfter } };
}
const isFinal = (job: ExportJob) => job.state === "succeeded" || job.state === "failed" || job.state === "expired";
const requesterOf = (ctx: DataApiContext) => ({ subjectUserId: ctx.subjectId, applicationId: ctx.applicationId });

export const createSessionExport = defineOperation({
  method: "post",
  path: "/sessions/{session_id}/exports",
  operationId: "create_session_export",
  summary: "Queue an export of one session (json, pdf, pdf-full, xlsx, fit, tcx)",
  description:
    "Answers 202 with the job's status document, a Location to poll and Retry-After. On the partner surface the file is built in the privacy-safe mode (docs/exports.md). An athlete seat that does not exist or that the person may not see is a 404.",
  tag: "Exports",
  scopes: ["sessions:read", "exports:create"],
  surfaces: SURFACES,
  pathParams: { session_id: pathId("session_id").describe("session identifier") },
  requestHeaders: { "Idempotency-Key": ZIdempotencyKey },
  body: ZExportRequest,
  response: ZExportJob,
  successStatus: 202,
  successHeaders: ["Location", "Retry-After"],
  errors: { 409: "idempotency_key_reused: the Idempotency-Key was already used for a different request" },
  handler: async (ctx, { params, body, headers }) => {
    const common = exportRequestCommon(ctx, `/sessions/${params.session_id}/exports`, body, headers["Idempotency-Key"]);
    const { job } = await requestSessionExport(ctx.db, { ...common, sessionId: params.session_id });
    return accepted(job);
  },
});

export const createTrainingExport = defineOperation({
  method: "post",
  path: "/trainings/{training_id}/exports",
  operationId: "create_training_export",
  summary: "Queue an export of one training (json, pdf, pdf-full, xlsx, fit, tcx)",
  description:
    'Answers 202 like a session export. The file covers the whole training with one lap per set (FIT and TCX laps, PDF and XLSX split rows), and in JSON each work set\'s own summary and `splits` equal-distance splits. A training has one paddler: athlete must be 1 (any other seat is 404). A training not processed yet (queued, processing or failed) is a 409 conflict and queues nothing (docs/exports.md "Trainings").',
  tag: "Exports",
  scopes: ["trainings:read", "exports:create"],
  surfaces: SURFACES,
  pathParams: { training_id: pathId("training_id").describe("training identifier") },
  requestHeaders: { "Idempotency-Key": ZIdempotencyKey },
  body: ZExportRequest,
  response: ZExportJob,
  successStatus: 202,
  successHeaders: ["Location", "Retry-After"],
  errors: {
    409: "idempotency_key_reused: the Idempotency-Key was already used for a different request; conflict: the training is not ready (queued, processing or failed)",
  },
  handler: async (ctx, { params, body, headers }) => {
    const common = exportRequestCommon(ctx, `/trainings/${params.training_id}/exports`, body, headers["Idempotency-Key"]);
    const { job } = await requestTrainingExport(ctx.db, { ...common, trainingId: params.training_id });
    return accepted(job);
  },
});

export const getExport = defineOperation({
  method: "get",
  path: "/exports/{job_id}",
  operationId: "get_export",
  summary: "An export job's status; Retry-After until it is final",
  tag: "Exports",
  scopes: ["exports:create"],
  surfaces: SURFACES,
  pathParams: { job_id: ZJobId },
  response: ZExportJob,
  successHeaders: ["Retry-After"],
  handler: async (ctx, { params }) => {
    const job = await getExportJobFor(ctx.db, requesterOf(ctx), params.job_id, ctx.now);
    return { data: serializeExportJob(job), headers: isFinal(job) ? {} : retryAfter };
  },
});

export const downloadExport = defineOperation({
  method: "get",
  path: "/exports/{job_id}/download",
  operationId: "download_export",
  summary: "The finished export file, identical to the web app's download",
  description: "404 before the job succeeded, after the file expired, and for a job of another application or person.",
  tag: "Exports",
  scopes: ["exports:create"],
  surfaces: SURFACES,
  pathParams: { job_id: ZJobId },
  response: null,
  fileContentTypes: EXPORT_CONTENT_TYPES,
  handler: async (ctx, { params }) => {
    const job = await getExportJobFor(ctx.db, requesterOf(ctx), params.job_id, ctx.now);
    return exportFileResponse(await readExportFile(ctx.db, job));
  },
});

export const exportOperations = [createSessionExport, createTrainingExport, getExport, downloadExport];
