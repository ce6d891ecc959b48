/** Small, allocation-light signal helpers over typed arrays. */

/** Second-order Butterworth low-pass, run forward then backward: no phase delay. */
export function lowPassZeroPhase(input: Float64Array, cutoffHz: number, sampleHz: number): Float64Array {
  const w = Math.tan((Math.PI * cutoffHz) / sampleHz);
  const norm = 1 / (1 + Math.SQRT2 * w + w * w);
  const b0 = w * w * norm;
  const b1 = 2 * b0;
  const b2 = b0;
  const a1 = 2 * (w * w - 1) * norm;
  const a2 = (1 - Math.SQRT2 * w + w * w) * norm;
  const out = new Float64Array(input.length);
  const pass = (src: Float64Array, dst: Float64Array, reverse: boolean) => {
    const n = src.length;
    if (n === 0) return;
    const first = reverse ? src[n - 1] : src[0];
    let x1 = first;
    let x2 = first;
    let y1 = first;
    let y2 = first;
    for (let k = 0; k < n; k++) {
      const i = reverse ? n - 1 - k : k;
      const x0 = src[i];
      const y0 = b0 * x0 + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
      dst[i] = y0;
      x2 = x1;
      x1 = x0;
      y2 = y1;
      y1 = y0;
    }
  };
  pass(input, out, false);
  pass(out, out, true);
  return out;
}

/** Centered moving average over `window` samples (odd), edges shrink. */
export function movingAverage(input: Float64Array, window: number): Float64Array {
  const half = Math.floor(window / 2);
  const n = input.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + input[i];
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - half);
    const hi = Math.min(n, i + half + 1);
    out[i] = (prefix[hi] - prefix[lo]) / (hi - lo);
  }
  return out;
}

/** p-th percentile (0–100) of the values, by sorting a copy. */
export function percentile(values: Float64Array | number[], p: number): number {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))))];
}

/** Value of a sampled series at a fractional sample index, linear between samples. */
export function sampleAt(series: Float64Array, index: number): number {
  if (index <= 0) return series[0];
  const last = series.length - 1;
  if (index >= last) return series[last];
  const i = Math.floor(index);
  return series[i] + (series[i + 1] - series[i]) * (index - i);
}

/** Fractional index where a non-decreasing series first reaches `value` (binary search). */
export function indexAtValue(series: Float64Array, value: number, from = 0): number {
  let lo = from;
  let hi = series.length - 1;
  if (series[hi] < value) return Number.NaN;
  if (series[lo] >= value) return lo;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (series[mid] < value) lo = mid;
    else hi = mid;
  }
  const span = series[hi] - series[lo];
  return lo + (span > 0 ? (value - series[lo]) / span : 0);
}
