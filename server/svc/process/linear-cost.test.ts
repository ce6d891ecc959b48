import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { movingAverage, orderStatistic, percentile, prefixSums, windowMean } from "./filters";
import { summarize } from "./metrics";
import { VarianceWalk } from "./speed";

/**
 * The pieces that keep processing linear in the recording's length (docs/processing.md "Cost
 * linear in the recording's length") give exactly what the code they replaced gave.
 */

/** What `percentile` was: the element at the rank of a sorted copy. */
const sortedPercentile = (values: number[], p: number) => {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round((p / 100) * (sorted.length - 1))))];
};

/** What `movingAverage` was before it took prefix sums from its caller. */
function movingAverageReference(input: Float64Array, window: number): Float64Array {
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

// Few distinct values make ties, zeros of both signs and NaN common.
const sample = fc.oneof(
  fc.double(),
  fc.constantFrom(0, -0, NaN, 1, -1, 2.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.integer({ min: -3, max: 3 }),
);

describe("selection instead of sorting", () => {
  it("gives the sorted copy's element at every rank, NaN, −0 and ties included", () => {
    fc.assert(
      fc.property(fc.array(sample, { maxLength: 200 }), fc.double({ min: 0, max: 100, noNaN: true }), (values, p) => {
        expect(Object.is(percentile(values, p), sortedPercentile(values, p))).toBe(true);
        expect(Object.is(percentile(Float64Array.from(values), p), sortedPercentile(values, p))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("gives the same on orders that defeat a naive pivot (sorted, reversed, organ pipe, all equal)", () => {
    const n = 50_001;
    const orders = [
      Float64Array.from({ length: n }, (_, i) => i),
      Float64Array.from({ length: n }, (_, i) => n - i),
      Float64Array.from({ length: n }, (_, i) => Math.min(i, n - i)),
      new Float64Array(n).fill(3),
      Float64Array.from({ length: n }, (_, i) => (i % 2 ? i : -i)),
    ];
    for (const values of orders) {
      const sorted = values.slice().sort();
      for (const rank of [0, 1, n >> 1, n - 2, n - 1]) expect(orderStatistic(values.slice(), rank)).toBe(sorted[rank]);
    }
  });
});

describe("moving averages from shared prefix sums", () => {
  it("are bit for bit the moving average they replaced, as an array and sample by sample", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -20, max: 20, noNaN: true }), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 0, max: 60 }),
        (values, half) => {
          const input = Float64Array.from(values);
          const window = 2 * half + 1;
          const reference = movingAverageReference(input, window);
          const prefix = prefixSums(input);
          expect(movingAverage(input, window, prefix)).toEqual(reference);
          expect(movingAverage(input, window)).toEqual(reference);
          for (let i = 0; i < input.length; i++) expect(Object.is(windowMean(prefix, window, i), reference[i])).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

it("summarizes an effort of six hours (a 10 Hz track longer than an argument list may be)", () => {
  const trackSpeed = Array.from({ length: 6 * 3600 * 10 }, (_, i) => 4 + Math.sin(i / 50));
  // Math.max(0, ...trackSpeed) threw "Maximum call stack size exceeded" past about 13,000 s.
  const summary = summarize([], 60_000, 6 * 3600 * 1000, trackSpeed, [120, 150], true);
  expect(summary.max_speed).toBe(5);
  expect(summary.max_heart_rate).toBe(150);
});

it("walks the variance clock across one long IMU loss in time linear in its length", () => {
  // The smoother peeks at the sample after every fix; each peek inside a loss measured the whole
  // loss again: a file losing an hour of IMU samples under 36,000 fixes cost 10¹⁰ reads.
  const n = 40_000;
  const present = new Uint8Array(n).fill(1);
  present.fill(0, 1000, 39_000);
  let reads = 0;
  const counted = new Proxy(present, {
    get: (target, key) => {
      // Stop at once past the linear budget (the quadratic walk would take minutes here).
      if (typeof key === "string" && /^\d+$/.test(key) && ++reads > 10 * n) throw new Error(`more than ${10 * n} reads`);
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const walk = new VarianceWalk(counted, 1e-6, (block) => block * 1e-3);
  const plain = new VarianceWalk(present, 1e-6, (block) => block * 1e-3);
  let same = true;
  for (let i = 1; i < n; i++) {
    same &&= walk.at(i) === plain.at(i);
    if (i % 10 === 0) same &&= walk.peek(i) === (i >= 1000 && i < 39_000 ? 38_000e-3 / 38_000 : 1e-6);
  }
  expect(same).toBe(true);
});
