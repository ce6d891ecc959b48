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

/** Lost samples are bridged linearly so filters see a continuous signal; `present` keeps the truth. */
function bridged(values: Int16Array, present: Uint8Array, scale: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  let last = -1;
  for (let i = 0; i < n; i++) {
    if (!present[i]) continue;
    out[i] = values[i] * scale;
    if (last >= 0 && i - last > 1) {
      for (let k = last + 1; k < i; k++) out[k] = out[last] + ((out[i] - out[last]) * (k - last)) / (i - last);
    } else if (last < 0) {
      for (let k = 0; k < i; k++) out[k] = out[i];
    }
    last = i;
  }
  for (let k = last + 1; k < n; k++) out[k] = last >= 0 ? out[last] : 0;
  return out;
}

export function calibrate(decoded: DecodedSvc): Signals {
  const { imu } = decoded;
  const hz = decoded.header.imuHz;
  const n = imu.total;
  const fx = bridged(imu.ax, imu.present, ACCEL_LSB);
  const fy = bridged(imu.ay, imu.present, ACCEL_LSB);
  const fz = bridged(imu.az, imu.present, ACCEL_LSB);
  const wx = bridged(imu.gx, imu.present, GYRO_LSB);
  const wy = bridged(imu.gy, imu.present, GYRO_LSB);
  const wz = bridged(imu.gz, imu.present, GYRO_LSB);

  // Mean specific force ≈ gravity (the boat starts and ends slow); mean rate ≈ gyro bias.
  let mx = 0,
    my = 0,
    mz = 0,
    bx = 0,
    by = 0,
    bz = 0;
  for (let i = 0; i < n; i++) {
    mx += fx[i];
    my += fy[i];
    mz += fz[i];
    bx += wx[i];
    by += wy[i];
    bz += wz[i];
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
  for (let i = 0; i < n; i++) {
    const ax = r[0] * fx[i] + r[1] * fy[i] + r[2] * fz[i];
    const ay = r[3] * fx[i] + r[4] * fy[i] + r[5] * fz[i];
    const az = r[6] * fx[i] + r[7] * fy[i] + r[8] * fz[i];
    const gx = wx[i] - bx,
      gy = wy[i] - by,
      gz = wz[i] - bz;
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
