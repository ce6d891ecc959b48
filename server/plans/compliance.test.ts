import { describe, expect, it } from "vitest";
import type { WorkoutStep } from "../svc/types";
import { comparePlan, type DoneSet } from "./compliance";
import { expandBlocks, workLabel } from "./plan-document";

/** A set of `distanceM` in `seconds`, at `rate` spm. */
const set = (position: number, distanceM: number, seconds: number, rate: number | null = null): DoneSet => ({
  setId: 100 + position,
  position,
  distanceM,
  durationMs: seconds * 1000,
  avgRateSpm: rate,
});
const fourBy500: WorkoutStep[] = expandBlocks([{ reps: 4, distance_m: 500, rest_s: 120, targets: { pace_s_per_500m: 110, rate_spm: 80 } }]);

describe("comparePlan", () => {
  it("pairs every rep and marks each within the band when on target", () => {
    const c = comparePlan(fourBy500, [set(1, 500, 110, 80), set(3, 502, 111, 81), set(5, 498, 109, 79), set(7, 500, 110.5, 80)], null);
    expect(c.reps.map((r) => [r.rep, r.mark])).toEqual([
      [1, "within"],
      [2, "within"],
      [3, "within"],
      [4, "within"],
    ]);
    expect(c).toMatchObject({ planned: 4, done: 4, missed: 0, extra: 0, score: 1, mark: "within" });
    expect(c.reps[1].actual).toMatchObject({ setId: 103, workNumber: 2, distanceM: 502, rateSpm: 81 });
  });

  it("tolerates a missing rep: the others stay paired and the missing one is marked", () => {
    const c = comparePlan(fourBy500, [set(1, 500, 110, 80), set(3, 500, 110, 80), set(5, 500, 110, 80)], null);
    expect(c.reps.filter((r) => r.mark === "missed")).toHaveLength(1);
    expect(c.reps.filter((r) => r.mark === "within")).toHaveLength(3);
    expect(c).toMatchObject({ planned: 4, done: 3, missed: 1, extra: 0, score: 0.75, mark: "near" });
  });

  it("tolerates an extra rep: it is shown as extra and does not lower the score", () => {
    const sets = [set(1, 500, 110, 80), set(3, 500, 110, 80), set(5, 200, 40, 100), set(7, 500, 110, 80), set(9, 500, 110, 80)];
    const c = comparePlan(fourBy500, sets, null);
    expect(c.reps.map((r) => r.mark)).toEqual(["within", "within", "extra", "within", "within"]);
    expect(c.reps[2]).toMatchObject({ rep: null, planned: null, actual: { workNumber: 3, distanceM: 200 } });
    expect(c).toMatchObject({ done: 4, missed: 0, extra: 1, score: 1, mark: "within" });
  });

  it("bands: pace within 2 %, near within 5 %, off beyond; rate within 2, near within 5 spm; the rep takes its worst", () => {
    const one = (seconds: number, rate: number) => comparePlan(fourBy500.slice(0, 1), [set(1, 500, seconds, rate)], null).reps[0];
    expect(one(112, 80).mark).toBe("within"); // 1.8 % slow
    expect(one(115, 80).mark).toBe("near"); // 4.5 %
    expect(one(118, 80)).toMatchObject({ mark: "off", notes: ["pace 1:58.0 for 1:50.0"] }); // 7.3 %
    expect(one(110, 84).mark).toBe("near");
    expect(one(110, 86).mark).toBe("off");
    expect(one(115, 86).mark).toBe("off");
  });

  it("marks a zone target against the athlete's reference speed: same zone within, next zone near", () => {
    const steps = expandBlocks([{ reps: 1, duration_s: 600, targets: { zone: 2 } }]);
    const reference = 5; // m/s; zone 2 is 70–80 %: 3.5–4 m/s
    expect(comparePlan(steps, [set(1, 2250, 600)], reference).reps[0].mark).toBe("within"); // 3.75 m/s
    expect(comparePlan(steps, [set(1, 2550, 600)], reference).reps[0].mark).toBe("near"); // 4.25 m/s: zone 3
    expect(comparePlan(steps, [set(1, 2850, 600)], reference).reps[0].mark).toBe("off"); // 4.75 m/s: zone 5
    expect(comparePlan(steps, [set(1, 2850, 600)], null).reps[0].mark).toBe("within"); // no reference: not assessed
  });

  it("marks the volume: a rep 10 % short is near, 20 % short off", () => {
    const steps = expandBlocks([{ reps: 1, duration_s: 100 }]);
    expect(comparePlan(steps, [set(1, 400, 90)], null).reps[0].mark).toBe("near");
    expect(comparePlan(steps, [set(1, 400, 80)], null).reps[0].mark).toBe("off");
  });

  it("nothing done: every rep missed, score 0", () => {
    expect(comparePlan(fourBy500, [], null)).toMatchObject({ done: 0, missed: 4, score: 0, mark: "off" });
  });
});

describe("plan documents", () => {
  it("expands blocks into reps and rests, no rest after the last rep", () => {
    const steps = expandBlocks([
      { reps: 2, distance_m: 250, rest_s: 60 },
      { reps: 2, duration_s: 120, rest_s: 90, targets: { zone: 3 } },
    ]);
    expect(steps.map((s) => s.kind)).toEqual(["work", "rest", "work", "rest", "work", "rest", "work"]);
    expect(steps[4]).toEqual({ kind: "work", duration_s: 120, targets: { zone: 3 } });
    expect(workLabel(steps)).toBe("2 × 250 m + 2 × 2 min");
  });
});
