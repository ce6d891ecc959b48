import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimitCounters } from "../db/schema";

/**
 * Fixed-window rate limiting in Postgres: one atomic upsert per request, so
 * every instance shares the count and no request is lost to a race.
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

export async function consumeRateLimit(db: Db, bucket: string, policy: RateLimitPolicy, now = new Date()): Promise<RateLimitDecision> {
  const windowMs = policy.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ bucket, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitCounters.bucket, rateLimitCounters.windowStart],
      set: { count: sql`${rateLimitCounters.count} + 1` },
    })
    .returning({ count: rateLimitCounters.count });
  const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  // Expired windows of this bucket are removed now and then, by the request that opens a new one.
  if (row.count === 1) {
    await db.delete(rateLimitCounters).where(and(eq(rateLimitCounters.bucket, bucket), lt(rateLimitCounters.windowStart, windowStart)));
  }
  return {
    allowed: row.count <= policy.limit,
    limit: policy.limit,
    remaining: Math.max(0, policy.limit - row.count),
    resetSeconds,
  };
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
