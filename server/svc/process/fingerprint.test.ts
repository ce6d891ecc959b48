import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { decodeSvc, encodeSvc } from "../container";
import { loadKeyring } from "../keyring";
import { simulateSession } from "../simulator/simulate";
import { parseTrainingSpec, simulateTraining } from "../simulator/training";
import type { SvcContent } from "../types";
import { suggestFromDecoded } from "./distance-suggestion";
import { processDecoded } from "./process";
import { processTraining } from "./training";
import { PROCESSING_CORE_VERSION } from "./version";

/**
 * Every figure the core produces, pinned: SHA-256 of the whole JSON output (strokes, splits'
 * track and uncertainty, summary, data quality, replay frames, sets) of fixed recordings. A change
 * meant to be faster, not different (docs/processing.md "Cost linear in the recording's length")
 * leaves these alone; a change that alters any figure bumps PROCESSING_CORE_VERSION and pins
 * the new outputs here.
 */
const keyring = loadKeyring({});
const fingerprint = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 16);
const decode = (content: SvcContent) => decodeSvc(encodeSvc(content, keyring), keyring);

/** A recording with lost IMU samples at its beginning and a 20 s loss inside the effort: the bridge's every case. */
function withImuLosses(content: SvcContent): SvcContent {
  const present = content.imu.present.slice();
  present.fill(0, 0, 150);
  present.fill(0, 6000, 8000);
  return { ...content, imu: { ...content.imu, present } };
}

it("core 6 produces exactly the figures it always did", () => {
  const k2 = decode(simulateSession({ vessel: "K2", distanceM: 500, seed: 5101, pace: "race", noise: "noisy" }).content);
  const c1 = decode(simulateSession({ vessel: "C1", durationMs: 60_000, seed: 5102, pace: "training", noise: "clean" }).content);
  const lost = decode(withImuLosses(simulateSession({ vessel: "K1", distanceM: 500, seed: 5103, pace: "race", noise: "noisy" }).content));
  const steps = parseTrainingSpec("6x45s/60s")!;
  const practice = decode(simulateTraining({ vessel: "K1", steps, seed: 5104, noise: "noisy" }).content);
  const withTemplate = processTraining(practice, { vessel: "K1", steps });
  const corrected = withTemplate.detected_sets.map((s, k) => (k === 2 ? { ...s, end_s: s.end_s + 2.5 } : s));
  expect(PROCESSING_CORE_VERSION).toBe(6);
  expect({
    k2: fingerprint(processDecoded(k2, { vessel: "K2", distanceM: 500 })),
    c1: fingerprint(processDecoded(c1, { vessel: "C1", durationMs: 60_000 })),
    c1Window: fingerprint(processDecoded(c1, { vessel: "C1", durationMs: 60_000 }, { speedFusion: "window" })),
    imuLosses: fingerprint(processDecoded(lost, { vessel: "K1", distanceM: 500 })),
    suggestion: fingerprint(suggestFromDecoded(k2, "K2")),
    trainingTemplate: fingerprint(withTemplate),
    trainingSignal: fingerprint(processTraining(practice, { vessel: "K1", sensitivity: 7 })),
    trainingCorrected: fingerprint(processTraining(practice, { vessel: "K1", steps, spans: corrected })),
  }).toEqual({
    k2: "ba44eafe34466e96",
    c1: "d3d3f6648885648c",
    c1Window: "abf94e32ac00a39b",
    imuLosses: "a869aa1b90462514",
    suggestion: "a939a3e9bd6c01a5",
    trainingTemplate: "e8a9b952a92e3f0a",
    trainingSignal: "20534cf4e636cfd8",
    // Re-pinned with the set-correction fix (issue 29 §1, docs/trainings.md "Corrections are undone exactly"): a
    // corrected span that is a detected set is measured as detection placed it. Only corrected trainings change; a
    // file's first processing does not, so the core version stays 5.
    trainingCorrected: "61b4d8e32f14f4d6",
    // Core 6 (issue 28 §6): a training work set's last stroke ends with its work. The three trainings change (they also
    // carry the core version); the single efforts stay bit for bit.
  });
});
