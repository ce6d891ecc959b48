import { describe, expect, it } from "vitest";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { processSvc } from "../svc/process/process";
import { simulateSession, type SimulateOptions } from "../svc/simulator/simulate";
import { ANALYSIS_NAMES, DEFAULT_OPTIONS, runAnalysis } from ".";
import type { AnomaliesResult } from "./anomalies";
import type { ConsistencyResult } from "./consistency";
import type { DataQualityResult } from "./data-quality";
import {
  anomaliesFinding,
  consistencyFinding,
  dataQualityFinding,
  findingOf,
  finishFinding,
  pacingFinding,
  sideBalanceFinding,
} from "./findings";
import type { FinishResult } from "./finish";
import { analysisInputFromProcessed } from "./load-input";
import type { PacingResult } from "./pacing";
import type { SideBalanceResult } from "./side-balance";

const keyring = loadKeyring({});
function input(options: SimulateOptions) {
  const simulation = simulateSession(options);
  return analysisInputFromProcessed(
    processSvc(encodeSvc(simulation.content, keyring), { vessel: options.vessel, distanceM: options.distanceM }, keyring),
    false,
  );
}
const segment = (index: number, from: number, to: number, speed: number) => ({
  index,
  from_m: from,
  to_m: to,
  time_s: (to - from) / speed,
  speed_m_s: speed,
  pace_500m_s: 500 / speed,
  relative_speed_pct: 0,
  rate_spm: 110,
});

describe("pacing sentence", () => {
  it("says a crew faded, by how much and over what distance", () => {
    const r: PacingResult = {
      segments: [segment(1, 0, 250, 4.3), segment(2, 250, 500, 4.5), segment(3, 500, 750, 4.5), segment(4, 750, 1000, 4.32)],
      second_half_change_pct: -2,
      profile: "positive",
      tolerance_pct: 3,
      fade_pct: 4,
      fastest_segment: 2,
      slowest_segment: 1,
    };
    const finding = pacingFinding(r, "the crew");
    expect(finding.sentence).toMatch(/^The crew faded 4 % over the last 250 m\. Fastest: 250–500 m at 1:51\.1 \/500 m\.$/);
    expect(finding.chart!.bars.map((b) => b.label)).toEqual(["0–250 m", "250–500 m", "500–750 m", "750–1000 m"]);
    expect(finding.chart!.bars.filter((b) => b.highlight).map((b) => b.label)).toEqual(["250–500 m"]);
  });
  it("says a faster finish and an even pace in words", () => {
    const kick: PacingResult = {
      segments: [segment(1, 0, 100, 4), segment(2, 100, 200, 4.4), segment(3, 200, 300, 4.4), segment(4, 300, 400, 4.6)],
      second_half_change_pct: 2,
      profile: "negative",
      tolerance_pct: 3,
      fade_pct: 0,
      fastest_segment: 4,
      slowest_segment: 1,
    };
    expect(pacingFinding(kick).sentence).toMatch(/^The paddler finished 5 % faster over the last 100 m than in the body of the race\./);
    const even: PacingResult = {
      ...kick,
      segments: [segment(1, 0, 100, 4), segment(2, 100, 200, 4.4), segment(3, 200, 300, 4.4), segment(4, 300, 400, 4.41)],
    };
    expect(pacingFinding(even).sentence).toMatch(/^The paddler held the pace: the last 100 m were within 1 % of the body of the race\./);
  });
  it("reads the simulator's 12 % fade as a fade and its even effort as even", () => {
    const faded = runAnalysis("pacing", input({ vessel: "K1", distanceM: 500, seed: 21, noise: "clean", fade: 0.12 }), DEFAULT_OPTIONS);
    const even = runAnalysis("pacing", input({ vessel: "K1", distanceM: 500, seed: 21, noise: "clean" }), DEFAULT_OPTIONS);
    if (faded.status !== "ok" || even.status !== "ok") throw new Error("insufficient");
    expect(pacingFinding(faded.result as PacingResult).sentence).toMatch(/^The paddler faded \d+ % over the last 125 m\./);
    expect(pacingFinding(even.result as PacingResult).sentence).not.toMatch(/faded/);
  });
});

describe("the other sentences", () => {
  it("names the clearest anomaly in paddler's terms, or says there is none", () => {
    const base: AnomaliesResult = { threshold_z: 3.5, metrics: ["rate"], strokes_examined: 180, anomalies: [], per_100_strokes: 0 };
    expect(anomaliesFinding(base).sentence).toBe(
      "No stroke broke from the rhythm of the strokes around it (180 strokes at cruising speed).",
    );
    expect(anomaliesFinding(base).chart).toBeNull();
    const found = anomaliesFinding({
      ...base,
      anomalies: [
        { stroke_index: 99, time_s: 50, distance_m: 251.4, metric: "rate", value: 59, expected: 118, z: -12 },
        { stroke_index: 99, time_s: 50, distance_m: 251.4, metric: "stroke_distance", value: 6, expected: 3, z: 11 },
      ],
      per_100_strokes: 0.6,
    });
    expect(found.sentence).toBe(
      "One stroke broke from the rhythm of the strokes around it; the clearest at 251 m (stroke 100): stroke rate 59 spm where 118 was expected.",
    );
    expect(found.sentence).not.toMatch(/\bz\b/);
    expect(found.details.map((d) => d.term)).toContain("Threshold |z|");
  });
  it("keeps HDOP, RMSSD and z out of every sentence and explains each in the details", () => {
    const quality = dataQualityFinding({
      grade: "good",
      reasons: [],
      imu_samples: 1,
      imu_lost_pct: 0,
      imu_gaps: 0,
      longest_imu_gap_ms: 0,
      gnss_fixes: 1,
      gnss_missing_pct: 0,
      effort_fix_gaps: 0,
      effort_fix_gap_s: 0,
      satellites_mean: 9,
      hdop_mean: 0.9,
      heart_rate_coverage: null,
      warnings: [],
    } satisfies DataQualityResult);
    expect(quality.sentence).toBe("The recording is complete: the figures on this page can be trusted.");
    expect(quality.details.find((d) => d.term === "HDOP")!.explanation).toMatch(/satellites/);
    const steady = consistencyFinding({
      strokes: 150,
      cv_pct: [
        { metric: "speed", overall: 2.1, by_segment: [2, 2.2] },
        { metric: "rate", overall: 1.5, by_segment: [1.4, 1.6] },
      ],
      rhythm_rmssd_ms: 12,
      score: 82,
    } satisfies ConsistencyResult);
    expect(steady.sentence).toBe("Steady: from stroke to stroke, speed varied by 2.1 % and rate by 1.5 % (score 82 / 100).");
    expect(steady.details.find((d) => d.term === "Rhythm RMSSD")!.explanation).toMatch(/stroke times/);
    for (const f of [quality, steady]) expect(f.sentence).not.toMatch(/HDOP|RMSSD|z-score|\bCV\b/);
  });
  it("says which blade gives more, or that they are even", () => {
    const side = { strokes: 50, stroke_distance: 2.5, stroke_time: 0.5, peak_accel: 6 };
    const r: SideBalanceResult = {
      left: side,
      right: { ...side, peak_accel: 5.4 },
      asymmetry_pct: { stroke_distance: 0, stroke_time: 0, peak_accel: 10.53 },
      tolerance_pct: 3,
      stronger_side: "left",
      longer_side: null,
      segments: [],
    };
    expect(sideBalanceFinding(r).sentence).toBe("The left blade drives 11 % harder.");
    expect(sideBalanceFinding({ ...r, stronger_side: null }).sentence).toBe(
      "Both blades pull evenly: left and right differ by less than 3 %.",
    );
  });
  it("says how the finish went", () => {
    const w = (from: number, to: number, speed: number) => ({
      from_m: from,
      to_m: to,
      speed_m_s: speed,
      rate_spm: 110,
      stroke_distance_m: 2.4,
    });
    const r: FinishResult = {
      finish: w(375, 500, 4.3),
      body: w(125, 375, 4.5),
      speed_change_pct: -4.4,
      rate_change_pct: -2,
      stroke_distance_change_pct: -2.5,
      verdict: "fade",
      tolerance_pct: 3,
    };
    expect(finishFinding(r, "the crew").sentence).toBe("The crew lost 4 % of speed over the last 125 m (rate −2 %).");
  });
  it("gives every analysis of a real session a sentence and a chart that has bars", () => {
    const session = input({ vessel: "K1", distanceM: 500, seed: 22, noise: "noisy" });
    for (const name of ANALYSIS_NAMES) {
      const outcome = runAnalysis(name, session, DEFAULT_OPTIONS);
      if (outcome.status !== "ok") continue;
      const finding = findingOf(name, outcome.result, { seats: 1 });
      expect(finding.sentence, name).toMatch(/^[A-Z0-9].*\.$/);
      expect(finding.sentence, name).not.toMatch(/NaN|undefined|null/);
      if (finding.chart)
        expect(
          finding.chart.bars.every((b) => Number.isFinite(b.value)),
          name,
        ).toBe(true);
    }
  });
});
