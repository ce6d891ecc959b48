import { describe, expect, it } from "vitest";
import { decodeSvc, encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { processSvc } from "../svc/process/process";
import { simulateSession, type SimulateOptions } from "../svc/simulator/simulate";
import { anomalies, dataQualityAnalysis, metricRelationships, progression, splitMotion } from "./more-analyses";

const keyring = loadKeyring({});
const run = (options: SimulateOptions) => {
  const simulation = simulateSession(options);
  const bytes = encodeSvc(simulation.content, keyring);
  return { simulation, bytes, session: processSvc(bytes, { vessel: options.vessel, distanceM: options.distanceM, durationMs: options.durationMs }, keyring) };
};
const ok = <T extends { status: string }>(result: T) => {
  if (result.status !== "ok") throw new Error("insufficient data");
  return result as Extract<T, { status: "ok" }>;
};

describe("more session analyses on simulated sessions", () => {
  const clean = run({ vessel: "K1", distanceM: 500, seed: 41, noise: "clean" });
  const noisy = run({ vessel: "K1", distanceM: 500, seed: 42, noise: "noisy" });
  const fading = run({ vessel: "C1", distanceM: 500, seed: 43, noise: "clean", fade: 0.15 });

  it("data quality grades a clean recording good and counts the samples a noisy one lost", () => {
    expect(ok(dataQualityAnalysis(clean.session)).grade).toBe("good");
    const result = ok(dataQualityAnalysis(noisy.session));
    const present = decodeSvc(noisy.bytes, keyring).imu.present;
    const lost = present.length - present.reduce((n, p) => n + p, 0);
    expect(result.imu_lost_pct).toBeCloseTo((lost / present.length) * 100, 2);
    expect(result.gnss_missing_pct).toBeGreaterThan(0);
  });

  it("anomalies: none in a steady race; a stroke made twice as fast is found", () => {
    expect(ok(anomalies(clean.session)).anomalies.filter((a) => a.metric === "rate")).toHaveLength(0);
    const strokes = clean.session.strokes.map((s) => ({ ...s }));
    strokes[60].rate *= 2;
    const found = ok(anomalies({ ...clean.session, strokes })).anomalies;
    expect(found.some((a) => a.stroke === 60 && a.metric === "rate")).toBe(true);
    expect(() => anomalies(clean.session, { sensitivity: 0.4 })).toThrow(RangeError);
  });

  it("progression and metric relationships see a simulated fade: speed and rate fall together", () => {
    const trends = ok(progression(fading.session, { segments: 5 })).trends;
    const held = ok(progression(clean.session, { segments: 5 })).trends;
    const speed = trends.find((t) => t.metric === "speed")!;
    expect(speed.trend_pct_per_segment).toBeLessThan(-1.5);
    expect(speed.trend_pct_per_segment).toBeLessThan(held.find((t) => t.metric === "speed")!.trend_pct_per_segment - 1);
    expect(trends.find((t) => t.metric === "rate")!.trend_pct_per_segment).toBeLessThan(0);
    const pairs = ok(metricRelationships(fading.session, { metrics: ["rate", "speed"] })).pairs;
    expect(pairs).toHaveLength(1);
    expect(pairs[0].correlation).toBeGreaterThan(0.5);
    expect(() => metricRelationships(fading.session, { metrics: ["rate", "power"] })).toThrow(RangeError);
  });

  it("split motion shows a K1 rolling more than a K4 (the classes' roll amplitudes)", () => {
    const k4 = run({ vessel: "K4", distanceM: 500, seed: 41, noise: "clean" }).session;
    const roll = (session: typeof k4) => ok(splitMotion(session)).segments.reduce((sum, s) => sum + s.roll_deg, 0);
    expect(roll(clean.session)).toBeGreaterThan(roll(k4));
    expect(ok(splitMotion(clean.session, { segments: 10 })).segments).toHaveLength(10);
  });
});
