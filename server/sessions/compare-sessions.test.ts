import { describe, expect, it } from "vitest";
import type { StoredAnalysis } from "../results/result-analysis";
import type { EffortUncertainty } from "../svc/process/types";
import { compareLoaded, withinNoise } from "./compare-sessions";
import type { SessionRow } from "./list-sessions";

/** A session paddled at a constant speed over `distance` metres, one stroke every 2 m at `rate`. */
function steady(id: number, distance: number, speed: number, rate: number) {
  const duration = distance / speed;
  const t = Array.from({ length: Math.round(duration) + 1 }, (_, k) => Math.min(k, duration));
  const analysis = {
    effortStartS: 0,
    track: { step_s: 1, t, distance: t.map((s) => s * speed), speed: t.map(() => speed), heart_rate: t.map(() => null), route: [] },
  } as unknown as StoredAnalysis;
  const strokes = Array.from({ length: Math.floor(distance / 2) }, (_, k) => ({ distance: k * 2, rate }));
  return { row: { id } as SessionRow, analysis, strokes };
}

describe("session compare", () => {
  it("aligns every session on the shortest distance and gives split deltas against the first", () => {
    const result = compareLoaded([steady(1, 500, 4, 80), steady(2, 400, 5, 90), steady(3, 600, 2, 60)], { points: 5, splits: 4 });
    expect(result.distanceM).toBe(400);
    expect(result.gridM).toEqual([0, 100, 200, 300, 400]);
    const [a, b, c] = result.sessions;
    expect(a.timeS).toEqual([0, 25, 50, 75, 100]);
    expect(b.timeS).toEqual([0, 20, 40, 60, 80]);
    expect(a.speedMS).toEqual([4, 4, 4, 4, 4]);
    expect(c.rateSpm).toEqual([60, 60, 60, 60, 60]);
    expect(a.splits.map((s) => s.splitS)).toEqual([25, 25, 25, 25]);
    expect(b.splits.map((s) => s.splitDeltaS)).toEqual([-5, -5, -5, -5]);
    expect(b.splits.map((s) => s.elapsedDeltaS)).toEqual([-5, -10, -15, -20]);
    expect(c.splits.map((s) => s.elapsedDeltaS)).toEqual([25, 50, 75, 100]);
    expect(a.splits.every((s) => s.splitDeltaS === 0)).toBe(true);
    expect(b.splits[0]).toMatchObject({ index: 1, distanceM: 100, speedMS: 5, rateSpm: 90 });
  });

  it("bounds every series by the points asked for", () => {
    const result = compareLoaded([steady(1, 2000, 4, 80), steady(2, 2000, 4.1, 82)], { points: 1000, splits: 20 });
    for (const s of result.sessions) {
      expect(s.timeS).toHaveLength(1000);
      expect(s.rateSpm).toHaveLength(1000);
      expect(s.splits).toHaveLength(20);
    }
  });

  it("marks a split gap smaller than the two times' combined uncertainty as within the noise", () => {
    expect(withinNoise(0.05, 0.04, 0.04)).toBe(true); // √(0.04² + 0.04²) ≈ 0.057
    expect(withinNoise(-0.06, 0.04, 0.04)).toBe(false);
    expect(withinNoise(0.01, null, 0.04)).toBeNull();
    const noisy: EffortUncertainty = {
      speed_noise_ms: 0.1,
      fix_interval_s: 0.1,
      drift_rate: 1e-3,
      start_sd_s: 0.003,
      ends_at: "distance",
      outages: [],
    };
    const a = steady(1, 400, 5, 80);
    const b = steady(2, 400, 4.99, 80); // 0.04 s slower over each 100 m, inside the noise of a 20 s split (±0.056 each)
    const c = steady(3, 400, 4.5, 80); // 2.2 s slower: far outside it
    for (const s of [a, b, c]) s.analysis.track.uncertainty = noisy;
    const result = compareLoaded([a, b, c], { points: 5, splits: 4 });
    const [first, close, far] = result.sessions;
    expect(first.splits.every((s) => s.splitDeltaWithinNoise === null && s.elapsedUncertaintyS! > 0)).toBe(true);
    for (const split of close.splits) {
      expect(split.splitDeltaWithinNoise).toBe(
        Math.abs(split.splitDeltaS) < Math.hypot(split.splitUncertaintyS!, first.splits[split.index - 1].splitUncertaintyS!),
      );
    }
    expect(close.splits[0].splitDeltaWithinNoise).toBe(true);
    expect(far.splits.every((s) => s.splitDeltaWithinNoise === false && s.elapsedDeltaWithinNoise === false)).toBe(true);
    // Without stored figures nothing is claimed either way.
    const plain = compareLoaded([steady(1, 400, 5, 80), steady(2, 400, 4.98, 80)], { points: 5, splits: 4 });
    expect(plain.sessions[1].splits.every((s) => s.splitDeltaWithinNoise === null && s.splitUncertaintyS === null)).toBe(true);
  });
});
