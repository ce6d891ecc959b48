import { describe, expect, it } from "vitest";
import { fasterThanPct, percentileWindows, releasePercentiles, windowMultiplicity } from "./benchmark-figures";

const published = (durations: number[]) => durations.map((durationMs, i) => ({ percentile: [10, 25, 50, 75, 90][i], durationMs }));

describe("faster_than_pct, read off the published percentiles", () => {
  it("interpolates between them, extends the outer segments, and clamps", () => {
    const p = published([100_000, 110_000, 120_000, 130_000, 140_000]);
    expect(fasterThanPct(p, 120_000)).toBe(50);
    expect(fasterThanPct(p, 105_000)).toBe(83); // 100 − 17.5
    expect(fasterThanPct(p, 95_000)).toBe(98); // 100 − (10 − 7.5)
    expect(fasterThanPct(p, 60_000)).toBe(100);
    expect(fasterThanPct(p, 145_000)).toBe(3); // 100 − (90 + 7.5), rounded
    expect(fasterThanPct(p, 300_000)).toBe(0);
  });

  it("never rises with a slower time, also across two equal figures", () => {
    const p = published([100_000, 100_000, 120_000, 120_000, 140_000]);
    let last = 100;
    for (let d = 80_000; d <= 160_000; d += 250) {
      const f = fasterThanPct(p, d);
      expect(f).toBeLessThanOrEqual(last);
      last = f;
    }
    expect(fasterThanPct(p, 99_999)).toBe(100);
  });
});

describe("released percentiles", () => {
  const members = Array.from({ length: 12 }, (_, i) => ({ accountId: 100 + i, bestMs: 100_000 + i * 2_000 }));

  it("are ordered, fixed by secret and state, and change with either", () => {
    const a = releasePercentiles({ vesselId: 1, distanceM: 500, members, secret: "s1" });
    expect(a.map((p) => p.percentile)).toEqual([10, 25, 50, 75, 90]);
    expect(a.map((p) => p.durationMs)).toEqual([...a.map((p) => p.durationMs)].sort((x, y) => x - y));
    expect(releasePercentiles({ vesselId: 1, distanceM: 500, members: [...members].reverse(), secret: "s1" })).toEqual(a);
    expect(releasePercentiles({ vesselId: 1, distanceM: 500, members, secret: "s2" })).not.toEqual(a);
    const moved = members.map((m, i) => (i === 3 ? { ...m, bestMs: m.bestMs - 1 } : m));
    expect(releasePercentiles({ vesselId: 1, distanceM: 500, members: moved, secret: "s1" })).not.toEqual(a);
  });

  it("spread around the means of three as the documented scale says (λ = 5 s over 500 m, m = 2 at 12 people)", () => {
    expect(windowMultiplicity(12)).toBe(2);
    // Bests far apart, so that noise never reorders the figures and each can be compared with its own mean.
    const spread = members.map((m, i) => ({ ...m, bestMs: 100_000 + i * 20_000 }));
    const sorted = spread.map((m) => m.bestMs);
    const plain = percentileWindows(12).map((from) => (sorted[from] + sorted[from + 1] + sorted[from + 2]) / 3);
    const deviations: number[] = [];
    for (let s = 0; s < 400; s++) {
      const r = releasePercentiles({ vesselId: 1, distanceM: 500, members: spread, secret: `s${s}` });
      deviations.push(...r.map((p, i) => Math.abs(p.durationMs - plain[i])));
    }
    // Laplace(b = 2 · 5 s / 3): mean absolute deviation b ≈ 3.33 s.
    const mad = deviations.reduce((x, y) => x + y, 0) / deviations.length;
    expect(mad).toBeGreaterThan(2_800);
    expect(mad).toBeLessThan(3_900);
  });
});
