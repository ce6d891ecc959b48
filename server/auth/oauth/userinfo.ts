import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { oauthApplications } from "../../db/schema";
import { getSubjectIdentity } from "../../identity/identity";
import { issuerUrl, userinfoAudience } from "./config";
import { verifyAccessToken } from "./verify-access-token";

/**
 * GET|POST /api/oauth/userinfo (OpenID Connect Core §5.3), served by us on
 * oidc-provider's path. The built-in endpoint refuses every token that has an
 * audience, so a standard OIDC client, whose token is a Data API token with
 * `openid` (docs/oauth.md "Tokens, audiences"), could not call it. Here the
 * token must name the userinfo endpoint among its audiences (the same check
 * the Data API makes for its own), hold `openid`, and be live in every way
 * the Data API requires (grant, application, account). Claims follow the
 * granted scopes: `sub` (pairwise, as in the ID token), `name` with
 * `profile`, `email` and `email_verified` with `email`.
 */
export async function handleUserinfo(db: Db, request: Request, appUrl: string): Promise<Response> {
  const realm = issuerUrl(appUrl);
  const token = bearerToken(request.headers.get("authorization"));
  if (!token) return challenge(realm, 401, "invalid_token", "no access token provided: send Authorization: Bearer ACCESS_TOKEN");
  const verified = await verifyAccessToken(db, token, new Date(), userinfoAudience(appUrl), appUrl);
  if (!verified.ok) {
    const description =
      verified.reason === "wrong_audience"
        ? "this access token was not issued for the userinfo endpoint: request it with the openid scope"
        : "invalid token provided: expired, revoked or unknown";
    return challenge(realm, 401, "invalid_token", description);
  }
  const scopes = new Set(verified.scopes);
  if (!scopes.has("openid")) return challenge(realm, 403, "insufficient_scope", "access token missing openid scope", "openid");

  const [identity, [app]] = await Promise.all([
    getSubjectIdentity(db, verified.userId, verified.applicationId),
    db
      .select({ redirectUris: oauthApplications.redirectUris })
      .from(oauthApplications)
      .where(eq(oauthApplications.id, verified.applicationId)),
  ]);
  const claims: Record<string, unknown> = { sub: identity.sub };
  if (scopes.has("profile")) claims.name = identity.name;
  // The service does not verify addresses (docs/oauth.md "OpenID Connect conformance").
  if (scopes.has("email")) Object.assign(claims, { email: identity.email, email_verified: false });
  return Response.json(claims, { headers: { "Cache-Control": "no-store", ...corsHeaders(request, app?.redirectUris ?? []) } });
}

/** `Bearer <token>`, the scheme case-insensitive; tokens in the query or body are not accepted (docs/oauth.md). */
function bearerToken(header: string | null): string | null {
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header ?? "");
  return match ? match[1] : null;
}

/** RFC 6750 §3: the error in the body and in the challenge. */
function challenge(realm: string, status: 401 | 403, error: string, description: string, scope?: string): Response {
  const params = [`realm="${realm}"`, `error="${error}"`, `error_description="${description}"`, ...(scope ? [`scope="${scope}"`] : [])];
  return Response.json(
    { error, error_description: description },
    { status, headers: { "WWW-Authenticate": `Bearer ${params.join(", ")}`, "Cache-Control": "no-store" } },
  );
}

/** Browser clients may call userinfo from one of their redirect URIs' origins (as oidc-provider's clientBasedCORS allowed). */
function corsHeaders(request: Request, redirectUris: string[]): Record<string, string> {
  const origin = request.headers.get("origin");
  if (!origin || !redirectUris.some((uri) => URL.parse(uri)?.origin === origin)) return {};
  return { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": "WWW-Authenticate", Vary: "Origin" };
}
