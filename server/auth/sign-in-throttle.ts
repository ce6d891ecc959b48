import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { signInThrottle } from "../db/schema";

/**
 * The one sign-in throttle of both doors, the site's sign-in (next-auth
 * credentials) and the OAuth sign-in page (docs/auth.md "Failed sign-ins"):
 * failed sign-ins are counted per account and per client address; after
 * `maxFailures` within `windowSeconds` that account, or that address, is
 * refused sign-in for `lockSeconds`, even with the right password. State is
 * in Postgres so every instance sees the same counters; each update is one
 * atomic statement.
 */
export interface ThrottlePolicy {
  maxFailures: number;
  windowSeconds: number;
  lockSeconds: number;
}

/** Guessing one account's password. */
export const THROTTLE_POLICY = { maxFailures: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 } as const satisfies ThrottlePolicy;
/**
 * Password spraying from one address (one password tried on many accounts):
 * the 31st failure-driven attempt within 5 minutes is refused. High enough
 * for a club sharing one NAT address, low enough to make spraying slow.
 */
export const ADDRESS_THROTTLE_POLICY = { maxFailures: 30, windowSeconds: 5 * 60, lockSeconds: 5 * 60 } as const satisfies ThrottlePolicy;

export type ThrottleScope = "account" | "address";

export function throttleKeyForEmail(email: string): string {
  return `email:${email.trim().toLowerCase()}`;
}

export function throttleKeyForAddress(address: string): string {
  return `address:${address}`;
}

/** Seconds until sign-in is allowed again for this key, or 0. */
export async function secondsUntilSignInAllowed(db: Db, key: string, now = new Date()): Promise<number> {
  const [row] = await db.select({ lockedUntil: signInThrottle.lockedUntil }).from(signInThrottle).where(eq(signInThrottle.key, key));
  return secondsLeft(row?.lockedUntil ?? null, now);
}

const secondsLeft = (lockedUntil: Date | null, now: Date) =>
  lockedUntil ? Math.max(0, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000)) : 0;

/**
 * Whether a sign-in from this address for this email may be tried now: the
 * longer wait of the two locks, and which one it is (the address first: a
 * locked address says nothing about the account). One query.
 */
export async function signInLock(
  db: Db,
  who: { email: string; clientAddress?: string },
  now = new Date(),
): Promise<{ scope: ThrottleScope; retryAfterSeconds: number } | null> {
  const accountKey = throttleKeyForEmail(who.email);
  const addressKey = who.clientAddress ? throttleKeyForAddress(who.clientAddress) : null;
  const rows = await db
    .select({ key: signInThrottle.key, lockedUntil: signInThrottle.lockedUntil })
    .from(signInThrottle)
    .where(inArray(signInThrottle.key, addressKey ? [accountKey, addressKey] : [accountKey]));
  const wait = (key: string | null) => secondsLeft(rows.find((r) => r.key === key)?.lockedUntil ?? null, now);
  const addressWait = wait(addressKey);
  if (addressWait > 0) return { scope: "address", retryAfterSeconds: addressWait };
  const accountWait = wait(accountKey);
  return accountWait > 0 ? { scope: "account", retryAfterSeconds: accountWait } : null;
}

/** Counts a failed sign-in against the account and, when known, the client address. */
export async function recordFailedSignIn(db: Db, who: { email: string; clientAddress?: string }, now = new Date()): Promise<void> {
  await recordSignInFailure(db, throttleKeyForEmail(who.email), THROTTLE_POLICY, now);
  if (who.clientAddress) await recordSignInFailure(db, throttleKeyForAddress(who.clientAddress), ADDRESS_THROTTLE_POLICY, now);
}

export async function recordSignInFailure(db: Db, key: string, policy: ThrottlePolicy = THROTTLE_POLICY, now = new Date()): Promise<void> {
  const { maxFailures, windowSeconds, lockSeconds } = policy;
  const nowIso = now.toISOString();
  // A new window starts when the old one has expired; the lock is set on the
  // failure that reaches the limit.
  await db
    .insert(signInThrottle)
    .values({ key, failures: 1, windowStartedAt: now, lockedUntil: maxFailures <= 1 ? new Date(now.getTime() + lockSeconds * 1000) : null })
    .onConflictDoUpdate({
      target: signInThrottle.key,
      set: {
        failures: sql`case when ${signInThrottle.windowStartedAt} < ${nowIso}::timestamptz - make_interval(secs => ${windowSeconds}) then 1 else ${signInThrottle.failures} + 1 end`,
        windowStartedAt: sql`case when ${signInThrottle.windowStartedAt} < ${nowIso}::timestamptz - make_interval(secs => ${windowSeconds}) then ${nowIso}::timestamptz else ${signInThrottle.windowStartedAt} end`,
        lockedUntil: sql`case when ${signInThrottle.windowStartedAt} >= ${nowIso}::timestamptz - make_interval(secs => ${windowSeconds}) and ${signInThrottle.failures} + 1 >= ${maxFailures} then ${nowIso}::timestamptz + make_interval(secs => ${lockSeconds}) else ${signInThrottle.lockedUntil} end`,
      },
    });
}

/**
 * A successful sign-in clears the account's counter only: clearing the
 * address's would let a sprayer reset it by signing in to an account of
 * their own between guesses.
 */
export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.delete(signInThrottle).where(eq(signInThrottle.key, throttleKeyForEmail(email)));
}
