import { expect, it } from "vitest";
import { decodeSvc, encodeSvc } from "../container";
import { loadKeyring } from "../keyring";
import { simulateSession } from "../simulator/simulate";
import { sampleDistance } from "./effort";
import { calibrate } from "./signals";
import { kinematics } from "./speed";

const keyring = loadKeyring({});

it("keeps the distance right when IMU samples are lost inside a GNSS outage (the smoother's variance clock)", () => {
  // This noisy session loses IMU samples at 42.04–42.27 s, inside a fix loss at 42.1–44.8 s.
  const simulation = simulateSession({ vessel: "K1", seed: 1011, pace: "race", noise: "noisy", distanceM: 200 });
  const decoded = decodeSvc(encodeSvc(simulation.content, keyring), keyring);
  const signals = calibrate(decoded);
  const start = simulation.truth.effort_start_s * 100;
  const worst = (fusion: "smoother" | "window") => {
    const { distance } = kinematics(decoded, signals, fusion);
    let error = 0;
    for (let i = Math.ceil(start); i < simulation.truth.effort_end_s * 100; i++) {
      error = Math.max(error, Math.abs(distance[i] - sampleDistance(distance, start) - simulation.distanceFromStartM[i]));
    }
    return error;
  };
  expect(worst("smoother")).toBeLessThan(0.5);
  expect(worst("window")).toBeGreaterThan(1);
});
