import { getEnv } from "../../config/env";

/**
 * Where the authorization server lives and how long its artifacts last
 * (docs/oauth.md "Lifetimes"). Everything public is derived from APP_URL,
 * never from a request's Host header.
 */

/** The Next.js path under which oidc-provider's own routes are served. */
export const OAUTH_MOUNT = "/api/oauth";

/**
 * The issuer identifier is `${APP_URL}/api`: data-api.md puts discovery at
 * /.well-known/openid-configuration/api, which is RFC 8414's well-known form
 * for an issuer whose path is /api.
 */
export function issuerUrl(appUrl = getEnv().appUrl): string {
  return `${appUrl}/api`;
}

/** The Data API resource indicator (RFC 8707): the audience of every API access token. */
export function apiResource(appUrl = getEnv().appUrl): string {
  return `${appUrl}/api/v1`;
}

/**
 * The userinfo endpoint's audience: a token issued with `openid` names it
 * beside the Data API (docs/oauth.md "Tokens, audiences").
 */
export function userinfoAudience(appUrl = getEnv().appUrl): string {
  return `${issuerUrl(appUrl)}/oauth/userinfo`;
}

/**
 * The audiences an access token serves. oidc-provider stores one `aud` per
 * token (it refuses more than one), so the second is a rule, kept here only:
 * a token with no audience is oidc-provider's userinfo token; a token for the
 * Data API that holds `openid` also serves
 * the userinfo endpoint, as Auth0 names both in such a token.
 */
export function tokenAudiences(payload: { aud?: unknown; scope?: unknown }, appUrl = getEnv().appUrl): string[] {
  const userinfo = userinfoAudience(appUrl);
  if (payload.aud === undefined || payload.aud === null) return [userinfo];
  const audiences = (Array.isArray(payload.aud) ? payload.aud : [payload.aud]).filter((a): a is string => typeof a === "string");
  const openid = String(payload.scope ?? "")
    .split(" ")
    .includes("openid");
  return openid && audiences.includes(apiResource(appUrl)) && !audiences.includes(userinfo) ? [...audiences, userinfo] : audiences;
}

/** Our own sign-in and consent pages for an oidc-provider interaction. */
export function interactionPath(uid: string): string {
  return `/oauth/interaction/${uid}`;
}

/** Seconds. Short where a leak matters most; see docs/oauth.md for the reasons. */
export const TTL = {
  /** One exchange, right after the redirect. */
  authorizationCode: 60,
  /** Opaque and checked against the database on every call, so revocation is immediate anyway. */
  accessToken: 10 * 60,
  idToken: 10 * 60,
  /** Idle lifetime of a refresh token; every use rotates it and starts a new one. */
  refreshToken: 14 * 24 * 60 * 60,
  /** A consent lasts a year at most; then the user is asked again. */
  grant: 365 * 24 * 60 * 60,
  /** Time to sign in and decide on the consent screen. */
  interaction: 10 * 60,
  /** The authorization server's own sign-in session (it also follows the site session). */
  session: 14 * 24 * 60 * 60,
} as const;
