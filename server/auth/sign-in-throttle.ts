import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { signInThrottle } from "../db/schema";

/**
 * Failed sign-ins per account: after MAX_FAILURES within WINDOW the account
 * refuses sign-in for LOCK (docs/auth.md). State is in Postgres so every
 * instance sees the same counters; each update is one atomic statement.
 */
export const THROTTLE_POLICY = { maxFailures: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 } as const;

export function throttleKeyForEmail(email: string): string {
  return `email:${email.trim().toLowerCase()}`;
}

/** Seconds until sign-in is allowed again, or 0. */
export async function secondsUntilSignInAllowed(db: Db, key: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ lockedUntil: signInThrottle.lockedUntil })
    .from(signInThrottle)
    .where(eq(signInThrottle.key, key));
  if (!row?.lockedUntil) return 0;
  return Math.max(0, Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000));
}

export async function recordSignInFailure(db: Db, key: string, now = new Date()): Promise<void> {
  const { maxFailures, windowSeconds, lockSeconds } = THROTTLE_POLICY;
  const nowIso = now.toISOString();
  // A new window starts when the old one has expired; the lock is set on the
  // failure that reaches the limit.
  await db
    .insert(signInThrottle)
    .values({ key, failures: 1, windowStartedAt: now })
    .onConflictDoUpdate({
      target: signInThrottle.key,
      set: {
        failures: sql`case when ${signInThrottle.windowStartedAt} < ${nowIso}::timestamptz - make_interval(secs => ${windowSeconds}) then 1 else ${signInThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${signInThrottle.windowStartedAt} < ${nowIso}::timestamptz - make_interval(secs => ${windowSeconds}) then ${nowIso}::timestamptz else ${signInThrottle.windowStartedAt} end`,
        lockedUntil: sql`case when ${signInThrottle.windowStartedAt} >= ${nowIso}::timestamptz - make_interval(secs => ${windowSeconds}) and ${signInThrottle.failures} + 1 >= ${maxFailures} then ${nowIso}::timestamptz + make_interval(secs => ${lockSeconds}) else ${signInThrottle.lockedUntil} end`,
      },
    });
}

export async function clearSignInFailures(db: Db, key: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, key));
}
