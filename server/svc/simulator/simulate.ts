import type { SvcContent, VesselType } from "../types";
import { boatProfile } from "./boat-profiles";
import { Random } from "./random";

/**
 * The session simulator (docs/simulator.md): a 100 Hz motion model of a
 * sprint boat — drift, standing start, effort, cool-down — turned into the
 * signals a mounted unit records, with known ground truth.
 */
export interface SimulateOptions {
  vessel: VesselType;
  /** Exactly one of a distance (50–1000 m) or a duration. */
  distanceM?: number;
  durationMs?: number;
  seed: number;
  pace?: "race" | "training";
  noise?: "clean" | "noisy";
  /** Extra speed lost by the planned end, as a fraction (0.1: 10 % slower at the end; the rate drops half as much). For analysis tests. */
  fade?: number;
  /** Kayaks: left drives stronger by this fraction of the mean, right weaker by as much (0.2: 1.1 and 0.9). For analysis tests. */
  sideImbalance?: number;
  /** Sensor noise beyond the noise level's defaults, for the uncertainty calibration (bench:uncertainty). */
  sensorNoise?: SensorNoise;
  /**
   * A stronger standing start, for the uncertainty calibration: the first `strokes` strokes at
   * `rate` more stroke rate (0.15: 15 %) and `drive` times the drive (default: only the first
   * stroke 1.3 × stronger, the rate ramping up from 90 %).
   */
  start?: { strokes: number; rate: number; drive: number };
}

export interface SensorNoise {
  /** GNSS Doppler speed noise, m/s (default 0.05 clean, 0.1 noisy). */
  dopplerMs?: number;
  /** Accelerometer white noise, g (default 0.01 clean, 0.025 noisy). */
  accelG?: number;
  /** GNSS outages: how many, and the range of their lengths in seconds (default noisy: 1–3 of 1–3 s; clean: none). */
  outages?: { count: number; minS: number; maxS: number };
  /**
   * What the accelerometer records. Default "whole": the boat's whole acceleration (dv/dt), as a
   * real accelerometer does, including the pull of the speed toward its mean and the stop at zero
   * speed. "forces": only the mean and stroke accelerations, leaving those two out — the
   * simulator's defect before 2026-12-02, kept so bench:uncertainty-sources can show what it cost.
   */
  recordedAcceleration?: "whole" | "forces";
}

export interface SimulationTruth {
  vessel: VesselType;
  pace: "race" | "training";
  noise: "clean" | "noisy";
  seed: number;
  /** Seconds from the first IMU sample. */
  effort_start_s: number;
  effort_end_s: number;
  distance_m: number;
  duration_ms: number;
  /** Every catch of the effort; side for kayaks. */
  catches: { t_s: number; side: "left" | "right" | null }[];
  /** Cumulative split times (s from the start) for 4 and 10 equal splits. */
  split_times_s: { "4": number[]; "10": number[] };
}

export interface Simulation {
  content: SvcContent;
  truth: SimulationTruth;
  /** Truth distance from the effort start at each IMU sample (m), for any split count. */
  distanceFromStartM: Float64Array;
}

const G = 9.80665;
export const IMU_HZ = 100;
const GNSS_HZ = 10;
export const DRIVE_FRACTION = 0.45;
const DEG = Math.PI / 180;

/**
 * Zero-mean surge shape over one stroke cycle φ ∈ [0,1): a drive lobe that
 * rises steeply from the catch, then a recovery lobe whose deepest point,
 * the check, comes just before the next catch (as measured on sprint boats).
 */
const drive = (phase: number) => Math.pow(Math.sin((Math.PI * phase) / DRIVE_FRACTION), 0.8);
const RECOVERY_P = 5.5;
const RECOVERY_Q = 0.5;
const recoveryRaw = (u: number) => Math.pow(u, RECOVERY_P) * Math.pow(1 - u, RECOVERY_Q);
const RECOVERY_PEAK = recoveryRaw(RECOVERY_P / (RECOVERY_P + RECOVERY_Q));
const [DRIVE_MEAN, RECOVERY_MEAN] = (() => {
  let d = 0;
  let r = 0;
  const steps = 10_000;
  for (let i = 0; i < steps; i++) {
    d += drive(((i + 0.5) / steps) * DRIVE_FRACTION) / steps;
    r += recoveryRaw((i + 0.5) / steps) / RECOVERY_PEAK / steps;
  }
  return [d * DRIVE_FRACTION, r * (1 - DRIVE_FRACTION)];
})();
export function surgeShape(phase: number): number {
  if (phase < DRIVE_FRACTION) return drive(phase);
  const u = (phase - DRIVE_FRACTION) / (1 - DRIVE_FRACTION);
  return -(DRIVE_MEAN / RECOVERY_MEAN) * (recoveryRaw(u) / RECOVERY_PEAK);
}

export interface Stroke {
  t: number;
  period: number;
  amplitude: number;
  side: "left" | "right" | null;
  inEffort: boolean;
  /** A turning (sweep) stroke: extra heading change over its drive, degrees clockwise (interval practices). */
  turnDeg?: number;
}

export function simulateSession(options: SimulateOptions): Simulation {
  if ((options.distanceM === undefined) === (options.durationMs === undefined))
    throw new Error("give exactly one of distanceM and durationMs");
  const rng = new Random(options.seed * 7919 + 17);
  const pace = options.pace ?? "race";
  const noisy = (options.noise ?? "clean") === "noisy";
  const base = boatProfile(options.vessel, pace);
  const targetSpeed = base.speedMS * rng.uniform(0.96, 1.04);
  const targetRate = base.rateSpm * rng.uniform(0.95, 1.05);
  const idleS = rng.uniform(15, 35);
  const coolS = rng.uniform(15, 30);
  // Long enough for the slowest effort plus cool-down; trimmed afterwards.
  const effortGuessS = options.durationMs !== undefined ? options.durationMs / 1000 : (options.distanceM! / targetSpeed) * 1.35 + 8;
  const maxSamples = Math.ceil((idleS + effortGuessS + coolS + 5) * IMU_HZ);

  // --- Truth kinematics at 100 Hz -------------------------------------------------------
  const speed = new Float64Array(maxSamples);
  const accel = new Float64Array(maxSamples);
  const position = new Float64Array(maxSamples);
  const phaseOf = new Float64Array(maxSamples).fill(-1);
  const strokeOf = new Int32Array(maxSamples).fill(-1);
  const strokes: Stroke[] = [];

  // A few light positioning strokes while lining up (noisy sessions), then the standing start.
  if (noisy) {
    for (let k = 0, n = Math.floor(rng.uniform(1, 4)); k < n; k++) {
      const t = rng.uniform(2, idleS - 8);
      strokes.push({
        t,
        period: 60 / (targetRate * 0.6),
        amplitude: base.driveAccelMS2 * 0.18,
        side: base.kayak ? (k % 2 ? "right" : "left") : null,
        inEffort: false,
      });
    }
    strokes.sort((a, b) => a.t - b.t);
  }

  const startT = Math.round(idleS * IMU_HZ) / IMU_HZ + rng.uniform(0, 0.009);
  const firstSide = rng.next() < 0.5 ? "left" : "right";
  const driftSpeed = rng.uniform(0.05, 0.25);
  let vMean = driftSpeed;
  let x = 0;
  let v = driftSpeed;
  let effortEndT = Number.POSITIVE_INFINITY;
  let effortStartX = 0;
  let strokeIndex = 0;
  let nextCatch = startT;
  let coolEndT = Number.POSITIVE_INFINITY;
  let n = 0;
  let currentStroke = -1;
  const plannedS = options.durationMs !== undefined ? options.durationMs / 1000 : options.distanceM! / targetSpeed;
  const fadePerS = (options.fade ?? 0) / plannedS;
  const fatiguePerS = rng.uniform(0.0001, 0.0003) + fadePerS;
  const imbalance = options.sideImbalance ?? 0;

  for (; n < maxSamples; n++) {
    const t = n / IMU_HZ;
    // New effort or cool-down stroke at its catch time.
    if (t >= nextCatch && t < coolEndT - 6) {
      const k = strokeIndex++;
      const afterEnd = t >= effortEndT;
      const sinceEnd = afterEnd ? t - effortEndT : 0;
      const startStroke = options.start !== undefined && k < options.start.strokes;
      const ramp = options.start ? (startStroke ? 1 + options.start.rate : 1) : 0.9 + 0.1 * (1 - Math.exp(-k / 4));
      // Floored at 70 %: hour-long recordings (bench:svc, bench:analytics) must not fade to a standstill.
      const fatigue = Math.max(0.7, 1 - (fatiguePerS - fadePerS / 2) * (t - startT));
      const rate = afterEnd ? targetRate * Math.max(0.55, 0.9 - sinceEnd * 0.05) : targetRate * ramp * fatigue * (1 + rng.normal(0, 0.012));
      const amplitude = afterEnd
        ? base.driveAccelMS2 * Math.max(0.25, 0.8 - sinceEnd * 0.06)
        : base.driveAccelMS2 * (1 + rng.normal(0, 0.06)) * (options.start ? (startStroke ? options.start.drive : 1) : k === 0 ? 1.3 : 1);
      const side = base.kayak ? ((k % 2 === 0) === (firstSide === "left") ? "left" : "right") : null;
      const sideFactor = afterEnd || !side ? 1 : 1 + (side === "left" ? imbalance / 2 : -imbalance / 2);
      strokes.push({ t: nextCatch, period: 60 / rate, amplitude: amplitude * sideFactor, side, inEffort: !afterEnd });
      nextCatch += 60 / rate;
    }
    // Which stroke cycle are we in?
    while (currentStroke + 1 < strokes.length && strokes[currentStroke + 1].t <= t) currentStroke++;
    let surge = 0;
    if (currentStroke >= 0) {
      const s = strokes[currentStroke];
      const phase = (t - s.t) / s.period;
      if (phase < 1) {
        // From standstill the recovery cannot push the boat backwards: the surge scales with speed.
        // (Against the faded target when a fade is simulated, so the fade is not pushed back.)
        const scale = 0.35 + 0.65 * Math.min(1, vMean / (targetSpeed * (1 - fadePerS * Math.max(0, Math.min(t, effortEndT) - startT))));
        surge = s.amplitude * surgeShape(phase) * (phase < DRIVE_FRACTION ? 1 : scale);
        phaseOf[n] = phase;
        strokeOf[n] = currentStroke;
      }
    }
    let meanAccel: number;
    if (t < startT) {
      // Drift, slowing to a hold on the start line for the last seconds.
      const hold = t > startT - 4 ? 0.02 : driftSpeed;
      meanAccel = (hold - vMean) / 2;
    } else if (t < effortEndT) {
      meanAccel = (targetSpeed * Math.max(0.7, 1 - fatiguePerS * (t - startT)) - vMean) / base.accelerationTauS;
    } else {
      meanAccel = ((t < coolEndT - 6 ? 2.2 : 0.3) - vMean) / 6;
    }
    vMean += meanAccel / IMU_HZ;
    const a = meanAccel + surge;
    const before = v;
    v = Math.max(0, v + a / IMU_HZ);
    // Keep the instantaneous speed near its mean (surge is zero-mean; this removes numeric drift).
    v += (vMean - v) * (1 / (IMU_HZ * 8));
    // What an accelerometer feels is the change of speed, whatever caused it.
    accel[n] = options.sensorNoise?.recordedAcceleration === "forces" ? a : (v - before) * IMU_HZ;
    speed[n] = v;
    x += v / IMU_HZ;
    position[n] = x;
    if (t === startT || (t > startT && n > 0 && (n - 1) / IMU_HZ < startT)) effortStartX = position[n - 1] ?? 0;

    if (!Number.isFinite(effortEndT) && t > startT) {
      const covered = x - effortStartX;
      const reached = options.distanceM !== undefined ? covered >= options.distanceM : t - startT >= options.durationMs! / 1000;
      if (reached) {
        // Exact crossing time, interpolated within the sample.
        if (options.distanceM !== undefined) {
          const before = position[n - 1] - effortStartX;
          effortEndT = (n - 1) / IMU_HZ + (options.distanceM - before) / (covered - before) / IMU_HZ;
        } else {
          effortEndT = startT + options.durationMs! / 1000;
        }
        coolEndT = effortEndT + coolS;
      }
    }
    if (t >= coolEndT) break;
  }
  const total = n;

  // Truth distance from the start (sample-exact start position).
  const startSample = Math.ceil(startT * IMU_HZ);
  const distanceFromStart = new Float64Array(total);
  const startPos = position[startSample - 1] + speed[startSample - 1] * (startT - (startSample - 1) / IMU_HZ);
  for (let i = 0; i < total; i++) distanceFromStart[i] = position[i] - startPos;
  const distanceM = options.distanceM ?? Math.round(distanceAt(distanceFromStart, effortEndT));
  const splitTimes = (count: number) =>
    Array.from({ length: count }, (_, k) =>
      k === count - 1
        ? effortEndT - startT
        : timeAtDistance(distanceFromStart, ((k + 1) * (options.distanceM ?? distanceAt(distanceFromStart, effortEndT))) / count) - startT,
    );

  const catches = strokes.filter((s) => s.inEffort && s.t >= startT && s.t < effortEndT).map((s) => ({ t_s: round(s.t, 4), side: s.side }));
  const content = renderSensors({
    rng,
    noisy,
    base,
    total,
    accel,
    speed,
    phaseOf,
    strokeOf,
    strokes,
    startT,
    effortEndT,
    seed: options.seed,
    sensorNoise: options.sensorNoise,
  });

  return {
    content,
    truth: {
      vessel: options.vessel,
      pace,
      noise: noisy ? "noisy" : "clean",
      seed: options.seed,
      effort_start_s: round(startT, 4),
      effort_end_s: round(effortEndT, 4),
      distance_m: distanceM,
      duration_ms: Math.round((effortEndT - startT) * 1000),
      catches,
      split_times_s: { "4": splitTimes(4).map((s) => round(s, 4)), "10": splitTimes(10).map((s) => round(s, 4)) },
    },
    distanceFromStartM: distanceFromStart,
  };
}

export const round = (value: number, digits: number) => Number(value.toFixed(digits));

export function distanceAt(distance: Float64Array, t: number): number {
  const i = Math.min(distance.length - 2, Math.floor(t * IMU_HZ));
  const f = t * IMU_HZ - i;
  return distance[i] + (distance[i + 1] - distance[i]) * f;
}

export function timeAtDistance(distance: Float64Array, d: number): number {
  let lo = 0;
  let hi = distance.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (distance[mid] < d) lo = mid;
    else hi = mid;
  }
  const span = distance[hi] - distance[lo];
  return (lo + (span > 0 ? (d - distance[lo]) / span : 0)) / IMU_HZ;
}

export interface RenderInput {
  rng: Random;
  noisy: boolean;
  base: ReturnType<typeof boatProfile>;
  total: number;
  accel: Float64Array;
  speed: Float64Array;
  phaseOf: Float64Array;
  strokeOf: Int32Array;
  strokes: Stroke[];
  startT: number;
  effortEndT: number;
  seed: number;
  /** Efforts for heart rate (default: the one effort [startT, effortEndT]). */
  efforts?: { startT: number; endT: number }[];
  /** Multiplies the number of IMU and GNSS losses of noisy recordings (long recordings lose more; default 1). */
  lossScale?: number;
  sensorNoise?: SensorNoise;
}

/** Attitude, sensor frame, noise, quantization, GNSS and heart rate. */
export function renderSensors(input: RenderInput): SvcContent {
  const { rng, noisy, base, total, accel, speed, phaseOf, strokeOf, strokes } = input;
  const imu = {
    total,
    present: new Uint8Array(total).fill(1),
    ax: new Int16Array(total),
    ay: new Int16Array(total),
    az: new Int16Array(total),
    gx: new Int16Array(total),
    gy: new Int16Array(total),
    gz: new Int16Array(total),
  };
  // Sensor noise plus hull vibration: MEMS noise alone is ~2 mg at 100 Hz; boats add more.
  const accelNoise = (input.sensorNoise?.accelG ?? (noisy ? 0.025 : 0.01)) * G;
  const gyroNoise = noisy ? 0.8 : 0.3;
  const gyroBias = [rng.normal(0, 0.3), rng.normal(0, 0.3), rng.normal(0, 0.3)];
  // Mounting tilt: the unit is never perfectly level in the hull.
  const tiltRoll = rng.uniform(-3, 3) * DEG;
  const tiltPitch = rng.uniform(-3, 3) * DEG;
  const [cr, sr, cp, sp] = [Math.cos(tiltRoll), Math.sin(tiltRoll), Math.cos(tiltPitch), Math.sin(tiltPitch)];
  const toSensor = (v: [number, number, number]): [number, number, number] => {
    // Rotate about x (roll), then about y (pitch).
    const y1 = cr * v[1] - sr * v[2];
    const z1 = sr * v[1] + cr * v[2];
    return [cp * v[0] + sp * z1, y1, -sp * v[0] + cp * z1];
  };
  const canoeSide = rng.next() < 0.5 ? 1 : -1;
  const trimPitch = rng.uniform(-0.5, 0.5) * DEG;
  let roll = 0;
  let pitch = trimPitch;
  let prevRoll = 0;
  let prevPitch = trimPitch;
  let heading = rng.uniform(0, 360);
  const headings = new Float64Array(total);
  const clamp16 = (value: number) => Math.max(-32768, Math.min(32767, Math.round(value)));

  for (let i = 0; i < total; i++) {
    const t = i / IMU_HZ;
    const phase = phaseOf[i];
    const stroke = strokeOf[i] >= 0 ? strokes[strokeOf[i]] : null;
    const intensity = stroke ? Math.min(1, stroke.amplitude / base.driveAccelMS2) : 0;
    const driveLobe = phase >= 0 && phase < DRIVE_FRACTION ? Math.sin((Math.PI * phase) / DRIVE_FRACTION) : 0;
    const waves = 0.4 * DEG * Math.sin(2 * Math.PI * 0.35 * t + input.seed);
    // Kayaks roll toward the working blade; canoes lean to the paddling side and rock with each stroke.
    const sideSign = stroke?.side === "left" ? -1 : stroke?.side === "right" ? 1 : canoeSide;
    roll = base.kayak
      ? sideSign * base.rollDeg * DEG * driveLobe * intensity + waves
      : canoeSide * (1.5 * DEG + base.rollDeg * DEG * 0.5 * driveLobe * intensity) + waves;
    pitch = trimPitch + (phase >= 0 ? base.pitchDeg * DEG * Math.sin(2 * Math.PI * phase) * intensity : 0) + 0.3 * waves;
    // Yaw: kayak strokes turn the bow away from the blade; canoe strokes turn it away and the J-stroke brings it back.
    let yawRateDeg = 0;
    if (phase >= 0) {
      const turn = base.yawRateDegS * intensity;
      if (base.kayak)
        yawRateDeg = sideSign * turn * driveLobe; // a left stroke turns the bow to starboard (negative about z up)
      else
        yawRateDeg =
          -canoeSide *
          turn *
          (phase < DRIVE_FRACTION
            ? driveLobe
            : -Math.sin((Math.PI * (phase - DRIVE_FRACTION)) / (1 - DRIVE_FRACTION)) * (DRIVE_FRACTION / (1 - DRIVE_FRACTION)));
      // A sweep stroke's turn, spread over its drive lobe (whose integral is period × DRIVE_FRACTION × 2/π).
      if (stroke?.turnDeg) yawRateDeg -= (stroke.turnDeg * driveLobe) / (stroke.period * DRIVE_FRACTION * (2 / Math.PI));
    }
    heading += -yawRateDeg / IMU_HZ; // heading is clockwise, yaw rate (about z up) counterclockwise
    headings[i] = heading;
    const rollRate = (roll - prevRoll) * IMU_HZ;
    const pitchRate = (pitch - prevPitch) * IMU_HZ;
    prevRoll = roll;
    prevPitch = pitch;

    const heave = phase >= 0 ? 0.6 * intensity * Math.sin(4 * Math.PI * phase) : 0;
    const up: [number, number, number] = [Math.sin(pitch), Math.sin(roll) * Math.cos(pitch), Math.cos(roll) * Math.cos(pitch)];
    const force = toSensor([accel[i] + G * up[0], G * up[1] + 0.2 * heave, heave + G * up[2]]);
    const rates = toSensor([rollRate / DEG, -pitchRate / DEG, yawRateDeg]);
    imu.ax[i] = clamp16(((force[0] + rng.normal(0, accelNoise)) / G) * 2048);
    imu.ay[i] = clamp16(((force[1] + rng.normal(0, accelNoise)) / G) * 2048);
    imu.az[i] = clamp16(((force[2] + rng.normal(0, accelNoise)) / G) * 2048);
    imu.gx[i] = clamp16((rates[0] + gyroBias[0] + rng.normal(0, gyroNoise)) * 16);
    imu.gy[i] = clamp16((rates[1] + gyroBias[1] + rng.normal(0, gyroNoise)) * 16);
    imu.gz[i] = clamp16((rates[2] + gyroBias[2] + rng.normal(0, gyroNoise)) * 16);
  }
  if (noisy) {
    // Occasional IMU gaps: lost blocks of 5–40 samples.
    for (let k = 0, gaps = Math.round(Math.floor(rng.uniform(1, 5)) * (input.lossScale ?? 1)); k < gaps; k++) {
      const at = Math.floor(rng.uniform(0.1, 0.9) * total);
      imu.present.fill(0, at, Math.min(total - 1, at + Math.floor(rng.uniform(5, 40))));
    }
  }

  // GNSS at 10 Hz: positions with a few metres of correlated noise, Doppler speed, short fix losses.
  const gnssTotal = Math.floor((total / IMU_HZ) * GNSS_HZ);
  const gnss = {
    total: gnssTotal,
    latE7: new Int32Array(gnssTotal),
    lonE7: new Int32Array(gnssTotal),
    speedMmS: new Uint16Array(gnssTotal),
    courseCdeg: new Uint16Array(gnssTotal),
    fix: new Uint8Array(gnssTotal),
    satellites: new Uint8Array(gnssTotal),
    hdopC: new Uint16Array(gnssTotal),
  };
  const lat0 = 42.4296 + rng.uniform(-0.01, 0.01);
  const lon0 = -8.6446 + rng.uniform(-0.01, 0.01);
  const metresPerDegLat = 111_320;
  const metresPerDegLon = 111_320 * Math.cos(lat0 * DEG);
  let north = 0;
  let east = 0;
  let errN = 0;
  let errE = 0;
  const lossMask = new Uint8Array(gnssTotal);
  const outages = input.sensorNoise?.outages;
  if (outages) {
    for (let k = 0; k < outages.count; k++) {
      const at = Math.floor(rng.uniform(0.15, 0.85) * gnssTotal);
      lossMask.fill(1, at, Math.min(gnssTotal, at + Math.floor(rng.uniform(outages.minS, outages.maxS) * GNSS_HZ)));
    }
  } else if (noisy) {
    for (let k = 0, losses = Math.round(Math.floor(rng.uniform(1, 4)) * (input.lossScale ?? 1)); k < losses; k++) {
      const at = Math.floor(rng.uniform(0.15, 0.85) * gnssTotal);
      lossMask.fill(1, at, Math.min(gnssTotal, at + Math.floor(rng.uniform(10, 30))));
    }
  }
  const speedNoise = input.sensorNoise?.dopplerMs ?? (noisy ? 0.1 : 0.05);
  for (let j = 0, i = 0; j < gnssTotal; j++) {
    const target = Math.round((j * IMU_HZ) / GNSS_HZ);
    for (; i < target; i++) {
      north += (speed[i] / IMU_HZ) * Math.cos(headings[i] * DEG);
      east += (speed[i] / IMU_HZ) * Math.sin(headings[i] * DEG);
    }
    errN = errN * 0.98 + rng.normal(0, noisy ? 0.6 : 0.3);
    errE = errE * 0.98 + rng.normal(0, noisy ? 0.6 : 0.3);
    if (lossMask[j]) continue; // fix = 0: a placeholder with no position
    gnss.latE7[j] = Math.round((lat0 + (north + errN) / metresPerDegLat) * 1e7);
    gnss.lonE7[j] = Math.round((lon0 + (east + errE) / metresPerDegLon) * 1e7);
    gnss.speedMmS[j] = Math.max(0, Math.min(65535, Math.round((speed[target] + rng.normal(0, speedNoise)) * 1000)));
    gnss.courseCdeg[j] = Math.round((((headings[target] % 360) + 360) % 360) * 100) % 36000;
    gnss.fix[j] = 3;
    gnss.satellites[j] = Math.round(rng.uniform(7, 13));
    gnss.hdopC[j] = Math.round(rng.uniform(70, noisy ? 180 : 120));
  }

  // Heart rate, 1 Hz: rises toward an effort level with a 20 s time constant, occasional dropouts.
  const hrTotal = Math.floor(total / IMU_HZ);
  const hrBpm = new Uint8Array(hrTotal);
  const efforts = input.efforts ?? [{ startT: input.startT, endT: input.effortEndT }];
  const rest = rng.uniform(80, 100);
  const peak = rng.uniform(172, 192);
  let hr = rest;
  for (let k = 0; k < hrTotal; k++) {
    const goal = efforts.some((e) => k >= e.startT && k < e.endT) ? peak : rest + 30;
    hr += (goal - hr) / 20;
    hrBpm[k] = noisy && rng.next() < 0.03 ? 0 : Math.round(hr + rng.normal(0, 1));
  }

  return {
    header: {
      deviceSerial: `SIM${String(input.seed).padStart(13, "0")}`.slice(0, 16),
      hardwareModel: 2,
      firmware: { major: 3, minor: 1, patch: 7 },
      startUnixMs: Date.UTC(2026, 4, 10, 7, 0, 0) + (input.seed % 1000) * 3_600_000,
      utcOffsetMin: 120,
      imuHz: IMU_HZ,
      gnssHz: GNSS_HZ,
      hrPeriodMs: 1000,
      keyId: 0,
      nonce: Uint8Array.from({ length: 12 }, () => Math.floor(rng.next() * 256)),
    },
    imu,
    gnss,
    hrBpm,
    events: [
      { imuIndex: Math.max(0, Math.round((input.startT + rng.uniform(-3, 1)) * IMU_HZ)), kind: 1 },
      { imuIndex: Math.min(total - 1, Math.round((input.effortEndT + rng.uniform(0, 4)) * IMU_HZ)), kind: 3 },
    ],
  };
}
