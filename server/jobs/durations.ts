/**
 * Time arithmetic of the embedded runner: retry backoff, the end of a
 * step.sleep, and the delay a RetryAfterError asks for.
 */

/** Delay before retry number `attempt` (1 = first retry). */
export type RetryBackoff = (attempt: number) => number;

/**
 * Exponential backoff with jitter, bounded: 2 s, 8 s, 32 s, 2 min 8 s, then
 * at most 10 min. Quick enough that a passing glitch clears within a minute,
 * slow enough that a dependency outage does not burn every retry at once.
 */
export const defaultRetryBackoff: RetryBackoff = (attempt) => {
  const base = Math.min(2_000 * 4 ** Math.max(0, attempt - 1), 10 * 60_000);
  // ±20 % so runs that failed together do not all retry in the same instant.
  return Math.round(base * (0.8 + Math.random() * 0.4));
};

const unitMs: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 };

/**
 * When a sleep op ends. The SDK encodes `step.sleep` durations as "1d2h3m4s"
 * and `step.sleepUntil` times as ISO 8601.
 */
export function sleepEndsAt(encoded: string, now = Date.now()): Date {
  if (/^(\d+[wdhms])+$/.test(encoded)) {
    let total = 0;
    for (const [, amount, unit] of encoded.matchAll(/(\d+)([wdhms])/g)) total += Number(amount) * unitMs[unit];
    return new Date(now + total);
  }
  const at = Date.parse(encoded);
  if (Number.isNaN(at)) throw new Error(`Unreadable sleep duration or time: "${encoded}"`);
  return new Date(at);
}

/** When a RetryAfterError's retry may start: it carries seconds ("30") or an ISO time. */
export function retryAfterAt(retryAfter: string, now = Date.now()): Date {
  if (/^\d+$/.test(retryAfter)) return new Date(now + Number(retryAfter) * 1_000);
  const at = Date.parse(retryAfter);
  return Number.isNaN(at) ? new Date(now) : new Date(at);
}
