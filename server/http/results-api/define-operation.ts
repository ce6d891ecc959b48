import { z } from "zod";
import { getEnv } from "../../config/env";
import type { Db } from "../../db/client";
import { parseKeyPairAuthorization, type KeyMode, type KeyPairVerification } from "../../keys/key-pairs";
import type { RateLimitPolicy } from "../../rate-limit/rate-limit";
import type { SessionUser } from "../../users/users";
import { createApi, type ApiOperation, type HeaderSchemas, type KernelDefinition, type PathSchemas } from "../kernel/define-api";
import { ApiProblem } from "../kernel/problem";
import { admitKeyPair } from "../admission";
import { newRequestId, ZRequestId } from "../request-id";
import { errorBody, errorRetryHeaders, toResultsApiError } from "./errors";
import { ZPageQuery, ZPagination, type PageQuery } from "./pagination";

/**
 * The results API's profile on the operation kernel (server/http/kernel):
 * key-pair credentials (the full pair, or the bare public key on reference
 * endpoints), per-key rate limits with stricter buckets for the CPU-heavy
 * endpoints, page/per_page pages, and the `{error, message, request_id}`
 * formatter. Each operation is one `defineResultsOperation({...})` in
 * `operations/`; routes, checks and the OpenAPI document come from it.
 */

/**
 * Rate limits per key (docs/results-api.md). Every request counts against the
 * general limit; the two CPU-intensive endpoints also have their own.
 */
const policy = (read: () => number): RateLimitPolicy => ({
  get limit() {
    return read();
  },
  windowSeconds: 60,
});
export const RESULTS_API_LIMITS = {
  general: policy(() => getEnv().RESULTS_API_RATE_LIMIT),
  upload: policy(() => getEnv().RESULTS_API_UPLOAD_RATE_LIMIT),
  pdf: policy(() => getEnv().RESULTS_API_PDF_RATE_LIMIT),
};

export interface KeyPairContext {
  db: Db;
  request: Request;
  url: URL;
  requestId: string;
  now: Date;
  user: SessionUser;
  keyPairId: number;
  applicationId: number | null;
  /** "test" for a sandbox person's key (docs/sandbox.md "Test keys"), else "live"; sent as Paddle-Key-Mode. */
  keyMode: KeyMode;
}

export interface KeyPairAccess {
  /** "secret": Bearer PUBLIC.SECRET; "public": the bare public key is enough (reference endpoints). */
  auth: "secret" | "public";
  /** An extra, stricter per-key limit for CPU-intensive endpoints. */
  extraLimit?: "upload" | "pdf";
}

type Principal = Pick<KeyPairContext, "user" | "keyPairId" | "applicationId" | "keyMode">;
const principalOf = (v: Extract<KeyPairVerification, { ok: true }>): Principal => ({
  user: v.user,
  keyPairId: v.keyPairId,
  applicationId: v.applicationId,
  keyMode: v.mode,
});

/** The response header naming the key's mode (docs/results-api.md "Test and live keys"). */
export const KEY_MODE_HEADER = "Paddle-Key-Mode";

export const ZError = z.object({
  error: z.string().describe("machine-readable code"),
  message: z.string().describe("the exact problem"),
  request_id: ZRequestId.describe("req_ and 22 base62 characters, the X-Request-Id of this answer; quote it when reporting a problem"),
});
/** 409 of POST /results: the same file was uploaded before. */
export const ZDuplicateError = ZError.extend({ existing_result_id: z.number().int().describe("the result made from the same file") });
/** GET /tracks and /tracks/{id} without any credential: one body both documents accept. */
export const ZAnonymousSharedError = ZError.extend({
  error_description: z.string().describe("the same as message, under the Data API's name"),
});

const RATE_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id", KEY_MODE_HEADER];
const SHARED_PATHS = new Set(["/tracks", "/tracks/{id}"]);

const resultsApi = createApi<Principal, KeyPairAccess>({
  async admit(ctx, access) {
    const credential = parseKeyPairAuthorization(ctx.request.headers.get("authorization"));
    if (!credential) throw new ApiProblem("unauthenticated", "Authorization header missing: send Bearer <PUBLIC_KEY>.<SECRET_KEY>");
    const { verified, decisions } = await admitKeyPair(
      ctx.db,
      credential,
      access.auth === "secret",
      (v) => resultsApi.profile.rateLimits(principalOf(v), access),
      ctx.now,
    );
    if (!verified.ok) {
      throw new ApiProblem(
        "unauthenticated",
        verified.code === "secret_required"
          ? "Secret key not supplied: this endpoint needs Bearer <PUBLIC_KEY>.<SECRET_KEY>"
          : "Public or secret key invalid",
        true,
      );
    }
    return { principal: principalOf(verified), decisions };
  },
  principalHeaders: (principal) => ({ [KEY_MODE_HEADER]: principal.keyMode }),
  rateLimits: (principal, access) => [
    {
      bucket: `results:key:${principal.keyPairId}`,
      policy: RESULTS_API_LIMITS.general,
      message: `Rate limit exceeded for this key: ${RESULTS_API_LIMITS.general.limit} requests per minute`,
    },
    ...(access.extraLimit
      ? [
          {
            bucket: `results-${access.extraLimit}:key:${principal.keyPairId}`,
            policy: RESULTS_API_LIMITS[access.extraLimit],
            message: `Rate limit exceeded for this key: ${RESULTS_API_LIMITS[access.extraLimit].limit} requests per minute on this endpoint`,
          },
        ]
      : []),
  ],
  formatError(error, { requestId }) {
    const apiError = toResultsApiError(error);
    return {
      status: apiError.status,
      body: errorBody(apiError, requestId),
      headers: { ...(apiError.status === 401 ? { "WWW-Authenticate": 'Bearer realm="results-api"' } : {}), ...errorRetryHeaders(apiError) },
    };
  },
  newRequestId,
  paging: { params: ZPageQuery, metaKey: "pagination", metaSchema: ZPagination },
  singleEnvelope: (data) => z.object({ data }),
  document: {
    securitySchemes: (access) => ({ security: access.auth === "public" ? ["keyPair", "publicKey"] : ["keyPair"] }),
    describeAccess: (access) =>
      [
        access.auth === "public"
          ? "Credential: the key pair, or the bare public key."
          : "Credential: the key pair (public and secret key).",
        access.extraLimit
          ? `Also limited to ${RESULTS_API_LIMITS[access.extraLimit].limit} requests per minute per key on this endpoint.`
          : "",
      ]
        .filter(Boolean)
        .join(" "),
    successHeaders: RATE_HEADERS,
    errorSchema: ZError,
    commonErrors: ({ hasInput, path }) => ({
      400: {
        description: hasInput
          ? "invalid_request: a parameter is unknown, repeated, malformed or out of range (integers beyond their column's range, text with NUL or unpaired surrogates, impossible dates included)"
          : "invalid_request: this operation takes no query parameters",
        headers: RATE_HEADERS,
        name: hasInput ? "InvalidRequest" : "NoParameters",
      },
      401: SHARED_PATHS.has(path)
        ? {
            description:
              "unauthorized: missing or invalid credentials. With no credential at all this path cannot tell the two APIs apart: the body then also carries error_description",
            schema: ZError.or(ZAnonymousSharedError),
            headers: ["X-Request-Id", "WWW-Authenticate"],
          }
        : {
            description: "unauthorized: missing or invalid credentials",
            headers: ["X-Request-Id", "WWW-Authenticate"],
            name: "Unauthorized",
          },
      429: { description: "rate_limited: over the per-key limit", headers: [...RATE_HEADERS, "Retry-After"], name: "RateLimited" },
      500: { description: "internal_error", headers: RATE_HEADERS, name: "InternalError" },
      503: {
        description: "service_unavailable: the database connection was lost; retry after Retry-After seconds",
        headers: ["X-Request-Id", "Retry-After"],
        name: "ServiceUnavailable",
      },
    }),
  },
});

type Output<S extends PathSchemas | undefined> = S extends PathSchemas ? { [K in keyof S]: z.output<S[K]> } : Record<string, never>;
type QueryOutput<Q extends z.ZodObject | undefined, Paged extends boolean> = (Q extends z.ZodObject ? z.output<Q> : unknown) &
  (Paged extends true ? PageQuery : unknown);

type HeaderOutput<H extends HeaderSchemas | undefined> = H extends HeaderSchemas
  ? { [K in keyof H]: z.output<H[K]> }
  : Record<string, never>;

export type ResultsOperationDefinition<
  P extends PathSchemas | undefined,
  Q extends z.ZodObject | undefined,
  Paged extends boolean,
  H extends HeaderSchemas | undefined = undefined,
> = Omit<KernelDefinition<KeyPairContext, KeyPairAccess, P, Q, Paged, PageQuery, undefined, H>, "handler"> & {
  handler: (
    ctx: KeyPairContext,
    input: { params: Output<P>; query: QueryOutput<Q, Paged>; headers: HeaderOutput<H> },
  ) => ReturnType<KernelDefinition<KeyPairContext, KeyPairAccess, P, Q, Paged, PageQuery>["handler"]>;
};

export function defineResultsOperation<
  P extends PathSchemas | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  Paged extends boolean = false,
  H extends HeaderSchemas | undefined = undefined,
>(def: ResultsOperationDefinition<P, Q, Paged, H>): ApiOperation {
  const { handler, ...rest } = def;
  return resultsApi.define<P, Q, Paged, undefined, H>({
    ...rest,
    handler: (ctx, input) => handler(ctx, input as Parameters<typeof handler>[1]),
  });
}

/** The results API's error formatter, for answers outside an operation (unknown paths and methods, server/http/api-routing.ts). */
export function resultsApiErrorResponse(
  error: unknown,
  options: { headers?: Record<string, string>; bothShapes?: boolean } = {},
): Response {
  const requestId = newRequestId();
  const formatted = resultsApi.profile.formatError(error, { requestId });
  const body = formatted.body as Record<string, unknown>;
  return Response.json(options.bothShapes ? { ...body, error_description: body.message } : body, {
    status: formatted.status,
    headers: { "X-Request-Id": requestId, ...formatted.headers, ...options.headers },
  });
}
