import { describe, expect, it } from "vitest";
import { parseTrainingSpec, simulateTraining } from "./training";

describe("parseTrainingSpec", () => {
  it("reads pieces by distance or time with rests by time or distance", () => {
    expect(parseTrainingSpec("2x500m/120s")).toEqual([
      { kind: "work", distance_m: 500 },
      { kind: "rest", duration_s: 120 },
      { kind: "work", distance_m: 500 },
    ]);
    expect(parseTrainingSpec("10x60s/60s")).toHaveLength(19);
    expect(parseTrainingSpec("3x1000m/200m")![1]).toEqual({ kind: "rest", distance_m: 200 });
    for (const bad of ["", "6x500", "0x500m/60s", "6x500m/", "99x500m/60s", "6x500km/60s"]) expect(parseTrainingSpec(bad)).toBeNull();
  });
});

describe.each(["K1", "K2", "K4", "C1", "C2", "C4"] as const)("simulateTraining %s", (vessel) => {
  it("keeps a truth per set: pieces reach their distance or time, rests fill the gaps", () => {
    const steps = [
      ...parseTrainingSpec("2x150m/40s")!,
      { kind: "rest" as const, duration_s: 30 },
      { kind: "work" as const, duration_s: 30 },
    ];
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

describe("simulateTraining: the practices paddlers do (issue 19)", () => {
  const intervals = (catches: { t_s: number }[]) => catches.slice(1).map((c, k) => c.t_s - catches[k].t_s);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

  it("drifting rests: standing starts with quicker start strokes, a still boat but for turns and positioning strokes, 180° turns, a crew that tires", () => {
    const { truth, content } = simulateTraining({
      vessel: "K2",
      steps: parseTrainingSpec("6x250m/60s")!,
      seed: 3,
      noise: "clean",
      rests: "drifting",
      tiring: true,
      warmupS: 40,
      cooldownS: 30,
    });
    expect(truth.rest_modes).toEqual(Array(5).fill("drifting"));
    const work = truth.sets.filter((s) => s.kind === "work");
    for (const set of work) {
      expect(set.start).toBe("standing");
      const all = intervals(set.catches);
      const cruise = median(intervals(set.catches.filter((c) => c.t_s > set.start_s + 12)));
      // The first four start strokes are 15–20 % quicker than cruise (beyond ±3 % variation).
      all.slice(0, 4).forEach((interval) => expect(interval).toBeLessThan(cruise * 0.92));
    }
    // Rests: no rhythm, only sweeps (8–12 per turn) and 2–5 positioning strokes.
    for (const rest of truth.sets.filter((s) => s.kind === "rest")) expect(rest.stroke_count).toBeLessThanOrEqual(17);
    expect(truth.turns_s.length).toBeGreaterThan(0);
    // A turn reverses the course: GNSS course 5 s before the sweeps and 20 s after differ by about 180°.
    for (const at of truth.turns_s) {
      const course = (t: number) => content.gnss.courseCdeg[Math.round(t * 10)] / 100;
      const change = (((course(at + 20) - course(at - 5)) % 360) + 360) % 360;
      expect(Math.abs(change - 180)).toBeLessThan(30);
    }
    // Visibly tiring: the last piece is paddled at a lower rate than the first.
    const cruiseRate = (k: number) => 60 / median(intervals(work[k].catches.filter((c) => c.t_s > work[k].start_s + 12)));
    expect(cruiseRate(5)).toBeLessThan(cruiseRate(0) * 0.97);
  });

  it("light-paddling rests: rolling starts, 12 × 20 s", () => {
    const { truth } = simulateTraining({
      vessel: "C1",
      steps: parseTrainingSpec("12x20s/40s")!,
      seed: 4,
      rests: "paddling",
      warmupS: 40,
      cooldownS: 30,
    });
    const work = truth.sets.filter((s) => s.kind === "work");
    expect(work).toHaveLength(12);
    expect(work.every((s) => s.start === "rolling")).toBe(true);
    expect(truth.turns_s).toEqual([]);
    for (const rest of truth.sets.filter((s) => s.kind === "rest")) expect(rest.stroke_count).toBeGreaterThan(10);
  });
});
