/** Small, allocation-light signal helpers over typed arrays. */

/** Second-order Butterworth low-pass, run forward then backward: no phase delay. */
export function lowPassZeroPhase(input: Float64Array, cutoffHz: number, sampleHz: number): Float64Array {
  const w = Math.tan((Math.PI * cutoffHz) / sampleHz);
  const norm = 1 / (1 + Math.SQRT2 * w + w * w);
  const b0 = w * w * norm;
  const a1 = 2 * (w * w - 1) * norm;
  const a2 = (1 - Math.SQRT2 * w + w * w) * norm;
  const coefficients: BiquadCoefficients = { b0, b1: 2 * b0, b2: b0, a1, a2 };
  const out = new Float64Array(input.length);
  biquadPass(coefficients, input, out, false);
  biquadPass(coefficients, out, out, true);
  return out;
}

interface BiquadCoefficients {
  b0: number;
  b1: number;
  b2: number;
  a1: number;
  a2: number;
}

/**
 * One pass of the filter over `src` into `dst` (may be `src`), forward or backward. A function of
 * the module, not a closure made per call: a new closure starts cold, and its loop ran unoptimized
 * (boxing every sample) until compiled anew for each filter of each recording.
 */
function biquadPass({ b0, b1, b2, a1, a2 }: BiquadCoefficients, src: Float64Array, dst: Float64Array, reverse: boolean) {
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
}

/** Prefix sums of a series (length n + 1, from 0): every window mean of `movingAverage` comes from them. */
export function prefixSums(input: Float64Array): Float64Array {
  const prefix = new Float64Array(input.length + 1);
  for (let i = 0; i < input.length; i++) prefix[i + 1] = prefix[i] + input[i];
  return prefix;
}

/**
 * One value of `movingAverage(input, window)`, at sample i, from the input's prefix sums: the
 * same arithmetic, so a caller that needs a few samples of a long series reads them without it.
 */
export function windowMean(prefix: Float64Array, window: number, i: number): number {
  const half = Math.floor(window / 2);
  const lo = Math.max(0, i - half);
  const hi = Math.min(prefix.length - 1, i + half + 1);
  return (prefix[hi] - prefix[lo]) / (hi - lo);
}

/** Centered moving average over `window` samples (odd), edges shrink. `prefix`: the input's `prefixSums`, when the caller has them. */
export function movingAverage(input: Float64Array, window: number, prefix: Float64Array = prefixSums(input)): Float64Array {
  const half = Math.floor(window / 2);
  const n = input.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - half);
    const hi = Math.min(n, i + half + 1);
    out[i] = (prefix[hi] - prefix[lo]) / (hi - lo);
  }
  return out;
}

/**
 * p-th percentile (0–100) of the values: the element a sorted copy holds at that rank, found by
 * selection in linear time (sorting a two-hour recording's 720,000 samples cost more than the
 * filters that made them).
 */
export function percentile(values: Float64Array | number[], p: number): number {
  if (values.length === 0) return NaN;
  const rank = Math.min(values.length - 1, Math.max(0, Math.round((p / 100) * (values.length - 1))));
  return orderStatistic(Float64Array.from(values), rank);
}

/**
 * The value at `rank` (0-based) of the values in ascending order: exactly what
 * `values.slice().sort()[rank]` gives for a Float64Array (NaN last, −0 before +0), in linear
 * expected time. Reorders `values`: pass a copy.
 */
export function orderStatistic(values: Float64Array, rank: number): number {
  // NaN sorts last: move every NaN to the end and select among the numbers.
  let end = values.length;
  for (let i = 0; i < end; i++) {
    if (Number.isNaN(values[i])) {
      end--;
      values[i] = values[end];
      values[end] = NaN;
      i--;
    }
  }
  if (rank >= end) return NaN;
  let lo = 0;
  let hi = end - 1;
  // Quickselect with a median-of-three pivot; a range that has not converged after 2·log2(n)
  // rounds (a hostile order) is sorted instead, so the worst case stays n·log n.
  let rounds = 2 * Math.ceil(Math.log2(end + 1)) + 8;
  while (hi > lo) {
    if (rounds-- === 0) {
      values.subarray(lo, hi + 1).sort();
      break;
    }
    const mid = lo + ((hi - lo) >> 1);
    if (values[mid] < values[lo]) swap(values, mid, lo);
    if (values[hi] < values[lo]) swap(values, hi, lo);
    if (values[hi] < values[mid]) swap(values, hi, mid);
    const pivot = values[mid];
    // Hoare partition: [lo, j] ≤ pivot ≤ [i, hi], and what lies between equals the pivot.
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i] < pivot) i++;
      while (values[j] > pivot) j--;
      if (i <= j) {
        swap(values, i, j);
        i++;
        j--;
      }
    }
    if (rank <= j) hi = j;
    else if (rank >= i) lo = i;
    else break;
  }
  return signedZero(values, values[rank], rank, end);
}

/** Selection cannot tell −0 from +0 (they compare equal); the sort puts every −0 first. */
function signedZero(values: Float64Array, value: number, rank: number, end: number): number {
  if (value !== 0) return value;
  let below = 0;
  for (let i = 0; i < end; i++) if (values[i] < 0 || Object.is(values[i], -0)) below++;
  return rank < below ? -0 : 0;
}

function swap(values: Float64Array, a: number, b: number) {
  const t = values[a];
  values[a] = values[b];
  values[b] = t;
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
