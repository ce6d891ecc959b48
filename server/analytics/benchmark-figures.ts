import { createHash, createHmac } from "node:crypto";

/**
 * How a benchmark cohort's figures are released (docs/analytics.md
 * "Benchmarks: what a published figure reveals"). Pure: the cohort's members
 * and a server secret in, the published figures out.
 *
 * The guarantee is metric differential privacy over one member's best: for
 * two values v and v' of one member's best (everyone else's fixed and known
 * to the attacker), every set of possible answers is at most
 * e^(|v − v'| / λ) times as likely under one as under the other, with
 * λ = BENCHMARK_PROTECTION_MS_PER_M × distance. It holds because
 *  - sorting is 1-Lipschitz in ℓ1 (moving one value by d moves the sorted
 *    vector by at most d in total),
 *  - each published figure is the mean of WINDOW neighbouring ranks, and a
 *    rank sits in at most `m` windows, so the five window means move by at
 *    most m·d / WINDOW in total,
 *  - each gets independent Laplace noise of scale b = m·λ / WINDOW,
 * and everything after the noise (sorting, rounding, faster_than_pct) only
 * reads the noisy figures (post-processing cannot weaken it).
 */

/** No figure leaves from fewer people than this (k-anonymity, before the noise). */
export const BENCHMARK_MIN_PEOPLE = 10;
/** Each published percentile is the mean of this many neighbouring bests (it divides the noise needed by 3). */
export const BENCHMARK_WINDOW = 3;
export const BENCHMARK_PERCENTILES = [10, 25, 50, 75, 90] as const;
/** λ per metre of the benchmark distance, ms: 5 s over 500 m, 2 s over 200 m, 10 s over 1000 m. */
export const BENCHMARK_PROTECTION_MS_PER_M = 10;

export interface CohortMember {
  accountId: number;
  bestMs: number;
}

export interface ReleasedPercentile {
  percentile: number;
  durationMs: number;
}

/** The first rank (0-based, fastest first) of each percentile's window among n sorted bests. */
export function percentileWindows(n: number): number[] {
  return BENCHMARK_PERCENTILES.map((p) => {
    const centre = Math.round((p / 100) * (n - 1));
    return Math.min(Math.max(0, centre - (BENCHMARK_WINDOW >> 1)), n - BENCHMARK_WINDOW);
  });
}

/** The most windows any one rank falls into (2 at 10 people, where windows overlap; 1 once they are disjoint). */
export function windowMultiplicity(n: number): number {
  const count = new Array<number>(n).fill(0);
  for (const from of percentileWindows(n)) for (let r = from; r < from + BENCHMARK_WINDOW; r++) count[r]++;
  return Math.max(...count);
}

/** λ, ms: the distance over which one best's influence on the answers is a factor e. */
export const protectionLengthMs = (distanceM: number) => BENCHMARK_PROTECTION_MS_PER_M * distanceM;

/** Laplace scale of each published figure, ms. */
export const noiseScaleMs = (people: number, distanceM: number) =>
  (windowMultiplicity(people) * protectionLengthMs(distanceM)) / BENCHMARK_WINDOW;

/** What identifies a cohort's state: its boat class, distance, members and their bests. Any change draws new noise. */
export function cohortStateDigest(o: { vesselId: number; distanceM: number; members: CohortMember[] }): string {
  const members = [...o.members].sort((a, b) => a.accountId - b.accountId).map((m) => [m.accountId, m.bestMs]);
  return createHash("sha256")
    .update(JSON.stringify(["benchmark-cohort", 1, o.vesselId, o.distanceM, members]))
    .digest("hex");
}

/**
 * Laplace(0, scale) draws fixed by the secret and the cohort state: asking
 * again returns the same answer, so repeating a request averages nothing out.
 * Each draw comes from 53 bits of an HMAC-SHA256, mapped to the open interval
 * (0, 1) and through the Laplace inverse CDF.
 */
function laplaceDraws(secret: string, digest: string, count: number, scale: number): number[] {
  return Array.from({ length: count }, (_, i) => {
    const bytes = createHmac("sha256", secret).update(`benchmark-noise:1:${digest}:${i}`).digest();
    const u = (Number(bytes.readBigUInt64BE(0) >> 11n) + 0.5) / 2 ** 53;
    const centred = u - 0.5;
    return -scale * Math.sign(centred) * Math.log(1 - 2 * Math.abs(centred));
  });
}

/** The published percentiles of a cohort of at least BENCHMARK_MIN_PEOPLE members. */
export function releasePercentiles(o: {
  vesselId: number;
  distanceM: number;
  members: CohortMember[];
  secret: string;
}): ReleasedPercentile[] {
  const n = o.members.length;
  if (n < BENCHMARK_MIN_PEOPLE) throw new Error(`a benchmark needs ${BENCHMARK_MIN_PEOPLE} members, got ${n}`);
  const times = o.members.map((m) => m.bestMs).sort((a, b) => a - b);
  const noise = laplaceDraws(o.secret, cohortStateDigest(o), BENCHMARK_PERCENTILES.length, noiseScaleMs(n, o.distanceM));
  const noisy = percentileWindows(n).map((from, i) => {
    let sum = 0;
    for (let r = from; r < from + BENCHMARK_WINDOW; r++) sum += times[r];
    return Math.max(1, Math.round(sum / BENCHMARK_WINDOW + noise[i]));
  });
  // Noise can cross neighbours; sorting keeps p10 ≤ … ≤ p90 (post-processing).
  noisy.sort((a, b) => a - b);
  return BENCHMARK_PERCENTILES.map((percentile, i) => ({ percentile, durationMs: noisy[i] }));
}

/**
 * Share of the cohort slower than `durationMs`, percent, read off the
 * published percentiles alone (linear between them, extended along the
 * outer segments, clamped to 0–100). It never looks at the members: a
 * reference session placed just either side of someone's best cannot
 * confirm their rank.
 */
export function fasterThanPct(percentiles: ReleasedPercentile[], durationMs: number): number {
  const pts = percentiles.map((p) => [p.durationMs, p.percentile] as const);
  const along = (a: readonly [number, number], b: readonly [number, number]) => {
    // Two equal figures: a vertical step (outer segments: everything beyond it).
    if (b[0] === a[0]) return durationMs < a[0] ? 0 : durationMs > b[0] ? 100 : (a[1] + b[1]) / 2;
    return a[1] + ((durationMs - a[0]) * (b[1] - a[1])) / (b[0] - a[0]);
  };
  let segment = pts.findIndex((p, i) => i > 0 && durationMs <= p[0]);
  if (segment === -1) segment = pts.length - 1;
  const fasterPct = along(pts[segment - 1], pts[segment]);
  return Math.round(Math.min(100, Math.max(0, 100 - fasterPct)));
}
