import { z } from "zod";
import type { Surface } from "../../auth/oauth/scopes";
import {
  createApi,
  type ApiOperation,
  type ErrorDoc,
  type KernelContext,
  type KernelDefinition,
  type PathSchemas,
} from "../kernel/define-api";
import { newRequestId } from "../request-id";
import { ZErrorBody, ZPageMeta } from "./define-operation";
import { dataApiErrorBody, errorRetryHeaders, toDataApiError } from "./errors";
import { ZPageParams } from "./pagination";

/**
 * The Data API's operations that take no OAuth token, only a single-purpose
 * credential of their own (docs/replay.md): a replay artifact's token in the
 * path, the player's lease in the body. A second profile on the same kernel
 * as `defineOperation`, so they get the same request id, error body,
 * `no-store`, parameter checks, body reading and document entry; what
 * differs is the credential (none to admit, no rate limit: the credential is
 * single-use or bound to one embed) and the 401 challenge (`Lease`).
 */
interface TokenAccess {
  /** Surfaces whose applications make embeds (x-surfaces in the document). */
  surfaces: readonly Surface[];
  /** Where the credential is: the path (unknown is the operation's 404) or the JSON body (refused is a 401). */
  credential: "path" | "body";
}

const SENT_HEADERS = ["X-Request-Id"];
const LEASE_REFUSED: ErrorDoc = {
  description: "invalid_token: the credential in the body is missing, malformed, invalid, expired or revoked",
  headers: ["WWW-Authenticate", ...SENT_HEADERS],
};

const tokenApi = createApi<object, TokenAccess>({
  admit: async () => ({ principal: {}, decisions: [] }),
  rateLimits: () => [],
  formatError(error, { requestId }) {
    const apiError = toDataApiError(error);
    // 401 comes only from /svcsim/leases, whose credential is not a bearer token.
    const challenge: Record<string, string> = apiError.status === 401 ? { "WWW-Authenticate": `Lease realm="svcsim"` } : {};
    return {
      status: apiError.status,
      body: dataApiErrorBody(apiError, requestId),
      headers: { ...challenge, ...errorRetryHeaders(apiError) },
    };
  },
  newRequestId,
  baseHeaders: { "Cache-Control": "no-store" },
  paging: { params: ZPageParams, metaKey: "meta", metaSchema: ZPageMeta },
  singleEnvelope: (data) => z.object({ data }),
  document: {
    securitySchemes: () => ({ security: [] }),
    extensions: (access) => ({ "x-scopes": [], "x-surfaces": [...access.surfaces] }),
    successHeaders: SENT_HEADERS,
    errorSchema: ZErrorBody,
    commonErrors: ({ access, path }) => {
      const errors: Record<number, ErrorDoc> = {
        // A path that is not valid percent-encoded UTF-8 never reaches the route (proxy.ts).
        400: {
          description: `invalid_request: ${path.includes("{") ? "the path is not valid percent-encoded UTF-8, or " : ""}a query parameter was sent (this operation takes none)`,
          headers: SENT_HEADERS,
        },
        500: { description: "server_error", headers: SENT_HEADERS },
        503: {
          description: "service_unavailable: the database connection was lost; retry after Retry-After seconds",
          headers: [...SENT_HEADERS, "Retry-After"],
        },
      };
      if (access.credential === "body") errors[401] = LEASE_REFUSED;
      return errors;
    },
  },
});

type TokenDefinition<P extends PathSchemas | undefined, B extends z.ZodType | undefined> = Omit<
  KernelDefinition<KernelContext, TokenAccess, P, undefined, false, unknown, B, undefined>,
  "access" | "query" | "paged" | "requestHeaders" | "jsonBodyIsCredential"
> &
  TokenAccess;

export function defineTokenOperation<P extends PathSchemas | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  def: TokenDefinition<P, B>,
): ApiOperation {
  const { surfaces, credential, ...rest } = def;
  return tokenApi.define<P, undefined, false, B, undefined>({
    ...rest,
    access: { surfaces, credential },
    jsonBodyIsCredential: credential === "body",
  });
}
