import { randomBytes } from "node:crypto";
import { z } from "zod";
import { getDb, type Db } from "../../db/client";
import { admitAccessToken } from "../admission";
import type { Scope, Surface } from "../../auth/oauth/scopes";
import { rateLimitHeaders, type RateLimitPolicy } from "../../rate-limit/rate-limit";
import type { OperationSpec } from "../openapi/build";
import { bearerChallenge, DataApiError, errorRetryHeaders, dataApiErrorBody, dataApiNotFound, describeZodIssue, toDataApiError } from "./errors";
import { ZPageParams, type PageMeta } from "./pagination";

/**
 * One Data API operation, declared once: its path, scopes, surfaces, request
 * and response schemas, and its handler. The route file exports `.handle`;
 * the OpenAPI document is assembled from `.spec`; so the contract, the checks
 * and the documentation cannot drift apart (docs/data-api.md).
 */

/** Per application and subject; shared by every instance through Postgres. */
export const DATA_API_RATE_LIMIT: RateLimitPolicy = { limit: Number(process.env.DATA_API_RATE_LIMIT ?? 300), windowSeconds: 60 };

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

/** A success body: the envelope `{data, meta}`; 204 has none. */
export type DataApiResult = { status?: 200 | 201 | 202; data: unknown; meta?: object } | { status: 204 } | Response;

/** A positive 32-bit id in a path; the message names the parameter. */
export const pathId = (name: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,9}$/, `${name} must be a positive integer`)
    .transform(Number)
    .refine((n) => n <= 2_147_483_647, `${name} must be a positive integer`)
    .meta({ type: "integer", minimum: 1 } as Record<string, unknown>);

type PathSchemas = Record<string, z.ZodType<unknown, string>>;
type Output<S extends PathSchemas | undefined> = S extends PathSchemas ? { [K in keyof S]: z.output<S[K]> } : Record<string, never>;
type QueryOutput<Q extends z.ZodObject | undefined, Paged extends boolean> = (Q extends z.ZodObject ? z.output<Q> : unknown) &
  (Paged extends true ? z.output<typeof ZPageParams> : unknown);

export interface OperationDefinition<P extends PathSchemas | undefined, Q extends z.ZodObject | undefined, Paged extends boolean> {
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
  /** Schema of `data` (of one item when paged); null for 204. */
  response: z.ZodType | null;
  successStatus?: 200 | 201 | 202 | 204;
  /** Extra documented statuses with their meaning, e.g. {409: "replay artifact missing"}. */
  errors?: Record<number, string>;
  handler: (ctx: DataApiContext, input: { params: Output<P>; query: QueryOutput<Q, Paged> }) => Promise<DataApiResult>;
}

export interface DataApiOperation {
  spec: OperationSpec;
  handle: (request: Request, routeContext?: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
}

function readBearer(header: string | null): string | null {
  const match = /^Bearer ([\x21-\x7e]+)$/i.exec(header?.trim() ?? "");
  return match ? match[1] : null;
}

/** Duplicate query parameters are refused rather than guessed at. */
function queryObject(url: URL): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (name in raw) throw new DataApiError("invalid_request", `${name}: given more than once`);
    raw[name] = value;
  }
  return raw;
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new DataApiError("invalid_request", describeZodIssue(parsed.error));
  return parsed.data;
}

/** An injectable clock for tests of time-bound behaviour (cursor expiry); production uses the wall clock. */
export const dataApiClock = { now: () => new Date() };

export function defineOperation<P extends PathSchemas | undefined = undefined, Q extends z.ZodObject | undefined = undefined, Paged extends boolean = false>(
  def: OperationDefinition<P, Q, Paged>,
): DataApiOperation {
  const querySchema = def.paged ? (def.query ? def.query.extend(ZPageParams.shape) : ZPageParams) : def.query;
  const strictQuery = querySchema ? (querySchema as z.ZodObject).strict() : z.object({}).strict();

  const handle: DataApiOperation["handle"] = async (request, routeContext) => {
    // Not a UUID: the Data API never emits UUID-shaped values (privacy projection), request ids included.
    const requestId = `req_${randomBytes(12).toString("base64url")}`;
    let headers: Record<string, string> = { "X-Request-Id": requestId, "Cache-Control": "no-store" };
    const token = readBearer(request.headers.get("authorization"));
    try {
      const db = getDb();
      const now = dataApiClock.now();
      if (!token) throw new DataApiError("invalid_token", "Bearer access token missing");
      const { verified, decision } = await admitAccessToken(db, token, (v) => ({ bucket: `data:app:${v.applicationId}:user:${v.userId}`, policy: DATA_API_RATE_LIMIT }), now);
      if (!verified.ok || !decision) throw new DataApiError("invalid_token", "The access token is invalid, expired or revoked");
      headers = { ...headers, ...rateLimitHeaders(decision) };
      if (!decision.allowed) throw new DataApiError("rate_limited", `Rate limit exceeded: ${decision.limit} requests per minute for this application and account`);
      // An operation that does not exist on this surface is absent: 404, like an id outside the boundary.
      if (!def.surfaces.includes(verified.surface)) throw dataApiNotFound();
      const scopes = new Set(verified.scopes);
      const missing = def.scopes.filter((s) => !scopes.has(s));
      if (missing.length) throw new DataApiError("insufficient_scope", `This operation needs the scope ${def.scopes.join(" and ")}`, def.scopes.join(" "));

      const url = new URL(request.url);
      const rawParams = routeContext ? await routeContext.params : {};
      const params = {} as Record<string, unknown>;
      for (const [name, schema] of Object.entries((def.pathParams ?? {}) as PathSchemas)) params[name] = parseOrThrow(schema, rawParams[name]);
      const query = parseOrThrow(strictQuery, queryObject(url));

      const ctx: DataApiContext = { db, request, url, requestId, subjectId: verified.userId, applicationId: verified.applicationId, surface: verified.surface, scopes, grantId: verified.grantId, now };
      const result = await def.handler(ctx, { params: params as Output<P>, query: query as QueryOutput<Q, Paged> });
      const response =
        result instanceof Response
          ? result
          : "data" in result
            ? Response.json(result.meta ? { data: result.data, meta: result.meta } : { data: result.data }, { status: result.status ?? def.successStatus ?? 200 })
            : new Response(null, { status: 204 });
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    } catch (error) {
      const apiError = toDataApiError(error);
      const challenge = bearerChallenge(apiError, token !== null);
      return Response.json(dataApiErrorBody(apiError, requestId), {
        status: apiError.status,
        headers: { ...headers, ...errorRetryHeaders(apiError), ...(challenge ? { "WWW-Authenticate": challenge } : {}) },
      });
    }
  };

  return { spec: operationSpec(def as unknown as AnyDefinition, querySchema), handle };
}

export const ZErrorBody = z.object({
  error: z.string().describe("machine-readable code: invalid_request, invalid_token, insufficient_scope, not_found, conflict, rate_limited, server_error, service_unavailable"),
  error_description: z.string().optional().describe("what is wrong, for a developer"),
  scope: z.string().optional().describe("insufficient_scope: the scopes the operation needs, space-separated"),
  request_id: z.string().describe("quote it when reporting a problem"),
});

export const ZPageMeta = z.object({
  next_cursor: z.string().nullable().describe("pass back as `cursor` for the next page; null on the last page"),
  limit: z.number().int().describe("the page size used"),
}) satisfies z.ZodType<PageMeta>;

const RATE_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"];

type AnyDefinition = Omit<OperationDefinition<PathSchemas, z.ZodObject, boolean>, "handler">;

function operationSpec(def: AnyDefinition, querySchema: z.ZodObject | undefined): OperationSpec {
  const err = (description: string) => ({ description, schema: ZErrorBody, headers: RATE_HEADERS });
  const hasInput = Boolean(querySchema) || Object.keys(def.pathParams ?? {}).length > 0;
  const successSchema =
    def.response === null ? undefined : def.paged ? z.object({ data: z.array(def.response), meta: ZPageMeta }) : z.object({ data: def.response, meta: z.record(z.string(), z.unknown()).optional() });
  const responses: OperationSpec["responses"] = {
    [def.successStatus ?? 200]: { description: def.summary, ...(successSchema ? { schema: successSchema } : {}), headers: RATE_HEADERS },
    400: err(hasInput ? "invalid_request: a parameter is unknown, malformed or out of range, or the cursor is altered, expired or from another list or account" : "invalid_request: this operation takes no query parameters"),
    401: { ...err("invalid_token: the bearer token is missing, invalid, expired or revoked"), headers: [...RATE_HEADERS, "WWW-Authenticate"] },
    403: { ...err(`insufficient_scope: the token lacks ${def.scopes.join(" or ")}`), headers: [...RATE_HEADERS, "WWW-Authenticate"] },
    404: err("not_found: absent, outside the token's subject boundary, or not served on the application's surface (indistinguishable)"),
    429: { ...err("rate_limited"), headers: [...RATE_HEADERS, "Retry-After"] },
    500: err("server_error"),
    503: { ...err("service_unavailable: the database connection was lost; retry after Retry-After seconds"), headers: [...RATE_HEADERS, "Retry-After"] },
  };
  for (const [status, description] of Object.entries(def.errors ?? {})) responses[Number(status)] = err(description);
  return {
    method: def.method,
    path: def.path,
    operationId: def.operationId,
    summary: def.summary,
    description: [def.description, `Scopes: ${def.scopes.join(", ") || "none beyond a valid token"}. Surfaces: ${def.surfaces.join(", ")}.`].filter(Boolean).join("\n\n"),
    tags: [def.tag],
    security: ["oauth2"],
    securityScopes: def.scopes,
    extensions: { "x-scopes": def.scopes, "x-surfaces": def.surfaces },
    pathParams: Object.entries(def.pathParams ?? {}).map(([name, schema]) => ({ name, description: schema.description ?? name, schema })),
    query: querySchema,
    responses,
  };
}
