import { describe, expect, it } from "vitest";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { processSvc } from "../svc/process/process";
import { simulateSession, type SimulateOptions } from "../svc/simulator/simulate";
import { consistency, finish, pacing, sideBalance, start } from "./session-analyses";

const keyring = loadKeyring({});
const run = (options: SimulateOptions) => {
  const simulation = simulateSession(options);
  return { simulation, session: processSvc(encodeSvc(simulation.content, keyring), { vessel: options.vessel, distanceM: options.distanceM, durationMs: options.durationMs }, keyring) };
};

describe("session analyses on simulated sessions", () => {
  const steady = run({ vessel: "K1", distanceM: 500, seed: 31, noise: "clean" });
  const fading = run({ vessel: "K1", distanceM: 500, seed: 31, noise: "clean", fade: 0.15 });

  it("pacing finds a simulated fade as a positive split, and a steady race as not one", () => {
    const faded = pacing(fading.session, { segments: 5 });
    const held = pacing(steady.session, { segments: 5 });
    if (faded.status !== "ok" || held.status !== "ok") throw new Error("insufficient data");
    expect(faded.segments).toHaveLength(5);
    expect(faded.profile).toBe("positive_split");
    expect(faded.second_half_change_pct).toBeLessThan(held.second_half_change_pct - 3);
    expect(faded.fade_pct).toBeGreaterThan(held.fade_pct + 5);
    expect(held.profile).not.toBe("negative_split");
    expect(() => pacing(steady.session, { segments: 21 })).toThrow(RangeError);
  });

  it("finish sees the faded last quarter slow down against the middle of the race", () => {
    const faded = finish(fading.session);
    const held = finish(steady.session);
    if (faded.status !== "ok" || held.status !== "ok") throw new Error("insufficient data");
    expect(faded.speed_change_pct).toBeLessThan(-4);
    expect(faded.speed_change_pct).toBeLessThan(held.speed_change_pct - 3);
  });

  it("start times the first 25 and 50 m as the truth does", () => {
    const result = start(steady.session);
    if (result.status !== "ok") throw new Error("insufficient data");
    const truthTime = (metres: number) => steady.simulation.distanceFromStartM.findIndex((d) => d >= metres) / 100 - steady.simulation.truth.effort_start_s;
    expect(Math.abs(result.time_to_25m_s - truthTime(25))).toBeLessThan(0.1);
    expect(Math.abs(result.time_to_50m_s - truthTime(50))).toBeLessThan(0.1);
    expect(result.time_to_90pct_top_speed_s).toBeGreaterThan(3);
    expect(result.first_five_rate_vs_mean_pct).toBeLessThan(0); // the rate ramps up over the first strokes
  });

  it("side balance finds a simulated stronger left blade, and none where there is none", () => {
    const imbalanced = run({ vessel: "K2", distanceM: 500, seed: 32, noise: "noisy", sideImbalance: 0.2 });
    const found = sideBalance(imbalanced.session);
    const none = sideBalance(run({ vessel: "K2", distanceM: 500, seed: 32, noise: "noisy" }).session);
    if (found.status !== "ok" || none.status !== "ok") throw new Error("insufficient data");
    expect(found.drive_peak_balance_pct).toBeGreaterThan(12);
    expect(Math.abs(none.drive_peak_balance_pct)).toBeLessThan(5);
    expect(sideBalance(run({ vessel: "C1", distanceM: 200, seed: 33 }).session)).toEqual({ status: "insufficient_data", reason: expect.any(String) });
  });

  it("consistency measures the stroke-to-stroke rate variation the simulator put in", () => {
    const result = consistency(steady.session);
    if (result.status !== "ok") throw new Error("insufficient data");
    // Truth: the CV of 60 / catch interval over the same strokes (after the first quarter).
    const catches = steady.simulation.truth.catches.map((c) => c.t_s);
    const startS = steady.simulation.truth.effort_start_s;
    const quarter = steady.simulation.truth.split_times_s["4"][0] + startS;
    const rates = catches.slice(0, -1).flatMap((t, k) => (t >= quarter ? [60 / (catches[k + 1] - t)] : []));
    const m = rates.reduce((a, b) => a + b, 0) / rates.length;
    const truthCv = (Math.sqrt(rates.reduce((a, b) => a + (b - m) ** 2, 0) / (rates.length - 1)) / m) * 100;
    expect(Math.abs(result.overall.rate_cv_pct! - truthCv)).toBeLessThan(0.6);
    expect(result.segments).toHaveLength(4);
  });

  it("answers insufficient data for an effort too short to analyse", () => {
    const short = run({ vessel: "K1", durationMs: 8000, seed: 34 }).session;
    expect(start(short).status).toBe("insufficient_data");
    expect(consistency(short, { segments: 2 }).status).toBe("insufficient_data");
  });
});
