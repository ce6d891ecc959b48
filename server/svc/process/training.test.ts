import { describe, expect, it } from "vitest";
import { encodeSvc } from "../container";
import { loadKeyring } from "../keyring";
import { parseTrainingSpec, simulateTraining } from "../simulator/training";
import { computeSplits } from "./track";
import { ProcessingError } from "./errors";
import { matchRunsToSteps, segmentationThresholds } from "./sets";
import { processTrainingSvc } from "./training";
import { PROCESSING_CORE_VERSION } from "./version";

const keyring = loadKeyring({});

describe("matchRunsToSteps", () => {
  const steps = parseTrainingSpec("3x500m/60s")!; // work at 0, 2, 4
  it("matches in order by the step's own unit", () => {
    const runs = [500, 498, 503].map((d) => ({ distanceM: d, durationS: 100 }));
    expect(matchRunsToSteps(runs, steps)).toEqual([
      { run: 0, step: 0 },
      { run: 1, step: 2 },
      { run: 2, step: 4 },
    ]);
  });
  it("reports an extra run and a missing step", () => {
    const extra = [500, 120, 498, 503].map((d) => ({ distanceM: d, durationS: 100 }));
    expect(matchRunsToSteps(extra, steps)).toEqual([
      { run: 0, step: 0 },
      { run: 1, step: null },
      { run: 2, step: 2 },
      { run: 3, step: 4 },
    ]);
    const missing = [500, 498].map((d) => ({ distanceM: d, durationS: 100 }));
    expect(matchRunsToSteps(missing, steps).filter((m) => m.run === null)).toHaveLength(1);
  });
  it("makes sensitivity monotonic: higher finds lighter and shorter efforts", () => {
    const low = segmentationThresholds(0.5);
    const high = segmentationThresholds(10);
    expect(high.peakShare).toBeLessThan(low.peakShare);
    expect(high.rateShare).toBeLessThan(low.rateShare);
    expect(high.minSetS).toBeLessThan(low.minSetS);
  });
});

describe("processTraining", () => {
  const steps = parseTrainingSpec("4x250m/60s")!;
  const simulation = simulateTraining({ vessel: "K1", steps, seed: 21, noise: "noisy", warmupS: 60, cooldownS: 40 });
  const bytes = encodeSvc(simulation.content, keyring);
  const truthWork = simulation.truth.sets.filter((s) => s.kind === "work");

  it("segments the sets on the signal alone, each an effort of its own", () => {
    const training = processTrainingSvc(bytes, { vessel: "K1" }, keyring);
    expect(training.processing_core_version).toBe(PROCESSING_CORE_VERSION);
    expect(training.template_match).toBeNull();
    expect(training.sets.map((s) => s.kind)).toEqual(["work", "rest", "work", "rest", "work", "rest", "work"]);
    const work = training.sets.filter((s) => s.kind === "work");
    work.forEach((set, k) => {
      expect(Math.abs(set.start_s - truthWork[k].start_s)).toBeLessThan(0.15);
      expect(Math.abs(set.end_s - truthWork[k].end_s)).toBeLessThan(1);
      expect(set.strokes![0].catch_s).toBeCloseTo(set.start_s, 2);
      expect(set.strokes![0].distance).toBe(0);
      expect(set.summary!.stroke_count).toBe(set.stroke_count);
      expect(set.strokes!.every((s) => s.side === "left" || s.side === "right")).toBe(true);
    });
    // The whole recording's strokes share the sets' clock; rests fill the gaps exactly.
    expect(training.strokes.length).toBeGreaterThan(work.reduce((n, s) => n + s.stroke_count, 0));
    training.sets.forEach((set, k) => k > 0 && expect(set.start_s).toBe(training.sets[k - 1].end_s));
  });

  it("ends matched sets where the template's distance is reached, with splits like a session's", () => {
    const training = processTrainingSvc(bytes, { vessel: "K1", steps }, keyring);
    expect(training.template_match).toEqual({ unmatched_steps: [], extra_sets: [] });
    const work = training.sets.filter((s) => s.kind === "work");
    work.forEach((set, k) => {
      expect(set.distance_m).toBe(250);
      expect(set.step_index).toBe(2 * k);
      expect(set.complete).toBe(true);
      const splits = computeSplits(set.track!, set.strokes!, 4);
      expect(splits[3].distance_m).toBe(250);
      splits.forEach((split, q) => expect(Math.abs(split.time_s - truthWork[k].split_times_s![q])).toBeLessThan(0.2));
    });
  });

  // Issue 28 §6: a set's last stroke ran into the rest (its next catch was the rest's first easy stroke: 51 spm, 5.4 m).
  it.each(["signal", "template"] as const)("ends each set's last stroke with its work, at the set's own rhythm (%s)", (mode) => {
    const training = processTrainingSvc(bytes, { vessel: "K1", ...(mode === "template" ? { steps } : {}) }, keyring);
    for (const set of training.sets.filter((s) => s.kind === "work")) {
      const strokes = set.strokes!;
      const rates = strokes
        .slice(3, -1)
        .map((s) => s.rate)
        .sort((a, b) => a - b);
      const median = rates[Math.floor(rates.length / 2)];
      const last = strokes[strokes.length - 1];
      expect(Math.abs(last.rate / median - 1)).toBeLessThan(0.15);
      const lastDps = last.left_stroke_distance ?? last.right_stroke_distance!;
      const dps = strokes.slice(3, -1).map((s) => s.left_stroke_distance ?? s.right_stroke_distance!);
      expect(lastDps).toBeLessThan(Math.max(...dps) * 1.1);
    }
  });

  it("reports template steps without a set and sets without a step", () => {
    const five = processTrainingSvc(bytes, { vessel: "K1", steps: parseTrainingSpec("5x250m/60s")! }, keyring);
    expect(five.template_match!.unmatched_steps).toHaveLength(1);
    expect(five.sets.filter((s) => s.kind === "work")).toHaveLength(4);
    const three = processTrainingSvc(bytes, { vessel: "K1", steps: parseTrainingSpec("3x250m/60s")! }, keyring);
    expect(three.template_match!.extra_sets).toHaveLength(1);
    expect(three.sets.filter((s) => s.kind === "work")).toHaveLength(4);
  });

  it("finds no set below the sensitivity's shortest effort, and refuses sensitivities out of range", () => {
    expect(() => processTrainingSvc(bytes, { vessel: "K1", sensitivity: 0.5 }, keyring)).toThrow(ProcessingError);
    expect(() => processTrainingSvc(bytes, { vessel: "K1", sensitivity: 11 }, keyring)).toThrow(RangeError);
  });
});

// Issue 19: standing starts (drives 1.5–2× cruise), fade within and across pieces, drifting rests with
// turns and positioning strokes. The detector before core version 3 lost every one of these sets.
describe.each([
  { vessel: "K1", spec: "5x200m/45s", seed: 11, noise: "clean", tiring: false },
  { vessel: "C1", spec: "5x30s/40s", seed: 12, noise: "noisy", tiring: false },
  { vessel: "K4", spec: "6x300m/60s", seed: 13, noise: "noisy", tiring: true },
  { vessel: "C2", spec: "7x25s/35s", seed: 14, noise: "clean", tiring: true },
] as const)(
  "processTraining: $vessel $spec, drifting rests, standing starts (tiring: $tiring)",
  ({ vessel, spec, seed, noise, tiring }) => {
    const steps = parseTrainingSpec(spec)!;
    const simulation = simulateTraining({ vessel, steps, seed, noise, rests: "drifting", tiring, warmupS: 60, cooldownS: 40 });
    const bytes = encodeSvc(simulation.content, keyring);
    const truthWork = simulation.truth.sets.filter((s) => s.kind === "work");

    it.each(["signal", "template"] as const)("finds every set from its first catch to within 1 s of its finish (%s)", (mode) => {
      expect(truthWork.every((s) => s.start === "standing")).toBe(true);
      const training = processTrainingSvc(bytes, { vessel, ...(mode === "template" ? { steps } : {}) }, keyring);
      const work = training.sets.filter((s) => s.kind === "work");
      expect(work).toHaveLength(truthWork.length);
      work.forEach((set, k) => {
        expect(Math.abs(set.start_s - truthWork[k].start_s)).toBeLessThan(0.15);
        expect(Math.abs(set.end_s - truthWork[k].end_s)).toBeLessThan(1);
        expect(Math.abs(set.stroke_count - truthWork[k].stroke_count)).toBeLessThanOrEqual(1);
      });
    });
  },
);
