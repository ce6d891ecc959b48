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
 * A walk over the samples in order rather than six bridged copies of the recording: `at(values, i)`
 * is the bridged value of sample i (the last walked to), the same arithmetic as a copy would
 * hold — the recorded value, the first recorded one before it, the last after it, or the line
 * between the recorded samples on either side of a loss.
 */
class Bridge {
  /** The last recorded sample at or before the walk's position, and the next at or after it (n: none). */
  private last = -1;
  private next = -1;
  constructor(private readonly present: Uint8Array) {}

  /** Moves the walk to sample i (0, 1, 2, … in order). */
  walkTo(i: number) {
    if (this.present[i]) {
      this.last = i;
      this.next = i;
    } else if (this.next < i) {
      let next = i + 1;
      while (next < this.present.length && !this.present[next]) next++;
      this.next = next;
    }
  }

  at(values: Int16Array, i: number, scale: number): number {
    if (this.present[i]) return values[i] * scale;
    const { last, next } = this;
    if (next >= this.present.length) return last >= 0 ? values[last] * scale : 0;
    if (last < 0) return values[next] * scale;
    const from = values[last] * scale;
    return from + ((values[next] * scale - from) * (i - last)) / (next - last);
  }
}

export function calibrate(decoded: DecodedSvc): Signals {
  const { imu } = decoded;
  const hz = decoded.header.imuHz;
  const n = imu.total;
  const { ax: fxRaw, ay: fyRaw, az: fzRaw, gx: wxRaw, gy: wyRaw, gz: wzRaw } = imu;

  // Mean specific force ≈ gravity (the boat starts and ends slow); mean rate ≈ gyro bias.
  let mx = 0,
    my = 0,
    mz = 0,
    bx = 0,
    by = 0,
    bz = 0;
  const sums = new Bridge(imu.present);
  for (let i = 0; i < n; i++) {
    sums.walkTo(i);
    mx += sums.at(fxRaw, i, ACCEL_LSB);
    my += sums.at(fyRaw, i, ACCEL_LSB);
    mz += sums.at(fzRaw, i, ACCEL_LSB);
    bx += sums.at(wxRaw, i, GYRO_LSB);
    by += sums.at(wyRaw, i, GYRO_LSB);
    bz += sums.at(wzRaw, i, GYRO_LSB);
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
  const bridge = new Bridge(imu.present);
  for (let i = 0; i < n; i++) {
    bridge.walkTo(i);
    const fx = bridge.at(fxRaw, i, ACCEL_LSB),
      fy = bridge.at(fyRaw, i, ACCEL_LSB),
      fz = bridge.at(fzRaw, i, ACCEL_LSB);
    const ax = r[0] * fx + r[1] * fy + r[2] * fz;
    const ay = r[3] * fx + r[4] * fy + r[5] * fz;
    const az = r[6] * fx + r[7] * fy + r[8] * fz;
    const gx = bridge.at(wxRaw, i, GYRO_LSB) - bx,
      gy = bridge.at(wyRaw, i, GYRO_LSB) - by,
      gz = bridge.at(wzRaw, i, GYRO_LSB) - bz;
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
