import type { Db } from "../../db/client";
import { consumeRateLimit, rateLimitHeaders, type RateLimitDecision, type RateLimitPolicy } from "../../rate-limit/rate-limit";

/**
 * Rate limits of the authorization server (docs/oauth.md "Rate limits"),
 * counted in Postgres so every instance shares them.
 */
export const OAUTH_LIMITS = {
  /** Token endpoint, per client: code exchanges and refreshes. */
  token: { limit: 60, windowSeconds: 60 },
  /** Introspection, per client. */
  introspection: { limit: 120, windowSeconds: 60 },
  /** Password attempts on one sign-in page (one authorization request). */
  signInPerInteraction: { limit: 10, windowSeconds: 10 * 60 },
  // Failed passwords per client address are the sign-in throttle's (server/auth/sign-in-throttle.ts), shared with the site's sign-in.
} satisfies Record<string, RateLimitPolicy>;

export type RateLimitOutcome =
  { allowed: true; headers: Record<string, string> } | { allowed: false; headers: Record<string, string>; retryAfterSeconds: number };

/** Consumes every bucket; refused when any is exhausted (the tightest one decides the headers). */
export async function consumeAll(db: Db, buckets: [string, RateLimitPolicy][]): Promise<RateLimitOutcome> {
  const decisions: RateLimitDecision[] = [];
  for (const [bucket, policy] of buckets) decisions.push(await consumeRateLimit(db, bucket, policy));
  const refused = decisions.find((d) => !d.allowed);
  const decision = refused ?? decisions.reduce((a, b) => (b.remaining < a.remaining ? b : a));
  const headers = rateLimitHeaders(decision);
  return refused ? { allowed: false, headers, retryAfterSeconds: refused.resetSeconds } : { allowed: true, headers };
}

/** The client_id a token or introspection request names: from HTTP Basic, else from the form body. */
export function requestClientId(authorization: string | null, body: Buffer | null): string | null {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization?.trim() ?? "");
  if (basic) {
    const decoded = Buffer.from(basic[1], "base64").toString("utf8");
    const i = decoded.indexOf(":");
    if (i > 0) {
      try {
        return decodeURIComponent(decoded.slice(0, i).replace(/\+/g, "%20")).slice(0, 100);
      } catch {
        return null;
      }
    }
  }
  if (!body) return null;
  const value = new URLSearchParams(body.toString("utf8")).get("client_id");
  return value ? value.slice(0, 100) : null;
}
