import { z } from "zod";
import { getEnv } from "../../config/env";
import type { Db } from "../../db/client";
import { apiResource } from "../../auth/oauth/config";
import type { Scope, Surface } from "../../auth/oauth/scopes";
import type { RateLimitPolicy } from "../../rate-limit/rate-limit";
import { admitAccessToken } from "../admission";
import { createApi, type ApiOperation, type HeaderSchemas, type KernelResult, type PathSchemas } from "../kernel/define-api";
import { idParam } from "../kernel/params";
import { ApiProblem } from "../kernel/problem";
import { newRequestId, ZRequestId } from "../request-id";
import { bearerChallenge, DataApiError, dataApiErrorBody, dataApiNotFound, errorRetryHeaders, toDataApiError } from "./errors";
import { ZPageParams, type PageMeta } from "./pagination";

/**
 * One Data API operation, declared once: its path, scopes, surfaces, request
 * and response schemas, and its handler. The route file passes it to
 * `apiRoute` (server/http/api-routing.ts); the OpenAPI document is
 * assembled from `.spec`; so the contract, the checks and the documentation
 * cannot drift apart (docs/data-api.md). This file is
 * the Data API's profile on the shared operation kernel (server/http/kernel):
 * OAuth bearer tokens, scopes and surfaces, cursor pages, and the
 * `{error, error_description, scope?, request_id}` formatter.
 */

/** Per application and subject; shared by every instance through Postgres (DATA_API_RATE_LIMIT, server/config/env.ts). */
export const DATA_API_RATE_LIMIT: RateLimitPolicy = {
  get limit() {
    return getEnv().DATA_API_RATE_LIMIT;
  },
  windowSeconds: 60,
};

export interface DataApiContext {
  db: Db;
  request: Request;
  url: URL;
  requestId: string;
  /** The authorizing person (the token's subject). */
  subjectId: number;
  applicationId: number;
  /** The calling application's registered surface. */
  surface: Surface;
  /** Scopes of the token, narrowed to what the grant still holds. */
  scopes: ReadonlySet<string>;
  grantId: string;
  now: Date;
}

/** A success body: the envelope `{data, meta}` (with extra headers, e.g. a 202's Location); 204 has none. */
export type DataApiResult = KernelResult;

/** A positive 32-bit id in a path; the message names the parameter. */
export const pathId = (name: string) => idParam(name);

type Output<S extends PathSchemas | undefined> = S extends PathSchemas ? { [K in keyof S]: z.output<S[K]> } : Record<string, never>;
type QueryOutput<Q extends z.ZodObject | undefined, Paged extends boolean> = (Q extends z.ZodObject ? z.output<Q> : unknown) &
  (Paged extends true ? z.output<typeof ZPageParams> : unknown);

type HeaderOutput<H extends HeaderSchemas | undefined> = H extends HeaderSchemas
  ? { [K in keyof H]: z.output<H[K]> }
  : Record<string, never>;

export interface OperationDefinition<
  P extends PathSchemas | undefined,
  Q extends z.ZodObject | undefined,
  Paged extends boolean,
  B extends z.ZodType | undefined = undefined,
  H extends HeaderSchemas | undefined = undefined,
> {
  method: "get" | "post" | "delete";
  /** OpenAPI path template relative to /api/v1, e.g. "/sessions/{session_id}". */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** Every one of these is needed; a token without one gets 403 insufficient_scope. */
  scopes: Scope[];
  /** Surfaces that serve the operation; on any other the answer is 404. */
  surfaces: readonly Surface[];
  pathParams?: P;
  query?: Q;
  /** A cursor-paged list: adds `cursor` and `limit` and the list meta. */
  paged?: Paged;
  /** JSON request body (application/json, at most 16 KiB); a bad one is a 400 naming the field. */
  body?: B;
  /** A request body the handler reads itself (documented only), e.g. a workout template inspected with JSON paths. */
  documentedBody?: { contentType: string; schema: Record<string, unknown>; description?: string };
  /** Request headers by name (e.g. "Idempotency-Key"); the schema receives undefined when absent. */
  requestHeaders?: H;
  /** Schema of `data` (of one item when paged); null for 204 or a file. */
  response: z.ZodType | null;
  /** The success body is a file of one of these content types, not the envelope. */
  fileContentTypes?: string[];
  /** Headers the success response carries (names from the document's components), e.g. ["Location", "Retry-After"]. */
  successHeaders?: string[];
  successStatus?: 200 | 201 | 202 | 204;
  /** Extra documented statuses with their meaning, e.g. {409: "replay artifact missing"}, or with their own body schema. */
  errors?: Record<number, string | { description: string; schema: z.ZodType }>;
  handler: (
    ctx: DataApiContext,
    input: {
      params: Output<P>;
      query: QueryOutput<Q, Paged>;
      body: B extends z.ZodType ? z.output<B> : undefined;
      headers: HeaderOutput<H>;
    },
  ) => Promise<DataApiResult>;
}

export type DataApiOperation = ApiOperation;

/** A live token of ours for another audience, e.g. the userinfo endpoint's (docs/oauth.md "Tokens, audiences"). */
const wrongAudience = () =>
  `The access token's audience is not the Data API: ask for a token whose audience is ${apiResource()} (request a Data API scope, or send resource=${apiResource()})`;

/** An injectable clock for tests of time-bound behaviour (cursor expiry); production uses the wall clock. */
export const dataApiClock = { now: () => new Date() };

export const ZErrorBody = z.object({
  error: z
    .string()
    .describe(
      "machine-readable code: invalid_request, invalid_token, insufficient_scope, origin_not_approved, not_found, method_not_allowed, conflict, idempotency_key_reused, replay_artifact_unavailable, rate_limited, server_error, service_unavailable",
    ),
  error_description: z.string().optional().describe("what is wrong, for a developer"),
  scope: z.string().optional().describe("insufficient_scope: the scopes the operation needs, space-separated"),
  request_id: ZRequestId.describe("req_ and 22 base62 characters, the same as the X-Request-Id header; quote it when reporting a problem"),
});

/** GET /tracks and /tracks/{id} without any credential: one body both documents accept (docs/data-api.md). */
export const ZAnonymousSharedErrorBody = ZErrorBody.extend({
  error_description: z.string().describe("what is wrong, for a developer"),
  message: z.string().describe("the same, under the results API's name"),
});

export const ZPageMeta = z.object({
  next_cursor: z.string().nullable().describe("pass back as `cursor` for the next page; null on the last page"),
  limit: z.number().int().describe("the page size used"),
}) satisfies z.ZodType<PageMeta>;

interface DataPrincipal {
  subjectId: number;
  applicationId: number;
  surface: Surface;
  scopes: ReadonlySet<string>;
  grantId: string;
}
interface DataAccess {
  scopes: Scope[];
  surfaces: readonly Surface[];
}

/** Per application and person: every Data API request counts here. */
const dataApiBucket = (applicationId: number, userId: number) => ({
  bucket: `data:app:${applicationId}:user:${userId}`,
  policy: DATA_API_RATE_LIMIT,
});

function readBearer(header: string | null): string | null {
  const match = /^Bearer ([\x21-\x7e]+)$/i.exec(header?.trim() ?? "");
  return match ? match[1] : null;
}

const RATE_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"];
/** Before the rate limit is counted (a refused credential) only the request id goes out. */
const UNCOUNTED_HEADERS = ["X-Request-Id"];
const SHARED_PATHS = new Set(["/tracks", "/tracks/{track_id}"]);

const dataApi = createApi<DataPrincipal, DataAccess>(
  {
    async admit(ctx) {
      const token = readBearer(ctx.request.headers.get("authorization"));
      if (!token) throw new ApiProblem("unauthenticated", "Bearer access token missing");
      const { verified, decision } = await admitAccessToken(ctx.db, token, (v) => dataApiBucket(v.applicationId, v.userId), ctx.now);
      if (!verified.ok || !decision)
        throw new ApiProblem(
          "unauthenticated",
          !verified.ok && verified.reason === "wrong_audience" ? wrongAudience() : "The access token is invalid, expired or revoked",
          true,
        );
      return {
        principal: {
          subjectId: verified.userId,
          applicationId: verified.applicationId,
          surface: verified.surface,
          scopes: new Set(verified.scopes),
          grantId: verified.grantId,
        },
        decisions: [decision],
      };
    },
    rateLimits: (principal) => [
      {
        ...dataApiBucket(principal.applicationId, principal.subjectId),
        message: `Rate limit exceeded: ${DATA_API_RATE_LIMIT.limit} requests per minute for this application and account`,
      },
    ],
    authorize(principal, access) {
      // An operation that does not exist on this surface is absent: 404, like an id outside the boundary.
      if (!access.surfaces.includes(principal.surface)) throw dataApiNotFound();
      const missing = access.scopes.filter((s) => !principal.scopes.has(s));
      if (missing.length)
        throw new DataApiError(
          "insufficient_scope",
          `This operation needs the scope ${access.scopes.join(" and ")}`,
          access.scopes.join(" "),
        );
    },
    formatError(error, { requestId }) {
      const apiError = toDataApiError(error);
      const challenge = bearerChallenge(apiError, error instanceof ApiProblem ? error.credentialSent : true);
      return {
        status: apiError.status,
        body: dataApiErrorBody(apiError, requestId),
        headers: { ...(challenge ? { "WWW-Authenticate": challenge } : {}), ...errorRetryHeaders(apiError) },
      };
    },
    newRequestId,
    baseHeaders: { "Cache-Control": "no-store" },
    paging: { params: ZPageParams, metaKey: "meta", metaSchema: ZPageMeta },
    singleEnvelope: (data) => z.object({ data, meta: z.record(z.string(), z.unknown()).optional() }),
    document: {
      securitySchemes: (access) => ({ security: ["oauth2"], scopes: access.scopes }),
      extensions: (access) => ({ "x-scopes": access.scopes, "x-surfaces": access.surfaces }),
      describeAccess: (access) =>
        `Scopes: ${access.scopes.join(", ") || "none beyond a valid token"}. Surfaces: ${access.surfaces.join(", ")}.`,
      successHeaders: RATE_HEADERS,
      errorSchema: ZErrorBody,
      commonErrors: ({ access, hasInput, path }) => ({
        400: {
          description: hasInput
            ? "invalid_request: a parameter is unknown, malformed or out of range (integers beyond their column's range, text with NUL or unpaired surrogates, impossible dates included), or the cursor is altered, expired or from another list or account"
            : "invalid_request: this operation takes no query parameters",
          headers: RATE_HEADERS,
          name: hasInput ? "InvalidRequest" : "NoParameters",
        },
        401: SHARED_PATHS.has(path)
          ? {
              description:
                "invalid_token: the bearer token is missing, invalid, expired, revoked or for another audience. With no credential at all this path cannot tell the two APIs apart: the body then carries both shapes (error, message, error_description, request_id)",
              schema: ZErrorBody.or(ZAnonymousSharedErrorBody),
              headers: [...UNCOUNTED_HEADERS, "WWW-Authenticate"],
            }
          : {
              description: "invalid_token: the bearer token is missing, invalid, expired, revoked or for another audience",
              headers: [...UNCOUNTED_HEADERS, "WWW-Authenticate"],
              name: "InvalidToken",
            },
        403: {
          description: `insufficient_scope: the token lacks ${access.scopes.join(" or ")}`,
          headers: [...RATE_HEADERS, "WWW-Authenticate"],
        },
        404: {
          description:
            "not_found: absent, outside the token's subject boundary, or not served on the application's surface (indistinguishable)",
          headers: RATE_HEADERS,
          name: "NotFound",
        },
        429: { description: "rate_limited", headers: [...RATE_HEADERS, "Retry-After"], name: "RateLimited" },
        500: { description: "server_error", headers: RATE_HEADERS, name: "ServerError" },
        503: {
          description: "service_unavailable: the database connection was lost; retry after Retry-After seconds",
          headers: [...UNCOUNTED_HEADERS, "Retry-After"],
          name: "ServiceUnavailable",
        },
      }),
    },
  },
  dataApiClock,
);

export function defineOperation<
  P extends PathSchemas | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  Paged extends boolean = false,
  B extends z.ZodType | undefined = undefined,
  H extends HeaderSchemas | undefined = undefined,
>(def: OperationDefinition<P, Q, Paged, B, H>): DataApiOperation {
  const { scopes, surfaces, handler, body, documentedBody, fileContentTypes, ...rest } = def;
  return dataApi.define<P, Q, Paged, B, H>({
    ...rest,
    jsonBody: body,
    body: documentedBody,
    responseContentTypes: fileContentTypes,
    access: { scopes, surfaces },
    handler: (ctx, input) => handler(ctx, input as Parameters<typeof handler>[1]),
  });
}

/** The Data API's error formatter, for answers outside an operation (unknown paths, methods: server/http/api-routing.ts). */
export function dataApiErrorResponse(error: DataApiError | ApiProblem, headers: Record<string, string> = {}): Response {
  const requestId = newRequestId();
  const apiError = toDataApiError(error);
  return Response.json(dataApiErrorBody(apiError, requestId), {
    status: apiError.status,
    headers: { "X-Request-Id": requestId, "Cache-Control": "no-store", ...headers },
  });
}
