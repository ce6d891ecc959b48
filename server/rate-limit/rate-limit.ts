import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

/**
 * Fixed-window rate limiting in Postgres: one atomic upsert per request
 * (the SQL function rate_limit_hit, drizzle/0015), so every instance shares
 * the count and no request is lost to a race. The upsert's commit does not
 * wait for the WAL flush: a crash may forget the last fraction of a second of
 * counts, never miscount while running (docs/architecture.md "Rate limits").
 *
 * Why not a library: the maintained Postgres stores (rate-limiter-flexible)
 * need the `pg` driver, and we run on postgres.js or PGlite behind drizzle.
 */
export interface RateLimitPolicy {
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (for Retry-After and X-RateLimit-Reset). */
  resetSeconds: number;
}

export interface RateLimitHit {
  decision: RateLimitDecision;
  /** The credential epoch read in the same statement (server/http/admission.ts). */
  credentialEpoch: number;
}

/** Counts one request in `bucket`'s current window; also returns the credential epoch, in the same round trip. */
export async function hitRateLimit(db: Db, bucket: string, policy: RateLimitPolicy, now = new Date()): Promise<RateLimitHit> {
  const windowMs = policy.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  // db.execute, not a select builder: this statement writes, so it is never retried (server/db/client.ts).
  const result: unknown = await db.execute(
    sql`select hits, credential_epoch from rate_limit_hit(${bucket}, ${windowStart.toISOString()}::timestamptz)`,
  );
  // postgres.js returns the rows; PGlite a result object holding them.
  const [row] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    hits: number;
    credential_epoch: string | number;
  }[];
  const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return {
    decision: { allowed: row.hits <= policy.limit, limit: policy.limit, remaining: Math.max(0, policy.limit - row.hits), resetSeconds },
    credentialEpoch: Number(row.credential_epoch),
  };
}

export async function consumeRateLimit(db: Db, bucket: string, policy: RateLimitPolicy, now = new Date()): Promise<RateLimitDecision> {
  return (await hitRateLimit(db, bucket, policy, now)).decision;
}

/** Standard response headers for a decision (sent on every response of a limited API). */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(decision.limit),
    "X-RateLimit-Remaining": String(decision.remaining),
    "X-RateLimit-Reset": String(decision.resetSeconds),
  };
  if (!decision.allowed) headers["Retry-After"] = String(decision.resetSeconds);
  return headers;
}
