import { describe, expect, it } from "vitest";
import { encodeSvc } from "../container";
import { loadKeyring } from "../keyring";
import { simulateSession } from "../simulator/simulate";
import { processSvc } from "./process";

const keyring = loadKeyring({});

describe("effort start", () => {
  // A noisy standing start whose accelerometer noise makes the stroke detector take a peak
  // 0.94 s before the first catch (13 % of the drives after it) for a catch; found by
  // bench:uncertainty-sources (core 3 started this effort there).
  it("is the first real drive, not a noise peak just before it", () => {
    const sensorNoise = {
      dopplerMs: 0.2356099641136825,
      accelG: 0.04647724877577275,
      outages: { count: 1, minS: 1, maxS: 12 },
      recordedAcceleration: "whole" as const,
    };
    const simulation = simulateSession({
      vessel: "K2",
      distanceM: 200,
      pace: "training",
      noise: "noisy",
      seed: 60043,
      fade: 0.22664609574712813,
      sensorNoise,
    });
    const processed = processSvc(encodeSvc(simulation.content, keyring), { vessel: "K2", distanceM: 200 }, keyring);
    expect(Math.abs(processed.effort.start_s - simulation.truth.effort_start_s)).toBeLessThan(0.15);
  });
});
