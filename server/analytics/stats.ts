/** Small, dependency-free statistics for the analyses (docs/analytics.md). */

export const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

/** Sample standard deviation (n − 1). */
export function sd(xs: readonly number[]): number {
  if (xs.length < 2) return NaN;
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
}

/** Coefficient of variation, percent of the mean. */
export const cvPct = (xs: readonly number[]): number => (100 * sd(xs)) / Math.abs(mean(xs));

export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median absolute deviation from the median. */
export const mad = (xs: readonly number[]): number => {
  const m = median(xs);
  return median(xs.map((x) => Math.abs(x - m)));
};

/** Least-squares line y = intercept + slope·x with Pearson's r; null when x does not vary. */
export function linearFit(xs: readonly number[], ys: readonly number[]): { slope: number; intercept: number; r: number } | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 3) return null;
  const mx = mean(xs.slice(0, n));
  const my = mean(ys.slice(0, n));
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  return { slope, intercept: my - slope * mx, r: syy === 0 ? 0 : sxy / Math.sqrt(sxx * syy) };
}

/** Relative change from `from` to `to`, percent. */
export const changePct = (from: number, to: number): number => (100 * (to - from)) / from;

/** Rounds for output; non-finite values become null (JSON has no NaN). */
export function round(value: number, digits: number): number | null {
  if (!Number.isFinite(value)) return null;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
