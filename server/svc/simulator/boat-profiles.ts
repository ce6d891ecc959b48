import type { VesselType } from "../types";

/**
 * Typical figures per boat class and pace (docs/simulator.md). Race values
 * follow published sprint data: K1 men ~4.8–5 m/s at 115–125 spm, K4 ~5.6 m/s,
 * C1 ~4.5 m/s at 60–70 spm (every blade entry counted).
 */
export interface BoatProfile {
  kayak: boolean;
  crew: number;
  /** Cruising speed of the effort, m/s. */
  speedMS: number;
  /** Stroke rate, strokes per minute. */
  rateSpm: number;
  /** Peak surge acceleration of the drive, m/s². */
  driveAccelMS2: number;
  /** Yaw rate amplitude of a stroke, °/s (kayaks turn away from the blade; canoes correct). */
  yawRateDegS: number;
  /** Roll amplitude of a stroke, degrees. */
  rollDeg: number;
  /** Pitch amplitude of a stroke, degrees. */
  pitchDeg: number;
  /** Speed time constant of the start, s (heavier crews take longer to reach speed). */
  accelerationTauS: number;
}

const RACE: Record<VesselType, BoatProfile> = {
  K1: {
    kayak: true,
    crew: 1,
    speedMS: 4.85,
    rateSpm: 118,
    driveAccelMS2: 5.5,
    yawRateDegS: 14,
    rollDeg: 3.5,
    pitchDeg: 0.8,
    accelerationTauS: 3.2,
  },
  K2: {
    kayak: true,
    crew: 2,
    speedMS: 5.25,
    rateSpm: 122,
    driveAccelMS2: 5.0,
    yawRateDegS: 11,
    rollDeg: 3.0,
    pitchDeg: 0.7,
    accelerationTauS: 3.6,
  },
  K4: {
    kayak: true,
    crew: 4,
    speedMS: 5.65,
    rateSpm: 126,
    driveAccelMS2: 4.6,
    yawRateDegS: 8,
    rollDeg: 2.5,
    pitchDeg: 0.6,
    accelerationTauS: 4.0,
  },
  C1: {
    kayak: false,
    crew: 1,
    speedMS: 4.45,
    rateSpm: 64,
    driveAccelMS2: 6.5,
    yawRateDegS: 10,
    rollDeg: 4.0,
    pitchDeg: 1.1,
    accelerationTauS: 3.4,
  },
  C2: {
    kayak: false,
    crew: 2,
    speedMS: 4.8,
    rateSpm: 68,
    driveAccelMS2: 6.0,
    yawRateDegS: 7,
    rollDeg: 3.0,
    pitchDeg: 1.0,
    accelerationTauS: 3.8,
  },
  C4: {
    kayak: false,
    crew: 4,
    speedMS: 5.2,
    rateSpm: 72,
    driveAccelMS2: 5.5,
    yawRateDegS: 5,
    rollDeg: 2.5,
    pitchDeg: 0.9,
    accelerationTauS: 4.2,
  },
};

export function boatProfile(vessel: VesselType, pace: "race" | "training"): BoatProfile {
  const race = RACE[vessel];
  if (pace === "race") return race;
  // Training pace: ~80 % of race speed at ~75 % of the rate, softer drives.
  return { ...race, speedMS: race.speedMS * 0.8, rateSpm: race.rateSpm * 0.75, driveAccelMS2: race.driveAccelMS2 * 0.7 };
}
