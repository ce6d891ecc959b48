import { z } from "zod";
import { buildOpenApiDocument, type OperationSpec } from "../openapi/build";
import {
  pagedOf,
  single,
  ZAthlete,
  ZAthletesQuery,
  ZDeleteResponse,
  ZError,
  ZHealth,
  ZNamed,
  ZPdfQuery,
  ZResultDetail,
  ZResultListItem,
  ZResultsQuery,
  ZUploadMetadataDoc,
  ZUploadResponse,
  ZVessel,
} from "./contract";
import { MAX_UPLOAD_BYTES } from "./limits";
import { PER_PAGE_MAX } from "./pagination";
import { ZPageQuery } from "./pagination";
import { RESULTS_API_LIMITS } from "./with-key-pair";

const RATE_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
const err = (description: string) => ({ description, schema: ZError, headers: RATE_HEADERS });
const common = { 401: err("missing or invalid credentials"), 429: { ...err("rate limit exceeded"), headers: [...RATE_HEADERS, "Retry-After"] }, 500: err("internal error"), 503: { ...err("the database connection was lost; retry after Retry-After seconds"), headers: [...RATE_HEADERS, "Retry-After"] } };
const idParam = [{ name: "id", description: "identifier" }];

function referenceOps(kind: "vessels" | "categories" | "paces", item: z.ZodType, label: string): OperationSpec[] {
  return [
    { method: "get", path: `/${kind}`, operationId: `list_${kind}`, summary: `Paged ${label} list`, tags: ["Reference"], security: ["keyPair", "publicKey"], query: ZPageQuery, responses: { 200: { description: "a page", schema: pagedOf(item), headers: RATE_HEADERS }, 400: err("invalid parameter"), ...common } },
    { method: "get", path: `/${kind}/{id}`, operationId: `get_${kind}`, summary: `One ${label}`, tags: ["Reference"], security: ["keyPair", "publicKey"], pathParams: idParam, responses: { 200: { description: "the item", schema: single(item), headers: RATE_HEADERS }, 400: err("invalid id"), 404: err("absent"), ...common } },
  ];
}

const operations: OperationSpec[] = [
  { method: "get", path: "/results", operationId: "list_results", summary: "Paged, filtered list of accessible results", tags: ["Results"], security: ["keyPair"], query: ZResultsQuery, responses: { 200: { description: "a page of results", schema: pagedOf(ZResultListItem), headers: RATE_HEADERS }, 400: err("invalid parameter"), ...common } },
  {
    method: "post",
    path: "/results",
    operationId: "upload_result",
    summary: "Upload and process a session file",
    description: `Over HTTPS only. The file is processed in the request; the result, its crew, strokes and derived data are stored in one transaction. Maximum file size ${MAX_UPLOAD_BYTES} bytes. Per-key limit ${RESULTS_API_LIMITS.upload.limit} uploads per minute.`,
    tags: ["Results"],
    security: ["keyPair"],
    requestBody: {
      contentType: "multipart/form-data",
      schema: {
        type: "object",
        required: ["file", "metadata"],
        properties: {
          file: { type: "string", contentMediaType: "application/octet-stream", description: "the device file; its name ends in .svc" },
          metadata: { ...(z.toJSONSchema(ZUploadMetadataDoc, { target: "draft-2020-12" }) as object), $schema: undefined, description: "a JSON object, sent as a string" },
        },
      },
    },
    responses: {
      201: { description: "stored and processed", schema: single(ZUploadResponse), headers: RATE_HEADERS },
      400: err("invalid file part or metadata"),
      403: err("not over HTTPS, role not allowed, track or athlete not accessible, no active subscription, or too many external athletes"),
      413: err("file exceeds the maximum size"),
      422: err("not a valid device session, or it cannot be processed"),
      ...common,
    },
  },
  { method: "get", path: "/results/{id}", operationId: "get_result", summary: "One result with strokes, crew and weather", tags: ["Results"], security: ["keyPair"], pathParams: idParam, responses: { 200: { description: "the result", schema: single(ZResultDetail), headers: RATE_HEADERS }, 400: err("invalid id"), 404: err("absent or not accessible"), ...common } },
  { method: "delete", path: "/results/{id}", operationId: "delete_result", summary: "Delete a result with its crew, weather and derived data", tags: ["Results"], security: ["keyPair"], pathParams: idParam, responses: { 200: { description: "deleted", schema: single(ZDeleteResponse), headers: RATE_HEADERS }, 400: err("invalid id"), 403: err("role not allowed to delete, or not the owner"), 404: err("absent or not accessible"), ...common } },
  { method: "get", path: "/results/{id}/pdf", operationId: "get_result_pdf", summary: "Compact PDF report with a QR code to a fresh share link", tags: ["Results"], security: ["keyPair"], pathParams: idParam, query: ZPdfQuery, responses: { 200: { description: "the report, as an attachment", contentType: "application/pdf", headers: RATE_HEADERS }, 400: err("invalid splits or lang"), 404: err("absent or not accessible"), 422: err("the report cannot be made from this session"), ...common } },
  ...referenceOps("vessels", ZVessel, "vessel type"),
  ...referenceOps("categories", ZNamed, "category"),
  ...referenceOps("paces", ZNamed, "pace"),
  { method: "get", path: "/tracks", operationId: "list_tracks", summary: "Paged tracks the user can access", tags: ["Roster"], security: ["keyPair"], query: ZPageQuery, responses: { 200: { description: "a page", schema: pagedOf(ZNamed), headers: RATE_HEADERS }, 400: err("invalid parameter"), ...common } },
  { method: "get", path: "/tracks/{id}", operationId: "get_track", summary: "One accessible track", tags: ["Roster"], security: ["keyPair"], pathParams: idParam, responses: { 200: { description: "the track", schema: single(ZNamed), headers: RATE_HEADERS }, 400: err("invalid id"), 404: err("absent or not accessible"), ...common } },
  { method: "get", path: "/athletes", operationId: "list_athletes", summary: "Paged athletes the user can access", tags: ["Roster"], security: ["keyPair"], query: ZAthletesQuery, responses: { 200: { description: "a page", schema: pagedOf(ZAthlete), headers: RATE_HEADERS }, 400: err("invalid parameter"), ...common } },
  { method: "get", path: "/athletes/{id}", operationId: "get_athlete", summary: "One accessible athlete", tags: ["Roster"], security: ["keyPair"], pathParams: idParam, responses: { 200: { description: "the athlete", schema: single(ZAthlete), headers: RATE_HEADERS }, 400: err("invalid id"), 404: err("absent or not accessible"), ...common } },
  { method: "get", path: "/health", operationId: "health", summary: "Health check", tags: ["Service"], security: [], responses: { 200: { description: "service healthy", schema: ZHealth }, 503: { description: "database unreachable", schema: z.object({ status: z.literal("unavailable"), data: z.object({ status: z.literal("unavailable") }) }) } } },
];

export function resultsApiDocument(appUrl: string) {
  return buildOpenApiDocument({
    title: "Paddle Results — results API",
    version: "1.0.0",
    description: `Key-pair API: upload and read results, reference tables, tracks and athletes. Pages: page (default 1) and per_page (default 20, capped at ${PER_PAGE_MAX}). Errors: {error, message}. Rate limit: ${RESULTS_API_LIMITS.general.limit} requests per minute per key.`,
    serverUrl: `${appUrl}/api/v1`,
    securitySchemes: {
      keyPair: { type: "http", scheme: "bearer", description: "Bearer <PUBLIC_KEY>.<SECRET_KEY>" },
      publicKey: { type: "http", scheme: "bearer", description: "Bearer <PUBLIC_KEY> (reference endpoints only)" },
    },
    headers: {
      "X-RateLimit-Limit": { description: "requests allowed in the window", schema: { type: "integer" } },
      "X-RateLimit-Remaining": { description: "requests left in the window", schema: { type: "integer" } },
      "X-RateLimit-Reset": { description: "seconds until the window resets", schema: { type: "integer" } },
      "Retry-After": { description: "seconds to wait before retrying", schema: { type: "integer" } },
    },
    operations,
  });
}
