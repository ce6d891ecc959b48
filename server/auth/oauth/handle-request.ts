import { getEnv } from "../../config/env";
import { getDb } from "../../db/client";
import { clientIp } from "../../net/client-ip";
import { asNodeResponse, CollectingResponse, toNodeRequest } from "./node-bridge";
import { getProvider } from "./provider";
import { consumeAll, OAUTH_LIMITS, requestClientId } from "./rate-limits";
import { handleUserinfo } from "./userinfo";

/** oidc-provider reads at most 56 KiB of body; anything larger is refused before it. */
const MAX_BODY_BYTES = 56 * 1024;

/**
 * Serves one request under /api/oauth (and the discovery documents rewritten
 * there) with oidc-provider. `segments` are the path segments after /api/oauth.
 */
export async function handleOAuthRequest(request: Request, segments: string[]): Promise<Response> {
  const url = new URL(request.url);
  // Discovery is the provider's "/.well-known/openid-configuration" under the issuer's path (/api);
  // every other route lives under /oauth. next.config.mjs rewrites the public well-known forms here.
  const inner =
    segments[0] === ".well-known"
      ? `/${segments.map(encodeURIComponent).join("/")}`
      : `/oauth/${segments.map(encodeURIComponent).join("/")}`;
  const path = inner + url.search;
  // Our own userinfo on the provider's path: the built-in one refuses tokens that have an audience (server/auth/oauth/userinfo.ts).
  // CORS preflights still go to the provider.
  if (inner === "/oauth/userinfo" && (request.method === "GET" || request.method === "POST"))
    return handleUserinfo(getDb(), request, getEnv().appUrl);

  let body: Buffer | null = null;
  if (request.method !== "GET" && request.method !== "HEAD" && request.body) {
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (declared > MAX_BODY_BYTES) return oauthError(413, "invalid_request", "request body too large");
    body = Buffer.from(await request.arrayBuffer());
    if (body.length > MAX_BODY_BYTES) return oauthError(413, "invalid_request", "request body too large");
  }

  const limited = await applyRateLimit(request, inner, body);
  if (limited instanceof Response) return limited;

  const provider = await getProvider();
  const req = toNodeRequest({
    method: request.method,
    url: path,
    originalUrl: `/api${path}`,
    headers: request.headers,
    body,
    publicOrigin: getEnv().appUrl,
    remoteAddress: clientIp(request.headers),
  });
  const res = new CollectingResponse();
  await provider.callback()(req, asNodeResponse(res));
  await res.done;
  const response = res.toResponse(request.method);
  for (const [name, value] of Object.entries(limited)) response.headers.set(name, value);
  return response;
}

/** Token and introspection requests are limited per client (docs/oauth.md "Rate limits"). */
async function applyRateLimit(request: Request, inner: string, body: Buffer | null): Promise<Record<string, string> | Response> {
  if (request.method !== "POST") return {};
  const kind = inner === "/oauth/token" ? "token" : inner === "/oauth/introspect" ? "introspection" : null;
  if (!kind) return {};
  const clientId = requestClientId(request.headers.get("authorization"), body) ?? "(none)";
  const outcome = await consumeAll(getDb(), [[`oauth-${kind}:client:${clientId}`, OAUTH_LIMITS[kind]]]);
  if (outcome.allowed) return outcome.headers;
  return oauthError(
    429,
    "too_many_requests",
    `rate limit exceeded for this client: ${OAUTH_LIMITS[kind].limit} ${kind} requests per minute`,
    outcome.headers,
  );
}

function oauthError(status: number, error: string, description: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}
