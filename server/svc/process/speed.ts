import type { DecodedSvc } from "../types";
import type { Signals } from "./signals";

/**
 * Boat speed and distance at the IMU rate (docs/processing.md "Speed and
 * distance"). The integrated surge acceleration gives the speed's shape at
 * 100 Hz but drifts; GNSS Doppler speed is unbiased but noisy and only 10 Hz
 * (which aliases the 1–2 Hz stroke surge). Both fusions below integrate the
 * surge and estimate its offset from the true speed at each fix
 * (offset = Doppler − integrated surge); they differ in how the offsets are
 * smoothed:
 *
 * - `smoother` (the default): a Kalman filter and Rauch–Tung–Striebel
 *   smoother over the offset (level and drift), whose process noise comes
 *   from the IMU itself — small while samples are recorded, large across
 *   lost IMU samples — and whose measurement noise is the Doppler noise
 *   estimated from the file. Between fixes the offset is interpolated on the
 *   same "variance clock", so a step caused by lost IMU samples lands where
 *   the samples were lost, not smeared across a GNSS outage.
 * - `window` (before core version 2): a ±1 s moving average of the offsets,
 *   interpolated linearly in time.
 */
export interface Kinematics {
  /** m/s at each IMU sample. */
  speed: Float64Array;
  /** Metres travelled since the first IMU sample. */
  distance: Float64Array;
  /** GNSS fix losses (longer than one period), in seconds from the first sample. */
  fixGaps: { startS: number; endS: number }[];
}

export type SpeedFusion = "smoother" | "window";

const OFFSET_WINDOW_S = 1;

interface Fixes {
  /** Fractional IMU sample index of each usable fix. */
  index: number[];
  /** Doppler speed minus the integrated surge at that fix, m/s. */
  offset: number[];
}

export function kinematics(decoded: DecodedSvc, signals: Signals, fusion: SpeedFusion = "smoother"): Kinematics {
  const { gnss } = decoded;
  const hz = signals.hz;
  const gnssHz = decoded.header.gnssHz;
  const n = signals.n;
  const speed = new Float64Array(n);
  const distance = new Float64Array(n);
  const fixGaps: Kinematics["fixGaps"] = [];
  const integrated = new Float64Array(n);
  // The smoother integrates the levelled forward force without the gyro pitch correction: the
  // boat's pitch swings average out within a stroke or a swell, while the gyro-integrated pitch
  // random-walks and leaks g·sin(error) into the speed (measured: it doubles the offset's drift).
  const surge = fusion === "window" ? signals.surge : signals.levelSurge;
  for (let i = 1; i < n; i++) integrated[i] = integrated[i - 1] + surge[i] / hz;

  const fixes: Fixes = { index: [], offset: [] };
  let previous = -1;
  for (let j = 0; j < gnss.total; j++) {
    if (!gnss.fix[j]) continue;
    const index = (j * hz) / gnssHz;
    if (index > n - 1) break;
    if (previous >= 0 && j - previous > 1.5) fixGaps.push({ startS: previous / gnssHz, endS: j / gnssHz });
    previous = j;
    const i = Math.floor(index);
    const at = i + 1 < n ? integrated[i] + (integrated[i + 1] - integrated[i]) * (index - i) : integrated[i];
    fixes.index.push(index);
    fixes.offset.push(gnss.speedMmS[j] / 1000 - at);
  }
  if (fixes.index.length === 0) return { speed, distance, fixGaps };

  const offsetAt = fusion === "window" ? windowOffsets(fixes, hz) : smoothedOffsets(fixes, surge, signals, gnssHz);
  for (let i = 0; i < n; i++) speed[i] = Math.max(0, integrated[i] + offsetAt[i]);
  for (let i = 1; i < n; i++) distance[i] = distance[i - 1] + (speed[i - 1] + speed[i]) / (2 * hz);
  return { speed, distance, fixGaps };
}

/** The `window` fusion: centered moving average of the offsets over ±1 s of fixes, linear in time between fixes. */
function windowOffsets(fixes: Fixes, hz: number): Float64Array {
  const { index: times, offset: offsets } = fixes;
  const smooth = new Float64Array(times.length);
  const half = OFFSET_WINDOW_S * hz;
  let lo = 0;
  let hi = 0;
  let sum = 0;
  for (let k = 0; k < times.length; k++) {
    while (hi < times.length && times[hi] <= times[k] + half) sum += offsets[hi++];
    while (times[lo] < times[k] - half) sum -= offsets[lo++];
    smooth[k] = sum / (hi - lo);
  }
  return interpolate(times, smooth, null, Math.ceil(times[times.length - 1]) + 1);
}

/**
 * The `smoother` fusion. State per fix: the offset's level o and drift β
 * (accelerometer bias left after levelling, m/s²). Between fixes
 * o ← o + β·Δt + w, with Var(w) the accumulated "variance clock" of the
 * interval: the offset's measured drift rate × dt per recorded sample (at
 * least the accelerometer's white noise, σ_a²·dt²) and, over a block of m
 * lost samples, (rms surge · m · dt)², since the bridge misses the stroke's
 * real shape.
 */
function smoothedOffsets(fixes: Fixes, surge: Float64Array, signals: Signals, gnssHz: number): Float64Array {
  const { hz, n, present } = signals;
  const dt = 1 / hz;
  const sigmaA = Math.max(0.02, accelerometerNoise(surge, present));
  const rmsSurge = Math.max(0.5, rms(surge, present));
  // Variance clock: clock[i] = process variance accumulated from sample 0 to i.
  const clock = new Float64Array(n);
  // The integrated surge wanders faster than white accelerometer noise alone explains (attitude
  // errors leak gravity into the surge), so the rate is measured on the offsets themselves.
  const driftRate = Math.max(sigmaA * sigmaA * dt, offsetDriftRate(fixes, hz, gnssHz));
  const recorded = driftRate * dt;
  for (let i = 1; i < n; ) {
    if (present[i]) {
      clock[i] = clock[i - 1] + recorded;
      i++;
      continue;
    }
    let end = i;
    while (end < n && !present[end]) end++;
    const block = end - i;
    const perSample = (rmsSurge * block * dt) ** 2 / block;
    for (let k = i; k < end; k++) clock[k] = clock[k - 1] + perSample;
    i = end;
  }
  const clockAt = (index: number) => {
    const i = Math.min(n - 2, Math.floor(index));
    return clock[i] + (clock[i + 1] - clock[i]) * (index - i);
  };

  const { index, offset } = fixes;
  const m = index.length;
  const r = Math.max(0.01, dopplerNoise(fixes, hz, gnssHz)) ** 2;
  const driftQ = 1e-6; // (m/s²)² per second: the bias wanders slowly as the attitude estimate does
  // Forward Kalman filter, keeping predictions and estimates for the smoother.
  const predO = new Float64Array(m), predB = new Float64Array(m);
  const predPoo = new Float64Array(m), predPob = new Float64Array(m), predPbb = new Float64Array(m);
  const estO = new Float64Array(m), estB = new Float64Array(m);
  const estPoo = new Float64Array(m), estPob = new Float64Array(m), estPbb = new Float64Array(m);
  const span = new Float64Array(m);
  let o = offset[0], b = 0, poo = 1, pob = 0, pbb = 1e-4;
  for (let k = 0; k < m; k++) {
    if (k > 0) {
      const d = (index[k] - index[k - 1]) * dt;
      span[k] = d;
      o += b * d;
      const q = clockAt(index[k]) - clockAt(index[k - 1]);
      const poo2 = poo + 2 * d * pob + d * d * pbb + q;
      pob = pob + d * pbb;
      pbb = pbb + driftQ * d;
      poo = poo2;
    }
    predO[k] = o; predB[k] = b; predPoo[k] = poo; predPob[k] = pob; predPbb[k] = pbb;
    const s = poo + r;
    const ko = poo / s, kb = pob / s;
    const innovation = offset[k] - o;
    o += ko * innovation;
    b += kb * innovation;
    const poo2 = (1 - ko) * poo;
    const pob2 = (1 - ko) * pob;
    pbb = pbb - kb * pob;
    poo = poo2;
    pob = pob2;
    estO[k] = o; estB[k] = b; estPoo[k] = poo; estPob[k] = pob; estPbb[k] = pbb;
  }
  // Rauch–Tung–Striebel pass: C = P_est·Fᵀ·P_pred(next)⁻¹, x_s = x_est + C (x_s(next) − x_pred(next)).
  const smoothO = new Float64Array(m);
  let so = estO[m - 1], sb = estB[m - 1];
  smoothO[m - 1] = so;
  for (let k = m - 2; k >= 0; k--) {
    const d = span[k + 1];
    // P_est·Fᵀ with F = [[1, d], [0, 1]].
    const a00 = estPoo[k] + d * estPob[k], a01 = estPob[k];
    const a10 = estPob[k] + d * estPbb[k], a11 = estPbb[k];
    const det = predPoo[k + 1] * predPbb[k + 1] - predPob[k + 1] ** 2;
    const i00 = predPbb[k + 1] / det, i01 = -predPob[k + 1] / det, i11 = predPoo[k + 1] / det;
    const c00 = a00 * i00 + a01 * i01, c01 = a00 * i01 + a01 * i11;
    const c10 = a10 * i00 + a11 * i01, c11 = a10 * i01 + a11 * i11;
    const dO = so - predO[k + 1], dB = sb - predB[k + 1];
    so = estO[k] + c00 * dO + c01 * dB;
    sb = estB[k] + c10 * dO + c11 * dB;
    smoothO[k] = so;
  }
  return interpolate(index, smoothO, clock, n);
}

/**
 * Offset at every IMU sample: linear between fixes — in time, or on the
 * variance clock when given (the offset's random walk moves where its
 * variance accumulates) — and held beyond the first and last fix.
 */
function interpolate(times: number[], values: Float64Array, clock: Float64Array | null, n: number): Float64Array {
  const out = new Float64Array(n);
  const at = (index: number) => {
    if (!clock) return index;
    const i = Math.min(n - 2, Math.floor(index));
    return clock[i] + (clock[i + 1] - clock[i]) * (index - i);
  };
  let k = 0;
  for (let i = 0; i < n; i++) {
    while (k + 1 < times.length && times[k + 1] <= i) k++;
    if (i <= times[0]) out[i] = values[0];
    else if (k + 1 >= times.length) out[i] = values[times.length - 1];
    else {
      const from = at(times[k]);
      const width = at(times[k + 1]) - from;
      const f = width > 0 ? (at(i) - from) / width : (i - times[k]) / (times[k + 1] - times[k]);
      out[i] = values[k] + (values[k + 1] - values[k]) * f;
    }
  }
  return out;
}

/** Doppler speed noise (m/s) from consecutive fixes' offset differences (robust: median absolute deviation). */
function dopplerNoise(fixes: Fixes, hz: number, gnssHz: number): number {
  const diffs: number[] = [];
  const step = hz / gnssHz;
  for (let k = 1; k < fixes.index.length; k++) {
    if (Math.abs(fixes.index[k] - fixes.index[k - 1] - step) < 1e-6) diffs.push(fixes.offset[k] - fixes.offset[k - 1]);
  }
  if (diffs.length < 10) return 0.1;
  return (1.4826 * medianAbsolute(diffs)) / Math.SQRT2;
}

/**
 * How fast the offset wanders, (m/s)² per second: the variance of offset
 * differences grows with their lag by this rate (twice the Doppler noise
 * variance is the intercept). Lags of 1 and 20 fixes, robust spreads.
 */
function offsetDriftRate(fixes: Fixes, hz: number, gnssHz: number): number {
  const step = hz / gnssHz;
  const spread = (lag: number) => {
    const diffs: number[] = [];
    for (let k = lag; k < fixes.index.length; k++) {
      if (Math.abs(fixes.index[k] - fixes.index[k - lag] - lag * step) < 1e-6) diffs.push(fixes.offset[k] - fixes.offset[k - lag]);
    }
    return diffs.length < 10 ? NaN : (1.4826 * medianAbsolute(diffs)) ** 2;
  };
  const short = spread(1);
  const long = spread(20);
  const rate = (long - short) / ((19 * step) / hz);
  return Number.isFinite(rate) && rate > 0 ? rate : 0;
}

/** White accelerometer noise (m/s²) from second differences of the surge, which the stroke's slow shape barely touches. */
function accelerometerNoise(surge: Float64Array, present: Uint8Array): number {
  const values: number[] = [];
  const stride = Math.max(1, Math.floor(surge.length / 20_000));
  for (let i = 1; i + 1 < surge.length; i += stride) {
    if (present[i - 1] && present[i] && present[i + 1]) values.push(surge[i + 1] - 2 * surge[i] + surge[i - 1]);
  }
  if (values.length < 10) return 0.25;
  return (1.4826 * medianAbsolute(values)) / Math.sqrt(6);
}

function rms(values: Float64Array, present: Uint8Array): number {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    if (!present[i]) continue;
    sum += values[i] * values[i];
    count++;
  }
  return count ? Math.sqrt(sum / count) : 0;
}

function medianAbsolute(values: number[]): number {
  const sorted = Float64Array.from(values, Math.abs).sort();
  return sorted[Math.floor(sorted.length / 2)];
}
