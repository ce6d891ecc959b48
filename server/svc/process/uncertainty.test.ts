import { describe, expect, it } from "vitest";
import { encodeSvc } from "../container";
import { loadKeyring } from "../keyring";
import { simulateSession } from "../simulator/simulate";
import { processSvc } from "./process";
import { computeSplits } from "./track";
import type { EffortUncertainty } from "./types";
import {
  distanceVariance,
  finalTimeUncertainty,
  formatUncertainty,
  FUSION_EXCESS,
  splitUncertainties,
  withUncertainty,
} from "./uncertainty";

/** The Doppler noise's variance as the estimator counts it: the measured σ_v times the fusion's excess. */
const r = (0.1 * FUSION_EXCESS) ** 2;

const base: EffortUncertainty = {
  speed_noise_ms: 0.1,
  fix_interval_s: 0.1,
  drift_rate: 1e-3,
  start_sd_s: 0.003,
  ends_at: "distance",
  outages: [],
};

describe('split uncertainty (docs/processing.md "Split uncertainty")', () => {
  it("integrates the Doppler noise as a random walk while there are fixes: V(t) = (κ·σ_v)²·Δ·(t − outage time), and an outage adds its bridge and edges", () => {
    expect(FUSION_EXCESS).toBeGreaterThanOrEqual(1);
    expect(distanceVariance(base, 100)).toBeCloseTo(r * 0.1 * 100, 10);
    const withOutage = { ...base, outages: [[40, 46, 0.02]] as [number, number, number][] };
    const edge = Math.sqrt(1e-3 * 0.1 * r) / 2;
    expect(distanceVariance(withOutage, 30)).toBeCloseTo(distanceVariance(base, 30), 10);
    // The 6 s without fixes carry the bridge and the edges instead of the Doppler's walk.
    const outageTerm = (0.02 * 36) / 12 + (36 * edge) / 2 - r * 0.1 * 6;
    expect(distanceVariance(withOutage, 100) - distanceVariance(base, 100)).toBeCloseTo(outageTerm, 10);
    // Half-way through the outage, half of its term.
    expect(distanceVariance(withOutage, 43) - distanceVariance(base, 43)).toBeCloseTo(outageTerm / 2, 10);
  });

  it("distance-ended: elapsed grows like √t and includes the start; the split's own time is smaller and lacks the start", () => {
    const times = [10, 20, 30, 40];
    const bars = splitUncertainties(base, times, [5, 5, 5, 5]);
    const expected = (t: number) => 1.96 * Math.sqrt((r * 0.1 * t) / 25 + 0.003 ** 2);
    bars.forEach((b, k) => expect(b.elapsed_s).toBeCloseTo(expected(times[k]), 3));
    expect(bars[0].split_s).toBe(bars[0].elapsed_s);
    // At a steady speed a later split's own time only carries its own 10 s of noise.
    for (const b of bars.slice(1)) expect(b.split_s).toBeCloseTo(1.96 * Math.sqrt((r * 0.1 * 10) / 25), 3);
    for (let k = 1; k < 4; k++) expect(bars[k].split_s).toBeLessThan(bars[k].elapsed_s);
  });

  it("time-ended: the last split's elapsed time is the duration itself (0), the middle one the widest bridge", () => {
    const bars = splitUncertainties({ ...base, ends_at: "time" }, [15, 30, 45, 60], [4, 4, 4, 4]);
    expect(bars[3].elapsed_s).toBe(0);
    expect(bars[1].elapsed_s).toBeGreaterThan(bars[0].elapsed_s);
    expect(bars[1].elapsed_s).toBeGreaterThan(bars[2].elapsed_s);
    // Bridge at the middle: V(30) − ¼·V(60)·… = σ²Δ·60·¼.
    expect(bars[1].elapsed_s).toBeCloseTo((1.96 * Math.sqrt(r * 0.1 * 60 * 0.25)) / 4, 3);
  });

  it("formats to the time's hundredths and states nothing when there is nothing to state", () => {
    expect(formatUncertainty(0.043)).toBe("± 0.04");
    expect(formatUncertainty(0.004)).toBe("± 0.01");
    expect(formatUncertainty(0)).toBe("");
    expect(formatUncertainty(null)).toBe("");
    expect(withUncertainty("0:56.20", 0.041)).toBe("0:56.20 ± 0.04");
    expect(withUncertainty("2:00.00", 0)).toBe("2:00.00");
  });

  it("on a processed recording: the noise is measured from the file, every split count is served, and the final time's figure is the last split's", () => {
    const keyring = loadKeyring({});
    const vessel = "K1" as const;
    const sim = simulateSession({
      vessel,
      seed: 4711,
      noise: "noisy",
      distanceM: 500,
      sensorNoise: { dopplerMs: 0.15, outages: { count: 1, minS: 4, maxS: 5 } },
    });
    const processed = processSvc(encodeSvc(sim.content, keyring), { vessel, distanceM: 500 }, keyring);
    const u = processed.track.uncertainty!;
    // Measured on the file, not taken from the simulator: close to the 0.15 m/s it was given.
    expect(u.speed_noise_ms).toBeGreaterThan(0.13);
    expect(u.speed_noise_ms).toBeLessThan(0.17);
    expect(u.outages).toHaveLength(1);
    expect(u.outages[0][1] - u.outages[0][0]).toBeGreaterThan(3.9);
    expect(u.ends_at).toBe("distance");
    for (const count of [1, 4, 20]) {
      const splits = computeSplits(processed.track, processed.strokes, count);
      for (const s of splits) {
        expect(s.time_uncertainty_s).toBeGreaterThan(0);
        expect(s.split_uncertainty_s).toBeGreaterThan(0);
      }
      expect(splits.at(-1)!.time_uncertainty_s).toBe(finalTimeUncertainty(processed.track));
    }
    const four = computeSplits(processed.track, processed.strokes, 4);
    expect(four[3].time_uncertainty_s!).toBeGreaterThan(four[0].time_uncertainty_s!);
    // Honest: the true times lie within the stated bars here (a 95 % statement; this seed is one of the 95).
    four.forEach((s, k) => expect(Math.abs(s.time_s - sim.truth.split_times_s["4"][k])).toBeLessThanOrEqual(s.time_uncertainty_s!));
  });

  it("a timed effort states 0 for its end and a bridge before it", () => {
    const keyring = loadKeyring({});
    const sim = simulateSession({ vessel: "C1", seed: 4712, noise: "clean", durationMs: 60_000 });
    const processed = processSvc(encodeSvc(sim.content, keyring), { vessel: "C1", durationMs: 60_000 }, keyring);
    expect(processed.track.uncertainty!.ends_at).toBe("time");
    const splits = computeSplits(processed.track, processed.strokes, 4);
    expect(splits[3].time_uncertainty_s).toBe(0);
    expect(splits[1].time_uncertainty_s).toBeGreaterThan(0);
    expect(finalTimeUncertainty(processed.track)).toBe(0);
  });

  it("a track stored before the estimator answers null, not a made-up figure", () => {
    const keyring = loadKeyring({});
    const sim = simulateSession({ vessel: "K2", seed: 4713, noise: "clean", distanceM: 200 });
    const processed = processSvc(encodeSvc(sim.content, keyring), { vessel: "K2", distanceM: 200 }, keyring);
    const { uncertainty, ...old } = processed.track;
    expect(uncertainty).toBeDefined();
    const splits = computeSplits(old, processed.strokes, 4);
    expect(splits.every((s) => s.time_uncertainty_s === null && s.split_uncertainty_s === null)).toBe(true);
    expect(finalTimeUncertainty(old)).toBeNull();
  });
});
