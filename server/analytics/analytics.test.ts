import { describe, expect, it } from "vitest";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { processSvc } from "../svc/process/process";
import { simulateSession, type SimulateOptions } from "../svc/simulator/simulate";
import { ANALYSIS_NAMES, DEFAULT_OPTIONS, runAnalysis, type AnalysisInput, type AnalysisOptions } from ".";
import { analysisInputFromProcessed } from "./load-input";
import type { AnomaliesResult } from "./anomalies";
import type { ConsistencyResult } from "./consistency";
import type { DataQualityResult } from "./data-quality";
import type { FinishResult } from "./finish";
import type { MetricRelationshipsResult } from "./metric-relationships";
import type { PacingResult } from "./pacing";
import type { ProgressionResult } from "./progression";
import type { SideBalanceResult } from "./side-balance";
import type { SplitMotionResult } from "./split-motion";
import type { StartResult } from "./start";
import type { StrokePhasesResult } from "./stroke-phases";

// Every expectation below comes from what the simulator was told to do (`fade` and
// `sideImbalance`, docs/simulator.md), not from a previous run of the analyses.
const keyring = loadKeyring({});
const cache = new Map<string, { input: AnalysisInput; simulation: ReturnType<typeof simulateSession> }>();
function simulated(options: SimulateOptions) {
  const key = JSON.stringify(options);
  if (!cache.has(key)) {
    const simulation = simulateSession(options);
    const processed = processSvc(
      encodeSvc(simulation.content, keyring),
      { vessel: options.vessel, distanceM: options.distanceM, durationMs: options.durationMs },
      keyring,
    );
    cache.set(key, { input: analysisInputFromProcessed(processed, false), simulation });
  }
  return cache.get(key)!;
}
function result<T>(name: (typeof ANALYSIS_NAMES)[number], input: AnalysisInput, options: Partial<AnalysisOptions> = {}): T {
  const outcome = runAnalysis(name, input, { ...DEFAULT_OPTIONS, ...options });
  if (outcome.status !== "ok") throw new Error(`${name}: ${outcome.reason}`);
  return outcome.result as T;
}

const balancedK1 = { vessel: "K1", distanceM: 500, seed: 21, noise: "clean" } as const;
// 12 % slower by the end of the effort.
const fadingK1 = { ...balancedK1, fade: 0.12 } as const;

describe("side-balance", () => {
  it("names the blade the simulator made stronger, and no blade when balanced", () => {
    expect(result<SideBalanceResult>("side-balance", simulated({ ...balancedK1, sideImbalance: 0.18 }).input).stronger_side).toBe("left");
    expect(result<SideBalanceResult>("side-balance", simulated({ ...balancedK1, sideImbalance: -0.18 }).input).stronger_side).toBe("right");
    const balanced = result<SideBalanceResult>("side-balance", simulated(balancedK1).input);
    expect(balanced.stronger_side).toBeNull();
    expect(Math.abs(balanced.asymmetry_pct.peak_accel!)).toBeLessThan(3);
    expect(balanced.segments).toHaveLength(4);
  });

  it("does not apply to a canoe", () => {
    const outcome = runAnalysis("side-balance", simulated({ vessel: "C1", distanceM: 500, seed: 22 }).input, DEFAULT_OPTIONS);
    expect(outcome).toEqual({ status: "insufficient_data", reason: expect.stringContaining("canoe") });
  });
});

describe("pacing and finish", () => {
  it("find a simulated fade: a positive split, a fade at the finish, falling speed and rate", () => {
    const { input } = simulated(fadingK1);
    const pace = result<PacingResult>("pacing", input);
    expect(pace.profile).toBe("positive");
    expect(pace.fade_pct).toBeGreaterThan(3);
    expect(pace.segments.map((s) => s.index)).toEqual([1, 2, 3, 4]);
    expect(result<FinishResult>("finish", input).verdict).toBe("fade");
    const trend = result<ProgressionResult>("progression", input).metrics;
    expect(trend.find((m) => m.metric === "speed")!.trend_per_100m).toBeLessThan(0);
    // The simulator lowers the rate by half the fade: 6 % by the end.
    expect(trend.find((m) => m.metric === "rate")!.change_pct).toBeLessThan(-3);
  });

  it("on an unfaded effort, measure the same second-half change as the simulator's truth", () => {
    // 1000 m: the simulator's start overshoot stays inside the first of four segments.
    const { input, simulation } = simulated({ ...balancedK1, distanceM: 1000 });
    const truth = simulation.truth.split_times_s["4"];
    const speeds = truth.map((t, i) => 250 / (t - (i ? truth[i - 1] : 0)));
    // The rule of docs/analytics.md "pacing": segments 2–4, the first half against the second.
    const change = (100 * (speeds[3] - speeds[1])) / speeds[1];
    const pace = result<PacingResult>("pacing", input);
    expect(Math.abs(pace.second_half_change_pct! - change)).toBeLessThan(0.5);
    expect(pace.profile).toBe(change < -1.5 ? "positive" : change > 1.5 ? "negative" : "even");
  });

  it("agree with the simulator's split times, and honour segments and sensitivity", () => {
    const { input, simulation } = simulated(fadingK1);
    const pace = result<PacingResult>("pacing", input, { segments: 4 });
    const truth = simulation.truth.split_times_s["4"];
    pace.segments.forEach((s, i) => expect(Math.abs(s.time_s! - (truth[i] - (i ? truth[i - 1] : 0)))).toBeLessThan(0.3));
    expect(result<PacingResult>("pacing", input, { segments: 10 }).segments).toHaveLength(10);
    expect(result<PacingResult>("pacing", input, { sensitivity: 0.5 }).tolerance_pct).toBe(6);
    expect(result<PacingResult>("pacing", input, { sensitivity: 10 }).tolerance_pct).toBe(0.3);
  });
});

describe("anomalies", () => {
  it("flags a missed catch (two strokes merged into one) and little else", () => {
    const { input } = simulated(balancedK1);
    const clean = result<AnomaliesResult>("anomalies", input);
    const strokes = [...input.strokes];
    const at = 100;
    // The detector missed the catch of stroke at+1: one stroke twice as long.
    strokes[at] = {
      ...strokes[at],
      rate_spm: strokes[at].rate_spm / 2,
      stroke_distance_m: strokes[at].stroke_distance_m! + strokes[at + 1].stroke_distance_m!,
    };
    strokes.splice(at + 1, 1);
    const found = result<AnomaliesResult>("anomalies", { ...input, strokes });
    expect(found.anomalies[0].stroke_index).toBe(strokes[at].index);
    expect(
      found.anomalies
        .filter((a) => a.stroke_index === strokes[at].index)
        .map((a) => a.metric)
        .sort(),
    ).toEqual(["rate", "stroke_distance"]);
    expect(clean.anomalies.every((a) => a.stroke_index !== strokes[at].index)).toBe(true);
    // A lower sensitivity raises the bar.
    expect(result<AnomaliesResult>("anomalies", input, { sensitivity: 0.5 }).anomalies.length).toBeLessThanOrEqual(clean.anomalies.length);
  });

  it("does not report the standing start's accelerating strokes", () => {
    // The boat gains speed stroke after stroke for its first ~25 m: a trend, not a break from it.
    for (const options of [
      balancedK1,
      { vessel: "K1", distanceM: 1000, seed: 3, noise: "noisy" },
      { vessel: "K2", distanceM: 200, seed: 5, noise: "noisy" },
      { vessel: "C1", distanceM: 500, seed: 7, noise: "noisy" },
    ] as const) {
      const found = result<AnomaliesResult>("anomalies", simulated(options).input);
      const early = found.anomalies.filter((a) => (a.distance_m ?? 0) < 25);
      expect(early, `${options.vessel} ${options.distanceM} m`).toEqual([]);
    }
  });

  it("needs enough strokes", () => {
    const { input } = simulated(balancedK1);
    expect(runAnalysis("anomalies", { ...input, strokes: input.strokes.slice(0, 12) }, DEFAULT_OPTIONS).status).toBe("insufficient_data");
  });
});

describe("the others, against the simulator's known figures", () => {
  it("start: time to 100 m matches the truth", () => {
    const { input, simulation } = simulated(balancedK1);
    const start = result<StartResult>("start", input);
    const d = simulation.distanceFromStartM;
    const truthAt100 = d.findIndex((x) => x >= 100) / 100 - simulation.truth.effort_start_s;
    expect(Math.abs(start.time_to_m.find((m) => m.distance_m === 100)!.time_s! - truthAt100)).toBeLessThan(0.3);
    expect(start.first_strokes).toHaveLength(10);
    expect(start.strokes_to_90pct_cruise).toBeGreaterThan(0);
  });

  it("consistency: the simulator's 1.2 % stroke-to-stroke rate noise", () => {
    const c = result<ConsistencyResult>("consistency", simulated(balancedK1).input);
    const rate = c.cv_pct.find((m) => m.metric === "rate")!.overall!;
    expect(rate).toBeGreaterThan(0.6);
    expect(rate).toBeLessThan(2.5);
    expect(c.score).toBeGreaterThan(0);
  });

  it("metric-relationships: distance per stroke carries speed", () => {
    const pairs = result<MetricRelationshipsResult>("metric-relationships", simulated(balancedK1).input).pairs;
    const pair = pairs.find((p) => p.x === "stroke_distance" && p.y === "speed")!;
    expect(pair.pearson_r).toBeGreaterThan(0.7);
    expect(pair.strength).toBe("strong");
    const custom = result<MetricRelationshipsResult>("metric-relationships", simulated(balancedK1).input, {
      metrics: ["rate", "peak_accel", "roll"],
    });
    expect(custom.pairs.map((p) => `${p.x}/${p.y}`)).toEqual(["rate/peak_accel", "rate/roll", "peak_accel/roll"]);
  });

  it("stroke-phases: the drive peak the simulator gives a K1 (5.5 m/s²)", () => {
    const phases = result<StrokePhasesResult>("stroke-phases", simulated(balancedK1).input);
    expect(phases.overall.drive_peak_m_s2!).toBeGreaterThan(5.5 * 0.85);
    expect(phases.overall.drive_peak_m_s2!).toBeLessThan(5.5 * 1.15);
    expect(phases.overall.check_m_s2!).toBeLessThan(0);
  });

  it("split-motion: a K1 rolls more than a K4 (3.5° against 2.5°)", () => {
    const roll = (input: AnalysisInput) => {
      const r = result<SplitMotionResult>("split-motion", input).segments;
      return r.reduce((s, x) => s + x.roll_deg!, 0) / r.length;
    };
    expect(roll(simulated(balancedK1).input)).toBeGreaterThan(roll(simulated({ ...balancedK1, vessel: "K4" }).input) + 0.5);
  });

  it("data-quality: a clean recording is good, a noisy one says why, heart rate only when allowed", () => {
    const clean = result<DataQualityResult>("data-quality", simulated(balancedK1).input);
    expect(clean.grade).toBe("good");
    expect(clean.heart_rate_coverage).toBeNull();
    const noisy = simulated({ vessel: "K1", distanceM: 500, seed: 3, noise: "noisy" }).input;
    const graded = result<DataQualityResult>("data-quality", noisy);
    expect(graded.grade).not.toBe("good");
    expect(graded.reasons.length).toBeGreaterThan(0);
    expect(result<DataQualityResult>("data-quality", { ...noisy, heartRateAllowed: true }).heart_rate_coverage).toBe(
      noisy.dataQuality.heart_rate_coverage,
    );
  });

  it("every analysis answers every boat class without throwing", () => {
    for (const vessel of ["K2", "C2", "C4"] as const) {
      const { input } = simulated({ vessel, distanceM: 200, seed: 30, noise: "noisy" });
      for (const name of ANALYSIS_NAMES)
        expect(["ok", "insufficient_data"]).toContain(runAnalysis(name, input, { segments: 20, sensitivity: 10, metrics: null }).status);
    }
  });
});
