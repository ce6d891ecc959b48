import { SCOPE_INFO, type Scope } from "../../auth/oauth/scopes";
import { buildOpenApiDocument } from "../openapi/build";
import { REQUEST_ID_PATTERN } from "../request-id";
import { HEALTH_CHECK_SPEC } from "../kernel/health";
import { DATA_API_RATE_LIMIT, type DataApiOperation } from "./define-operation";
import { analyticsOperations } from "./operations/analytics";
import { devicesOperations } from "./operations/devices";
import { embedOperations, LAUNCH_REPLAY_EMBED_SPEC } from "./operations/embeds";
import { equipmentOperations } from "./operations/equipment";
import { exportOperations } from "./operations/exports";
import { identityOperations } from "./operations/identity";
import { recordsHealthOperations } from "./operations/records-health";
import { rosterOperations } from "./operations/roster";
import { sessionOperations } from "./operations/sessions";
import { trainingOperations } from "./operations/trainings";
import { workoutOperations } from "./operations/workouts";
import { DATA_API_MODELS } from "./models";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "./pagination";
import { WEBHOOK_SECURITY_SCHEME, webhooksOpenApi } from "../../webhooks/openapi";

/** Every Data API operation; the OpenAPI document and the tests iterate over this list. */
export const DATA_API_OPERATIONS: DataApiOperation[] = [
  ...identityOperations,
  ...sessionOperations,
  ...trainingOperations,
  ...analyticsOperations,
  ...rosterOperations,
  ...equipmentOperations,
  ...recordsHealthOperations,
  ...devicesOperations,
  ...embedOperations,
  ...exportOperations,
  ...workoutOperations,
];

/** The Data API's OpenAPI 3.1 document, assembled from the operations' own schemas. */
export function dataApiDocument(appUrl: string) {
  const scopes = Object.fromEntries(
    Object.entries(SCOPE_INFO).map(([scope, info]) => [scope, `${info.description} (surfaces: ${info.surfaces.join(", ")})`]),
  ) as Record<Scope, string>;
  const document = buildOpenApiDocument({
    title: "Paddle Results — Data API",
    version: "1.0.0",
    description: [
      "Read-only OAuth 2.1 API over one authorized person's data. Authorization code with PKCE (S256) only; send `Authorization: Bearer <access token>`.",
      `Success bodies are the envelope {data, meta}; lists are cursor-paged: pass meta.next_cursor back as cursor (bound to the list, its filters and the person; valid 24 hours). limit is 1 to ${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_DEFAULT}.`,
      "Errors are {error, error_description, scope?, request_id}. An id that does not exist and one outside the token's subject boundary are the same 404; so is an operation the application's surface does not serve. Every response under /api/v1 is JSON: an unknown path is a 404, an unsupported method a 405 with Allow.",
      `Each operation lists its scopes (x-scopes) and surfaces (x-surfaces). Rate limit: ${DATA_API_RATE_LIMIT.limit} requests per minute per application and person.`,
    ].join("\n\n"),
    serverUrl: `${appUrl}/api/v1`,
    securitySchemes: {
      oauth2: {
        type: "oauth2",
        description: "Authorization code with PKCE (S256). Discovery: /.well-known/openid-configuration/api",
        flows: {
          authorizationCode: {
            authorizationUrl: `${appUrl}/api/oauth/authorize`,
            tokenUrl: `${appUrl}/api/oauth/token`,
            refreshUrl: `${appUrl}/api/oauth/token`,
            scopes,
          },
        },
      },
      ...WEBHOOK_SECURITY_SCHEME,
    },
    headers: {
      "X-RateLimit-Limit": { description: "requests allowed in the window", schema: { type: "integer" } },
      "X-RateLimit-Remaining": { description: "requests left in the window", schema: { type: "integer" } },
      "X-RateLimit-Reset": { description: "seconds until the window resets", schema: { type: "integer" } },
      "Retry-After": { description: "seconds to wait before retrying (or before polling a job again)", schema: { type: "integer" } },
      Location: { description: "URL of the created job's status document, to poll", schema: { type: "string", format: "uri" } },
      "X-Request-Id": {
        description: "the request's id: req_ and 22 base62 characters, also in error bodies",
        schema: { type: "string", pattern: REQUEST_ID_PATTERN.source },
      },
      "WWW-Authenticate": { description: "RFC 6750 bearer challenge", schema: { type: "string" } },
    },
    models: DATA_API_MODELS,
    operations: [
      ...DATA_API_OPERATIONS.map((op) => op.spec),
      LAUNCH_REPLAY_EMBED_SPEC,
      HEALTH_CHECK_SPEC("Identity", { "x-scopes": [], "x-surfaces": ["data"] }),
    ],
  });
  // Signed webhooks are an additive extension of v1 (docs/webhooks.md): what the application's endpoints receive.
  return { ...document, webhooks: webhooksOpenApi() };
}
