import type { DecodedSvc } from "../types";
import { lowPassZeroPhase } from "./filters";

/**
 * Calibrated, levelled signals at the IMU rate (docs/processing.md
 * "Signals"): specific force rotated so that mean gravity lies on +z
 * (removes the mounting tilt), gyro bias removed, roll and pitch from a
 * complementary filter, surge acceleration with gravity removed, relative heading.
 */
export const G = 9.80665;
const ACCEL_LSB = G / 2048;
const GYRO_LSB = 1 / 16;
const DEG = Math.PI / 180;

export interface Signals {
  hz: number;
  n: number;
  /** Surge (forward) acceleration, gravity removed, m/s². */
  surge: Float64Array;
  /** Roll (+ starboard down) and pitch (+ bow up), degrees. */
  rollDeg: Float64Array;
  pitchDeg: Float64Array;
  /** Yaw rate about the levelled up axis, °/s (+ counterclockwise seen from above). */
  yawRateDegS: Float64Array;
  /** Heading change since the first sample, degrees clockwise. */
  headingDeg: Float64Array;
  /** 1 where the IMU sample was recorded. */
  present: Uint8Array;
}

/**
 * Lost samples are bridged linearly so filters see a continuous signal; `present` keeps the truth.
 * A walk over the samples in order rather than six bridged copies of the recording: `read(i)`
 * puts the six channels' bridged values at sample i into `values` — the same arithmetic as a
 * copy would hold: the recorded value, the first recorded one before it, the last after it, or
 * the line between the recorded samples on either side of a loss. One call per sample filling a
 * typed array (not one per channel returning a number): the six calls per sample were too many
 * to inline and each boxed its result, 8.6 million heap numbers for two hours.
 */
class Bridge {
  /** Fx, fy, fz (m/s²) and ωx, ωy, ωz (°/s) at the sample read last. */
  readonly values = new Float64Array(6);
  private readonly channels: [Int16Array, number][];
  private readonly present: Uint8Array;
  /** The last recorded sample at or before the walk's position, and the next at or after it (n: none). */
  private last = -1;
  private next = -1;
  constructor(imu: DecodedSvc["imu"]) {
    this.present = imu.present;
    this.channels = [
      [imu.ax, ACCEL_LSB],
      [imu.ay, ACCEL_LSB],
      [imu.az, ACCEL_LSB],
      [imu.gx, GYRO_LSB],
      [imu.gy, GYRO_LSB],
      [imu.gz, GYRO_LSB],
    ];
  }

  /** Moves the walk to sample i (0, 1, 2, … in order) and reads it. */
  read(i: number) {
    const { present, values, channels } = this;
    if (present[i]) {
      this.last = i;
      this.next = i;
      for (let c = 0; c < 6; c++) values[c] = channels[c][0][i] * channels[c][1];
      return;
    }
    if (this.next < i) {
      let next = i + 1;
      while (next < present.length && !present[next]) next++;
      this.next = next;
    }
    const { last, next } = this;
    for (let c = 0; c < 6; c++) {
      const [raw, scale] = channels[c];
      if (next >= present.length) values[c] = last >= 0 ? raw[last] * scale : 0;
      else if (last < 0) values[c] = raw[next] * scale;
      else {
        const from = raw[last] * scale;
        values[c] = from + ((raw[next] * scale - from) * (i - last)) / (next - last);
      }
    }
  }
}

export function calibrate(decoded: DecodedSvc): Signals {
  const { imu } = decoded;
  const hz = decoded.header.imuHz;
  const n = imu.total;

  // Mean specific force ≈ gravity (the boat starts and ends slow); mean rate ≈ gyro bias.
  let mx = 0,
    my = 0,
    mz = 0,
    bx = 0,
    by = 0,
    bz = 0;
  const sums = new Bridge(imu);
  const sample = sums.values;
  for (let i = 0; i < n; i++) {
    sums.read(i);
    mx += sample[0];
    my += sample[1];
    mz += sample[2];
    bx += sample[3];
    by += sample[4];
    bz += sample[5];
  }

  const norm = Math.hypot(mx, my, mz) || 1;
  const u = [mx / norm, my / norm, mz / norm];
  bx /= n;
  by /= n;
  bz /= n;

  // Rodrigues rotation taking u onto +z: levels the unit whatever its mounting tilt.
  const axis = [u[1], -u[0], 0];
  const s = Math.hypot(axis[0], axis[1]);
  const c = u[2];
  const k = s > 1e-9 ? [axis[0] / s, axis[1] / s, 0] : [1, 0, 0];
  const r = rotationMatrix(k, Math.atan2(s, c));

  const surge = new Float64Array(n);
  const rollDeg = new Float64Array(n);
  const pitchDeg = new Float64Array(n);
  const yawRateDegS = new Float64Array(n);
  const headingDeg = new Float64Array(n);
  // Complementary filter: gyro for the motion, gravity for the slow truth. τ = 10 s keeps surge out of the angles.
  const alpha = 10 / (10 + 1 / hz);
  const pitchAlpha = 20 / (20 + 1 / hz);
  let roll = Math.atan2(r[3] * mx + r[4] * my + r[5] * mz, r[6] * mx + r[7] * my + r[8] * mz);
  let pitch = 0;
  let heading = 0;
  const bridge = new Bridge(imu);
  const bridged = bridge.values;
  for (let i = 0; i < n; i++) {
    bridge.read(i);
    const fx = bridged[0],
      fy = bridged[1],
      fz = bridged[2];
    const ax = r[0] * fx + r[1] * fy + r[2] * fz;
    const ay = r[3] * fx + r[4] * fy + r[5] * fz;
    const az = r[6] * fx + r[7] * fy + r[8] * fz;
    const gx = bridged[3] - bx,
      gy = bridged[4] - by,
      gz = bridged[5] - bz;
    const rx = r[0] * gx + r[1] * gy + r[2] * gz;
    const ry = r[3] * gx + r[4] * gy + r[5] * gz;
    const rz = r[6] * gx + r[7] * gy + r[8] * gz;
    // Roll rate is +x; bow-up pitch is a negative rotation about +y (port).
    roll = alpha * (roll + (rx * DEG) / hz) + (1 - alpha) * Math.atan2(ay, az);
    // Pitch from the gyro alone, slowly pulled back to the mounting's level: gravity cannot
    // be told apart from the boat's own acceleration along x.
    pitch = pitchAlpha * (pitch - (ry * DEG) / hz);
    heading -= rz / hz;
    rollDeg[i] = roll / DEG;
    pitchDeg[i] = pitch / DEG;
    yawRateDegS[i] = rz;
    headingDeg[i] = heading;
    surge[i] = ax - G * Math.sin(pitch);
  }
  return { hz, n, surge, rollDeg, pitchDeg, yawRateDegS, headingDeg, present: imu.present };
}

function rotationMatrix(k: number[], angle: number): number[] {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const t = 1 - c;
  const [x, y, z] = k;
  return [
    t * x * x + c,
    t * x * y - s * z,
    t * x * z + s * y,
    t * x * y + s * z,
    t * y * y + c,
    t * y * z - s * x,
    t * x * z - s * y,
    t * y * z + s * x,
    t * z * z + c,
  ];
}

/** Surge filtered for stroke timing: zero-phase low-pass at 8 Hz keeps the catch's steep rise. */
export function strokeSignal(signals: Signals): Float64Array {
  return lowPassZeroPhase(signals.surge, 8, signals.hz);
}

/** Surge with only sensor noise removed (25 Hz), for onsets that the 8 Hz signal would smear. */
export function sharpStrokeSignal(signals: Signals): Float64Array {
  return lowPassZeroPhase(signals.surge, Math.min(25, signals.hz / 4), signals.hz);
}
