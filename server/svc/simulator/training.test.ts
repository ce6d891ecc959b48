import { describe, expect, it } from "vitest";
import { parseTrainingSpec, simulateTraining } from "./training";

describe("parseTrainingSpec", () => {
  it("reads pieces by distance or time with rests by time or distance", () => {
    expect(parseTrainingSpec("2x500m/120s")).toEqual([{ kind: "work", distance_m: 500 }, { kind: "rest", duration_s: 120 }, { kind: "work", distance_m: 500 }]);
    expect(parseTrainingSpec("10x60s/60s")).toHaveLength(19);
    expect(parseTrainingSpec("3x1000m/200m")![1]).toEqual({ kind: "rest", distance_m: 200 });
    for (const bad of ["", "6x500", "0x500m/60s", "6x500m/", "99x500m/60s", "6x500km/60s"]) expect(parseTrainingSpec(bad)).toBeNull();
  });
});

describe.each(["K1", "K2", "K4", "C1", "C2", "C4"] as const)("simulateTraining %s", (vessel) => {
  it("keeps a truth per set: pieces reach their distance or time, rests fill the gaps", () => {
    const steps = [...parseTrainingSpec("2x150m/40s")!, { kind: "rest" as const, duration_s: 30 }, { kind: "work" as const, duration_s: 30 }];
    const { truth, content } = simulateTraining({ vessel, steps, seed: 9, noise: "noisy", warmupS: 40, cooldownS: 30 });
    expect(truth.sets.map((s) => s.kind)).toEqual(["work", "rest", "work", "rest", "work"]);
    const [a, , b, , c] = truth.sets;
    expect(a.distance_m).toBeCloseTo(150, 1);
    expect(b.distance_m).toBeCloseTo(150, 1);
    expect(c.end_s - c.start_s).toBeCloseTo(30, 3);
    truth.sets.forEach((set, k) => k > 0 && expect(set.start_s).toBe(truth.sets[k - 1].end_s));
    for (const set of truth.sets.filter((s) => s.kind === "work")) {
      expect(set.catches[0].t_s).toBe(set.start_s);
      expect(set.stroke_count).toBe(set.catches.length);
      expect(set.split_times_s!.at(-1)).toBeCloseTo(set.end_s - set.start_s, 3);
    }
    expect(content.imu.total / 100).toBeGreaterThan(truth.sets.at(-1)!.end_s + 20);
    // Deterministic: the same seed gives the same truth.
    expect(simulateTraining({ vessel, steps, seed: 9, noise: "noisy", warmupS: 40, cooldownS: 30 }).truth).toEqual(truth);
  });
});
