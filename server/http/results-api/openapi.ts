import { buildOpenApiDocument } from "../openapi/build";
import { HEALTH_CHECK_SPEC } from "../kernel/health";
import { REQUEST_ID_PATTERN } from "../request-id";
import { KEY_MODE_HEADER, RESULTS_API_LIMITS } from "./define-operation";
import { referenceTableOperations } from "./operations/reference";
import { resultOperations } from "./operations/results";
import { rosterOperations } from "./operations/roster";
import { RESULTS_API_MODELS } from "./models";
import { PER_PAGE_DEFAULT, PER_PAGE_MAX } from "./pagination";
import type { ApiOperation } from "../kernel/define-api";

/** Every results API operation (16 with GET /health); the OpenAPI document and the tests iterate over this list. */
export const RESULTS_API_OPERATIONS: ApiOperation[] = [...resultOperations, ...referenceTableOperations, ...rosterOperations];

/** The results API's OpenAPI 3.1 document, assembled from the operations' own declarations. */
export function resultsApiDocument(appUrl: string) {
  return buildOpenApiDocument({
    title: "Paddle Results — results API",
    version: "1.0.0",
    description: [
      "Key-pair API: upload and read results, reference tables, tracks and athletes.",
      `Pages: page (default 1) and per_page (default ${PER_PAGE_DEFAULT}, capped at ${PER_PAGE_MAX}).`,
      "Errors: {error, message, request_id}; request_id repeats the X-Request-Id header. Every response under /api/v1 is JSON: an unknown path is a 404, an unsupported method a 405 with Allow.",
      `Rate limit: ${RESULTS_API_LIMITS.general.limit} requests per minute per key.`,
    ].join("\n\n"),
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
      "X-Request-Id": {
        description: "the request's id: req_ and 22 base62 characters, also in error bodies",
        schema: { type: "string", pattern: REQUEST_ID_PATTERN.source },
      },
      "WWW-Authenticate": { description: "bearer challenge", schema: { type: "string" } },
      [KEY_MODE_HEADER]: {
        description:
          "the key's mode: test for a sandbox person's key pair (it reaches only that simulated person's data), live for any other",
        schema: { type: "string", enum: ["test", "live"] },
      },
    },
    models: RESULTS_API_MODELS,
    operations: [...RESULTS_API_OPERATIONS.map((op) => op.spec), HEALTH_CHECK_SPEC("Service")],
  });
}
