import { z } from "zod";
import { getDb, type Db } from "../../db/client";
import { rateLimitHeaders, type RateLimitDecision, type RateLimitPolicy } from "../../rate-limit/rate-limit";
import type { OperationSpec } from "../openapi/build";
import { ApiProblem, describeZodIssue } from "./problem";
import { readBoundedBody } from "../../net/bounded-body";

/**
 * The operation kernel of both public APIs (docs/architecture.md "One
 * operation kernel"). An API is a profile — its credential, its checks per
 * operation, its rate limits, its pagination shape, its error formatter and
 * its document conventions — and each operation is declared once against it:
 * path, method, access, zod schemas, handler. From that one declaration come
 * the route handler, every check in a fixed order, and the operation's entry
 * in the API's OpenAPI document.
 *
 * Order of checks: credential (401) → rate limits (429) → the profile's
 * access rules (403/404) → path and query parameters (400) → handler. The
 * credential and the rate limits are one step, `admit`: a verification an
 * instance made recently is reused and the request counted in one database
 * round trip (server/http/admission.ts).
 */

export type PathSchemas = Record<string, z.ZodType<unknown, string>>;
export type Method = "get" | "post" | "delete";

/** What every handler gets, whatever the API; the profile adds its principal. */
export interface KernelContext {
  db: Db;
  request: Request;
  url: URL;
  requestId: string;
  now: Date;
}

export interface RateLimitCheck {
  bucket: string;
  policy: RateLimitPolicy;
  /** The 429 message when this bucket is the one exceeded. */
  message: string;
}

export interface RouteContext {
  params: Promise<Record<string, string | string[]>>;
}

/** How an API shapes a page: its query parameters and the name and schema of the list meta. */
export interface PagingShape {
  params: z.ZodObject;
  metaKey: string;
  metaSchema: z.ZodType;
}

/** A documented error response of one operation. */
export interface ErrorDoc {
  description: string;
  /** Headers actually sent with this status. */
  headers: string[];
  schema?: z.ZodType;
  /** The same answer for every operation that has it: written once under components/responses with this name. */
  name?: string;
}

export interface ApiProfile<Principal extends object, Access> {
  /**
   * Checks the credential (throws ApiProblem "unauthenticated"; `access` tells what the operation
   * accepts) and counts the request in the buckets of `rateLimits`, returning one decision per
   * bucket in the same order.
   */
  admit(ctx: KernelContext, access: Access): Promise<{ principal: Principal; decisions: RateLimitDecision[] }>;
  rateLimits(principal: Principal, access: Access): RateLimitCheck[];
  /** Access rules beyond the credential (scopes, surfaces …); throws the API's own error. */
  authorize?(principal: Principal, access: Access): void;
  /** The API's one error formatter: any thrown value → status, body, extra headers. */
  formatError(error: unknown, info: { requestId: string }): { status: number; body: unknown; headers?: Record<string, string> };
  newRequestId(): string;
  /** Response headers on every answer (after the request id). */
  baseHeaders?: Record<string, string>;
  /** Response headers on every answer once the credential is known (success, 4xx after admission, 429): e.g. the key's mode. */
  principalHeaders?(principal: Principal): Record<string, string>;
  paging: PagingShape;
  /** Schema of a single success body around `data`. */
  singleEnvelope(data: z.ZodType): z.ZodType;
  document: {
    securitySchemes(access: Access): { security: string[]; scopes?: string[] };
    extensions?(access: Access): Record<string, unknown>;
    describeAccess?(access: Access): string;
    /** The error responses every operation of this API documents, with the headers each actually carries. */
    commonErrors(input: { access: Access; hasInput: boolean; path: string }): Record<number, ErrorDoc>;
    successHeaders: string[];
    errorSchema: z.ZodType;
  };
}

type Output<S extends PathSchemas | undefined> = S extends PathSchemas ? { [K in keyof S]: z.output<S[K]> } : Record<string, never>;
type QueryOutput<Q extends z.ZodObject | undefined, Paged extends boolean, PageParams> = (Q extends z.ZodObject ? z.output<Q> : unknown) &
  (Paged extends true ? PageParams : unknown);

/** A success: `data` (with the list meta when paged, and extra headers such as a 202's Location); 204 has none; or a ready Response (a PDF). */
export type KernelResult =
  { status?: 200 | 201 | 202; data: unknown; meta?: object; headers?: Record<string, string> } | { status: 204 } | Response;

/** Request headers an operation reads, by name; each schema receives undefined when the header is absent. */
export type HeaderSchemas = Record<string, z.ZodType<unknown, string | undefined>>;
type HeaderOutput<H extends HeaderSchemas | undefined> = H extends HeaderSchemas
  ? { [K in keyof H]: z.output<H[K]> }
  : Record<string, never>;
type BodyOutput<B extends z.ZodType | undefined> = B extends z.ZodType ? z.output<B> : undefined;

/** Largest JSON request body an operation reads; a bigger one is a 400 before parsing. */
export const MAX_JSON_BODY_BYTES = 16 * 1024;

export interface KernelDefinition<
  Ctx,
  Access,
  P extends PathSchemas | undefined,
  Q extends z.ZodObject | undefined,
  Paged extends boolean,
  PageParams,
  B extends z.ZodType | undefined = undefined,
  H extends HeaderSchemas | undefined = undefined,
> {
  method: Method;
  /** OpenAPI path template relative to /api/v1, e.g. "/results/{id}". */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  pathParams?: P;
  /** The route folder's name of a path parameter where Next's one-name-per-segment rule makes it differ from the documented one, e.g. {id: "track_id"}. */
  routeParamNames?: Record<string, string>;
  query?: Q;
  paged?: Paged;
  /** A request body, for the document only (the handler reads it: multipart bodies are streamed). */
  body?: { contentType: string; schema: Record<string, unknown> | z.ZodType; description?: string; encoding?: Record<string, unknown> };
  /** A JSON request body the kernel reads (application/json, at most MAX_JSON_BODY_BYTES) and validates; errors name the field. */
  jsonBody?: B;
  /** The JSON body is the request's credential (the replay lease): one that is missing, malformed or invalid is a refused credential (401), not a 400. */
  jsonBodyIsCredential?: boolean;
  /** Request headers the kernel parses for the handler, e.g. {"Idempotency-Key": …}. */
  requestHeaders?: H;
  /** Headers of the document's components the success carries besides the API's own, e.g. ["Location", "Retry-After"]. */
  successHeaders?: string[];
  /** Schema of `data` (of one item when paged); null for 204 or a non-JSON success. */
  response: z.ZodType | null;
  /** A non-JSON success body, e.g. "application/pdf"; or one of several (a file in the format asked for). */
  responseContentType?: string;
  responseContentTypes?: string[];
  successStatus?: 200 | 201 | 202 | 204;
  /** Extra documented statuses with their meaning, e.g. {409: "…"}, or with their own body schema. */
  errors?: Record<number, string | { description: string; schema: z.ZodType }>;
  handler: (
    ctx: Ctx,
    input: { params: Output<P>; query: QueryOutput<Q, Paged, PageParams>; body: BodyOutput<B>; headers: HeaderOutput<H> },
  ) => Promise<KernelResult>;
}

export interface ApiOperation {
  spec: OperationSpec;
  handle: (request: Request, routeContext?: RouteContext) => Promise<Response>;
}

/** Duplicate query parameters are refused rather than guessed at. */
function queryObject(url: URL): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const [name, value] of url.searchParams) {
    if (name in raw) throw new ApiProblem("invalid_request", `${name}: given more than once`);
    raw[name] = value;
  }
  return raw;
}

function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ApiProblem("invalid_request", describeZodIssue(parsed.error));
  return parsed.data;
}

export const isJsonContentType = (request: Request) => /^application\/json\s*(;|$)/i.test(request.headers.get("content-type") ?? "");

/** The request's JSON body: application/json, bounded, valid UTF-8, parsed and validated; errors name the field. */
async function readJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  if (!isJsonContentType(request)) throw new ApiProblem("invalid_request", "body: send JSON with Content-Type: application/json");
  const bytes = await readBoundedBody(request, MAX_JSON_BODY_BYTES);
  if (!bytes) throw new ApiProblem("invalid_request", `body: larger than ${MAX_JSON_BODY_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new ApiProblem("invalid_request", "body: not valid JSON");
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue.code === "unrecognized_keys")
    throw new ApiProblem("invalid_request", `${[...issue.path, issue.keys[0]].join(".")}: unknown field`);
  throw new ApiProblem("invalid_request", issue.path.length ? describeZodIssue(parsed.error) : `body: ${issue.message}`);
}

/** A body that carries the credential and cannot be read: the credential is refused, with what was wrong. */
function asRefusedCredential(error: unknown): unknown {
  return error instanceof ApiProblem && error.kind === "invalid_request"
    ? new ApiProblem("unauthenticated", `The credential in the body is missing or malformed (${error.message})`, true)
    : error;
}

/** The tightest decision: a refusal first, else the fewest remaining. */
function tightest(decisions: RateLimitDecision[]): RateLimitDecision {
  return decisions.find((d) => !d.allowed) ?? decisions.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}

export function createApi<Principal extends object, Access>(
  profile: ApiProfile<Principal, Access>,
  clock: { now: () => Date } = { now: () => new Date() },
) {
  type Ctx = KernelContext & Principal;
  type PageParams = z.output<typeof profile.paging.params>;

  function define<
    P extends PathSchemas | undefined = undefined,
    Q extends z.ZodObject | undefined = undefined,
    Paged extends boolean = false,
    B extends z.ZodType | undefined = undefined,
    H extends HeaderSchemas | undefined = undefined,
  >(def: KernelDefinition<Ctx, Access, P, Q, Paged, PageParams, B, H>): ApiOperation {
    const querySchema = def.paged ? (def.query ? def.query.extend(profile.paging.params.shape) : profile.paging.params) : def.query;
    const strictQuery = querySchema ? (querySchema as z.ZodObject).strict() : z.object({}).strict();

    const handle: ApiOperation["handle"] = async (request, routeContext) => {
      const requestId = profile.newRequestId();
      let headers: Record<string, string> = { "X-Request-Id": requestId, ...profile.baseHeaders };
      try {
        const db = getDb();
        const base: KernelContext = { db, request, url: new URL(request.url), requestId, now: clock.now() };
        const { principal, decisions } = await profile.admit(base, def.access);
        headers = { ...headers, ...profile.principalHeaders?.(principal) };
        if (decisions.length) {
          const checks = profile.rateLimits(principal, def.access);
          const decision = tightest(decisions);
          headers = { ...headers, ...rateLimitHeaders(decision) };
          if (!decision.allowed) throw new ApiProblem("rate_limited", checks[decisions.indexOf(decision)].message);
        }
        profile.authorize?.(principal, def.access);

        const rawParams = routeContext ? await routeContext.params : {};
        const params = {} as Record<string, unknown>;
        for (const [name, schema] of Object.entries((def.pathParams ?? {}) as PathSchemas))
          params[name] = parseOrThrow(schema, rawParams[def.routeParamNames?.[name] ?? name]);
        const query = parseOrThrow(strictQuery, queryObject(base.url));
        const requestHeaders = {} as Record<string, unknown>;
        for (const [name, schema] of Object.entries((def.requestHeaders ?? {}) as HeaderSchemas)) {
          const parsed = schema.safeParse(request.headers.get(name) ?? undefined);
          if (!parsed.success) throw new ApiProblem("invalid_request", `${name}: ${parsed.error.issues[0].message}`);
          requestHeaders[name] = parsed.data;
        }
        const body = def.jsonBody
          ? await readJsonBody(request, def.jsonBody).catch((error) =>
              Promise.reject(def.jsonBodyIsCredential ? asRefusedCredential(error) : error),
            )
          : undefined;

        const ctx = { ...base, ...principal } as Ctx;
        const result = await def.handler(ctx, {
          params: params as Output<P>,
          query: query as QueryOutput<Q, Paged, PageParams>,
          body: body as BodyOutput<B>,
          headers: requestHeaders as HeaderOutput<H>,
        });
        const response =
          result instanceof Response
            ? result
            : "data" in result
              ? Response.json(result.meta ? { data: result.data, [profile.paging.metaKey]: result.meta } : { data: result.data }, {
                  status: result.status ?? def.successStatus ?? 200,
                  headers: result.headers,
                })
              : new Response(null, { status: 204 });
        for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
        return response;
      } catch (error) {
        const formatted = profile.formatError(error, { requestId });
        return Response.json(formatted.body, { status: formatted.status, headers: { ...headers, ...formatted.headers } });
      }
    };

    return { spec: operationSpec(profile, def as unknown as AnyDefinition<Access>, querySchema), handle };
  }

  return { define, profile };
}

type AnyDefinition<Access> = Omit<
  KernelDefinition<unknown, Access, PathSchemas, z.ZodObject, boolean, unknown, z.ZodType | undefined, HeaderSchemas | undefined>,
  "handler"
>;

function operationSpec<Access>(
  profile: ApiProfile<object, Access>,
  def: AnyDefinition<Access>,
  querySchema: z.ZodObject | undefined,
): OperationSpec {
  const doc = profile.document;
  const hasInput =
    Boolean(querySchema) ||
    Object.keys(def.pathParams ?? {}).length > 0 ||
    Boolean(def.jsonBody) ||
    Object.keys(def.requestHeaders ?? {}).length > 0;
  const successSchema =
    def.response === null
      ? undefined
      : def.paged
        ? z.object({ data: z.array(def.response), [profile.paging.metaKey]: profile.paging.metaSchema })
        : profile.singleEnvelope(def.response);
  const responses: OperationSpec["responses"] = {
    [def.successStatus ?? 200]: {
      description: def.summary,
      ...(successSchema
        ? { schema: successSchema }
        : def.responseContentType
          ? { contentType: def.responseContentType }
          : def.responseContentTypes
            ? { contentTypes: def.responseContentTypes }
            : {}),
      headers: [...doc.successHeaders, ...(def.successHeaders ?? [])],
    },
  };
  for (const [status, e] of Object.entries(doc.commonErrors({ access: def.access, hasInput, path: def.path }))) {
    responses[Number(status)] = { description: e.description, schema: e.schema ?? doc.errorSchema, headers: e.headers, name: e.name };
  }
  const rateLimited = responses[429]?.headers ?? doc.successHeaders;
  for (const [status, e] of Object.entries(def.errors ?? {})) {
    const { description, schema } = typeof e === "string" ? { description: e, schema: doc.errorSchema } : e;
    responses[Number(status)] = { description, schema, headers: rateLimited.filter((h) => h !== "Retry-After") };
  }
  const { security, scopes } = doc.securitySchemes(def.access);
  const accessNote = doc.describeAccess?.(def.access);
  return {
    method: def.method,
    path: def.path,
    operationId: def.operationId,
    summary: def.summary,
    description: [def.description, accessNote].filter(Boolean).join("\n\n") || undefined,
    tags: [def.tag],
    security,
    securityScopes: scopes,
    extensions: doc.extensions?.(def.access),
    pathParams: Object.entries(def.pathParams ?? {}).map(([name, schema]) => ({ name, description: schema.description ?? name, schema })),
    query: querySchema,
    headers: Object.entries(def.requestHeaders ?? {}).map(([name, schema]) => ({
      name,
      description: schema.description ?? name,
      required: !schema.safeParse(undefined).success,
      schema,
    })),
    ...(def.body
      ? { requestBody: def.body }
      : def.jsonBody
        ? { requestBody: { contentType: "application/json", schema: def.jsonBody, description: def.jsonBody.description } }
        : {}),
    responses,
  };
}
