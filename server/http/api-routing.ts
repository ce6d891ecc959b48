import { PUBLIC_KEY_PREFIX } from "../keys/key-pairs";
import { dataApiErrorResponse } from "./data-api/define-operation";
import type { RouteContext } from "./kernel/define-api";
import { ApiProblem } from "./kernel/problem";
import { resultsApiErrorResponse } from "./results-api/define-operation";

/**
 * How /api/v1 requests reach an operation (docs/architecture.md "One
 * operation kernel"): every route file is `export const { GET, … } =
 * apiRoute(op, …)`, so a method a path does not serve is the kernel's JSON
 * 405 with `Allow`, and app/api/v1/[...path] answers an unknown path with a
 * JSON 404. Both answers take the shape of the API the credential belongs
 * to: a key pair (svcpk_…) → the results API; any other bearer token → the
 * Data API; no credential → the results API's shape (which carries
 * request_id).
 */
type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;
interface RoutableOperation {
  spec?: { method: string };
  method?: string;
  handle: (request: Request, context?: RouteContext) => Promise<Response>;
}

type Credential = "key_pair" | "access_token" | "none";
function credentialOf(request: Request): Credential {
  const match = /^Bearer\s+(\S+)/i.exec(request.headers.get("authorization") ?? "");
  if (!match) return "none";
  return match[1].startsWith(PUBLIC_KEY_PREFIX) ? "key_pair" : "access_token";
}

/** An error outside any operation, in the shape of the API the credential belongs to. */
function answerOutsideOperations(request: Request, problem: ApiProblem, headers: Record<string, string> = {}): Response {
  return credentialOf(request) === "access_token" ? dataApiErrorResponse(problem, headers) : resultsApiErrorResponse(problem, { headers });
}

export function unknownPath(request: Request): Response {
  return answerOutsideOperations(
    request,
    new ApiProblem(
      "not_found",
      `No operation at ${new URL(request.url).pathname}: see /api/docs/results-api.json and /api/docs/data-api.json`,
    ),
  );
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type RouteExports = Record<(typeof METHODS)[number] | "OPTIONS", RouteHandler>;

/** The route file's exports: each operation under its method, a JSON 405 with `Allow` for every other method. */
export function apiRoute(...operations: RoutableOperation[]): RouteExports {
  const byMethod = new Map(operations.map((op) => [(op.spec?.method ?? op.method ?? "get").toUpperCase(), op]));
  const allow = [...byMethod.keys(), ...(byMethod.has("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const methodNotAllowed: RouteHandler = async (request) =>
    answerOutsideOperations(
      request,
      new ApiProblem("method_not_allowed", `${request.method} is not supported on ${new URL(request.url).pathname}; allowed: ${allow}`),
      { Allow: allow },
    );
  // Exported explicitly: Next's automatic OPTIONS would list every exported method, the 405 handlers included.
  const options: RouteHandler = async () => new Response(null, { status: 204, headers: { Allow: allow } });
  return {
    ...Object.fromEntries(METHODS.map((method) => [method, byMethod.get(method)?.handle ?? methodNotAllowed])),
    OPTIONS: options,
  } as RouteExports;
}

/** The catch-all's exports: a JSON 404 for every method. */
export function unknownPathRoute(): RouteExports {
  return Object.fromEntries(
    [...METHODS, "OPTIONS"].map((method) => [method, async (request: Request) => unknownPath(request)]),
  ) as unknown as RouteExports;
}

/**
 * Paths both APIs own (GET /tracks, /tracks/{id}): the credential decides
 * which API answers (docs/data-api.md "One base path, two APIs"). With no
 * credential at all the path cannot tell the APIs apart: the 401 carries
 * both shapes (error, message, error_description, request_id), which both
 * documents declare.
 */
export function byCredential(handlers: { keyPair: RoutableOperation; accessToken: RoutableOperation }): RoutableOperation {
  return {
    method: handlers.keyPair.spec?.method ?? handlers.keyPair.method,
    handle: async (request, context) => {
      const credential = credentialOf(request);
      if (credential === "access_token") return handlers.accessToken.handle(request, context);
      if (credential === "key_pair") return handlers.keyPair.handle(request, context);
      return resultsApiErrorResponse(
        new ApiProblem(
          "unauthenticated",
          "Authorization header missing: send a key pair (Bearer <PUBLIC_KEY>.<SECRET_KEY>) or an OAuth access token",
        ),
        {
          bothShapes: true,
        },
      );
    },
  };
}
