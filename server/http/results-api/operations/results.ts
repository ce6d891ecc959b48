import { z } from "zod";
import { getEnv } from "../../../config/env";
import { IDEMPOTENCY_KEY_MAX_LENGTH, parseIdempotencyKey } from "../../../idempotency/idempotency";
import { uploadOnce } from "../../../idempotency/upload-key";
import { buildResultReport } from "../../../reports/build-result-report";
import { deleteResult } from "../../../results/delete-result";
import { listResultsPage } from "../../../results/query-results";
import { getResultDetail } from "../../../results/result-detail";
import { uploadResult } from "../../../results/upload-result";
import { uploadTransportAllowed } from "../../https";
import { idParam } from "../../kernel/params";
import { maxUploadBytes, readUploadForm } from "../../upload-form";
import {
  ZDeleteResponse,
  ZPdfQuery,
  ZResultDetail,
  ZResultFilters,
  ZResultListItem,
  ZUploadMetadataDoc,
  ZUploadResponse,
} from "../contract";
import { defineResultsOperation, RESULTS_API_LIMITS, ZDuplicateError, ZError } from "../define-operation";
import { ResultsApiError } from "../errors";
import { offsetOf, pageMeta } from "../pagination";
import { serializeResultDetail, serializeResultListItem } from "../serializers";

/** Results (results-api.md "Endpoints"): list, upload, one result, deletion, PDF report. */
const resultId = { id: idParam("id").describe("result identifier") };

export const listResults = defineResultsOperation({
  method: "get",
  path: "/results",
  operationId: "list_results",
  summary: "Paged, filtered list of accessible results",
  tag: "Results",
  access: { auth: "secret" },
  query: ZResultFilters,
  paged: true,
  response: ZResultListItem,
  handler: async (ctx, { query }) => {
    const { rows, total } = await listResultsPage(ctx.db, ctx.user.id, query, query.per_page, offsetOf(query));
    return { data: rows.map(serializeResultListItem), meta: pageMeta(total, query) };
  },
});

export const uploadResultOperation = defineResultsOperation({
  method: "post",
  path: "/results",
  operationId: "upload_result",
  summary: "Upload and process a session file",
  description: [
    "Over HTTPS only. The file is processed in the request; the result, its crew, strokes and derived data are stored in one transaction.",
    `Maximum file size ${maxUploadBytes()} bytes (RESULTS_API_MAX_UPLOAD_BYTES).`,
    "The same file (by SHA-256 of its bytes) uploaded again by the same owner is a 409 naming the existing result.",
    "Send an Idempotency-Key to retry safely: the same key with the same file and metadata within 24 hours answers the first upload's response again (201, same result); the same key with anything else is 409 idempotency_key_reused.",
  ].join(" "),
  tag: "Results",
  access: { auth: "secret", extraLimit: "upload" },
  body: {
    contentType: "multipart/form-data",
    schema: {
      type: "object",
      required: ["file", "metadata"],
      properties: {
        file: { type: "string", contentMediaType: "application/octet-stream", description: "the device file; its name ends in .svc" },
        metadata: {
          ...(z.toJSONSchema(ZUploadMetadataDoc, { target: "draft-2020-12", io: "input" }) as object),
          $schema: undefined,
          description: "a JSON object: a plain form field, or a part with Content-Type application/json",
        },
      },
    },
    encoding: {
      file: { contentType: "application/octet-stream" },
      metadata: { contentType: "application/json, text/plain" },
    },
  },
  requestHeaders: {
    "Idempotency-Key": z
      .string()
      .optional()
      .describe(
        `optional, at most ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters: a retry with the same key, file and metadata within 24 hours answers the first upload's response`,
      ),
  },
  response: ZUploadResponse,
  successStatus: 201,
  errors: {
    403: "forbidden: not over HTTPS, role not allowed, track or athlete not accessible, no active subscription, or too many external athletes",
    409: {
      description:
        "conflict: this owner already uploaded the same file (existing_result_id names its result); or idempotency_key_reused: the Idempotency-Key was used for another upload",
      schema: ZDuplicateError.or(ZError),
    },
    413: "payload_too_large: the file exceeds the maximum size",
    422: "unprocessable_session: not a valid device session, or it cannot be processed",
  },
  handler: async (ctx, { headers }) => {
    if (!uploadTransportAllowed(ctx.request)) throw new ResultsApiError("forbidden", "Uploads must be made over HTTPS");
    if (!ctx.user.canCreateSessions)
      throw new ResultsApiError("forbidden", "Your role does not allow creating sessions (permission accesoNuevo)");
    const key = parseIdempotencyKey(headers["Idempotency-Key"] ?? null);
    const form = await readUploadForm(ctx.request);
    // The same key answers the first upload again, but only for the identical request: same file bytes, name and metadata.
    const { data } = await uploadOnce(
      ctx.db,
      { scope: `results:keypair:${ctx.keyPairId}`, path: "/results", key },
      form,
      (tx, stagedOriginal) =>
        uploadResult(
          tx,
          {
            user: ctx.user,
            createdVia: "api",
            keyPairId: ctx.keyPairId,
            applicationId: ctx.applicationId,
            file: form.file,
            metadata: form.metadata,
          },
          { stagedOriginal },
        ),
    );
    return { status: 201, data };
  },
});

export const getResult = defineResultsOperation({
  method: "get",
  path: "/results/{id}",
  operationId: "get_result",
  summary: "One result with strokes, crew and weather",
  tag: "Results",
  access: { auth: "secret" },
  pathParams: resultId,
  response: ZResultDetail,
  errors: { 404: "not_found: absent or not accessible" },
  handler: async (ctx, { params }) => ({ data: serializeResultDetail(await getResultDetail(ctx.db, ctx.user.id, params.id)) }),
});

export const deleteResultOperation = defineResultsOperation({
  method: "delete",
  path: "/results/{id}",
  operationId: "delete_result",
  summary: "Delete a result with its crew, weather and derived data",
  tag: "Results",
  access: { auth: "secret" },
  pathParams: resultId,
  response: ZDeleteResponse,
  errors: { 403: "forbidden: role not allowed to delete, or not the owner", 404: "not_found: absent or not accessible" },
  handler: async (ctx, { params }) => {
    await deleteResult(ctx.db, ctx.user, params.id);
    return { data: { id: params.id, deleted: true } };
  },
});

export const getResultPdf = defineResultsOperation({
  method: "get",
  path: "/results/{id}/pdf",
  operationId: "get_result_pdf",
  summary: "Compact PDF report with a QR code to a fresh share link",
  tag: "Results",
  access: { auth: "secret", extraLimit: "pdf" },
  pathParams: resultId,
  query: ZPdfQuery,
  response: null,
  responseContentType: "application/pdf",
  errors: { 404: "not_found: absent or not accessible", 422: "unprocessable_session: the report cannot be made from this session" },
  handler: async (ctx, { params, query }) => {
    const { pdf, filename } = await buildResultReport(ctx.db, {
      userId: ctx.user.id,
      resultId: params.id,
      lang: query.lang,
      splits: query.splits,
      appUrl: getEnv().appUrl,
    });
    return new Response(new Uint8Array(pdf), {
      status: 200,
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Cache-Control": "no-store",
      },
    });
  },
});

export const resultOperations = [listResults, uploadResultOperation, getResult, deleteResultOperation, getResultPdf];
export { RESULTS_API_LIMITS };
