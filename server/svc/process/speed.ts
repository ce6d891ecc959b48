import type { DecodedSvc } from "../types";
import { orderStatistic, prefixSums } from "./filters";
import { G, type Signals } from "./signals";

const DEG = Math.PI / 180;

/**
 * Boat speed and distance at the IMU rate (docs/processing.md "Speed and
 * distance"). The integrated surge acceleration gives the speed's shape at
 * 100 Hz but drifts; GNSS Doppler speed is unbiased but noisy and only 10 Hz
 * (which aliases the 1–2 Hz stroke surge). Both fusions below integrate the
 * surge and estimate its offset from the true speed at each fix
 * (offset = Doppler − integrated surge); they differ in how the offsets are
 * smoothed:
 *
 * - `smoother` (the default): integrates the levelled forward force
 *   without the gyro pitch correction (pitch swings average out within a
 *   stroke; the gyro-integrated pitch random-walks and leaks gravity into
 *   the speed), then a Kalman filter and Rauch–Tung–Striebel
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
  /** Prefix sums of `speed` (length n + 1): the smoothed speeds of the effort start and the tracks read them (filters.ts `windowMean`). */
  speedSums: Float64Array;
  /** GNSS fix losses (longer than one period), in seconds from the first sample. */
  fixGaps: { startS: number; endS: number }[];
  /** Noise figures measured on this file, for the split uncertainty (uncertainty.ts). */
  noise: SpeedNoise;
}

/** What the file itself says about its speed noise (docs/processing.md "Split uncertainty"). */
export interface SpeedNoise {
  /** GNSS Doppler speed noise, m/s (robust spread of consecutive offset differences). */
  dopplerMs: number;
  /** Spacing of GNSS fixes, s. */
  fixIntervalS: number;
  /** How fast the IMU's speed offset wanders, (m/s)² per second. */
  driftRate: number;
  /** White accelerometer noise of the surge, m/s². */
  accelMs2: number;
}

export type SpeedFusion = "smoother" | "window";

const OFFSET_WINDOW_S = 1;

interface Fixes {
  /** Fractional IMU sample index of each usable fix. */
  index: Float64Array;
  /** Doppler speed minus the integrated surge at that fix, m/s. */
  offset: Float64Array;
}

export function kinematics(decoded: DecodedSvc, signals: Signals, fusion: SpeedFusion = "smoother"): Kinematics {
  const { gnss } = decoded;
  const hz = signals.hz;
  const gnssHz = decoded.header.gnssHz;
  const n = signals.n;
  const distance = new Float64Array(n);
  const fixGaps: Kinematics["fixGaps"] = [];
  // The integrated force; the fusion adds the offset to it in place, so it becomes the speed
  // (one array of the recording's length fewer: 5.8 MB at two hours).
  const integrated = new Float64Array(n);
  // The smoother integrates the levelled forward force without the gyro pitch correction: the
  // boat's pitch swings average out within a stroke or a swell, while the gyro-integrated pitch
  // random-walks and leaks g·sin(error) into the speed (measured: it doubles the offset's drift).
  const { surge, pitchDeg } = signals;
  if (fusion === "window") for (let i = 1; i < n; i++) integrated[i] = integrated[i - 1] + surge[i] / hz;
  else {
    for (let i = 1; i < n; i++) {
      const pitch = pitchDeg[i] * DEG;
      // surge + g·sin(pitch): the levelled forward force (sin to fifth order; the pitch is a few degrees).
      const p2 = pitch * pitch;
      integrated[i] = integrated[i - 1] + (surge[i] + G * pitch * (1 - (p2 / 6) * (1 - p2 / 20))) / hz;
    }
  }

  // Sized for every fix up front (no growing list): the usable ones fill the front.
  const fixIndex = new Float64Array(gnss.total);
  const fixOffset = new Float64Array(gnss.total);
  let count = 0;
  let previous = -1;
  for (let j = 0; j < gnss.total; j++) {
    if (!gnss.fix[j]) continue;
    const index = (j * hz) / gnssHz;
    if (index > n - 1) break;
    if (previous >= 0 && j - previous > 1.5) fixGaps.push({ startS: previous / gnssHz, endS: j / gnssHz });
    previous = j;
    const i = Math.floor(index);
    const at = i + 1 < n ? integrated[i] + (integrated[i + 1] - integrated[i]) * (index - i) : integrated[i];
    fixIndex[count] = index;
    fixOffset[count++] = gnss.speedMmS[j] / 1000 - at;
  }
  const fixes: Fixes = { index: fixIndex.subarray(0, count), offset: fixOffset.subarray(0, count) };
  const sigmaA = Math.max(0.02, accelerometerNoise(surge, signals.present));
  const noise: SpeedNoise = {
    dopplerMs: Math.max(0.01, dopplerNoise(fixes, hz, gnssHz)),
    fixIntervalS: 1 / gnssHz,
    driftRate: Math.max((sigmaA * sigmaA) / hz, offsetDriftRate(fixes, hz, gnssHz)),
    accelMs2: sigmaA,
  };
  const speed = integrated;
  if (fixes.index.length === 0) {
    speed.fill(0);
    return { speed, distance, speedSums: prefixSums(speed), fixGaps, noise };
  }

  if (fusion === "window") {
    const offsetAt = windowOffsets(fixes, hz, n);
    for (let i = 0; i < n; i++) speed[i] = Math.max(0, integrated[i] + offsetAt[i]);
  } else smoothedSpeed(fixes, integrated, signals, noise, speed);
  for (let i = 1; i < n; i++) distance[i] = distance[i - 1] + (speed[i - 1] + speed[i]) / (2 * hz);
  return { speed, distance, speedSums: prefixSums(speed), fixGaps, noise };
}

/** The `window` fusion: centered moving average of the offsets over ±1 s of fixes, linear in time between fixes. */
function windowOffsets(fixes: Fixes, hz: number, n: number): Float64Array {
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
  return interpolate(times, smooth, n);
}

/**
 * The `smoother` fusion. State per fix: the offset's level o and drift β
 * (accelerometer bias left after levelling, m/s²). Between fixes
 * o ← o + β·Δt + w, with Var(w) the accumulated "variance clock" of the
 * interval: the offset's measured drift rate × dt per recorded sample (at
 * least the accelerometer's white noise, σ_a²·dt²) and, over a block of m
 * lost samples, (rms surge · m · dt)², since the bridge misses the stroke's
 * real shape. `speed` may be `integrated` itself: each sample is read before it is written.
 */
function smoothedSpeed(fixes: Fixes, integrated: Float64Array, signals: Signals, noise: SpeedNoise, speed: Float64Array) {
  const { hz, n, surge, present } = signals;
  const dt = 1 / hz;
  const rmsSurge = Math.max(0.5, rms(surge, present));
  // The integrated surge wanders faster than white accelerometer noise alone explains, so the
  // rate is measured on the offsets themselves (at least the accelerometer's white noise).
  const driftRate = noise.driftRate;
  const variance = new VarianceWalk(present, driftRate * dt, (block) => (rmsSurge * block * dt) ** 2);
  const { index, offset } = fixes;
  const m = index.length;
  // The variance clock at each fix: process variance accumulated from sample 0 (one walk over the samples).
  const fixClock = new Float64Array(m);
  let clock = 0;
  for (let i = 0, k = 0; k < m; k++) {
    const whole = Math.floor(index[k]);
    while (i < whole) clock += variance.at(++i);
    fixClock[k] = clock + (index[k] - whole) * (whole + 1 < n ? variance.peek(whole + 1) : 0);
  }
  const r = noise.dopplerMs ** 2;
  const driftQ = 1e-6; // (m/s²)² per second: the bias wanders slowly as the attitude estimate does
  // Forward Kalman filter, keeping predictions and estimates for the smoother.
  const predO = new Float64Array(m),
    predB = new Float64Array(m);
  const predPoo = new Float64Array(m),
    predPob = new Float64Array(m),
    predPbb = new Float64Array(m);
  const estO = new Float64Array(m),
    estB = new Float64Array(m);
  const estPoo = new Float64Array(m),
    estPob = new Float64Array(m),
    estPbb = new Float64Array(m);
  const span = new Float64Array(m);
  let o = offset[0],
    b = 0,
    poo = 1,
    pob = 0,
    pbb = 1e-4;
  for (let k = 0; k < m; k++) {
    if (k > 0) {
      const d = (index[k] - index[k - 1]) * dt;
      span[k] = d;
      o += b * d;
      const q = fixClock[k] - fixClock[k - 1];
      const poo2 = poo + 2 * d * pob + d * d * pbb + q;
      pob = pob + d * pbb;
      pbb = pbb + driftQ * d;
      poo = poo2;
    }
    predO[k] = o;
    predB[k] = b;
    predPoo[k] = poo;
    predPob[k] = pob;
    predPbb[k] = pbb;
    const s = poo + r;
    const ko = poo / s,
      kb = pob / s;
    const innovation = offset[k] - o;
    o += ko * innovation;
    b += kb * innovation;
    const poo2 = (1 - ko) * poo;
    const pob2 = (1 - ko) * pob;
    pbb = pbb - kb * pob;
    poo = poo2;
    pob = pob2;
    estO[k] = o;
    estB[k] = b;
    estPoo[k] = poo;
    estPob[k] = pob;
    estPbb[k] = pbb;
  }
  // Rauch–Tung–Striebel pass: C = P_est·Fᵀ·P_pred(next)⁻¹, x_s = x_est + C (x_s(next) − x_pred(next)).
  const smoothO = new Float64Array(m);
  let so = estO[m - 1],
    sb = estB[m - 1];
  smoothO[m - 1] = so;
  for (let k = m - 2; k >= 0; k--) {
    const d = span[k + 1];
    // P_est·Fᵀ with F = [[1, d], [0, 1]].
    const a00 = estPoo[k] + d * estPob[k],
      a01 = estPob[k];
    const a10 = estPob[k] + d * estPbb[k],
      a11 = estPbb[k];
    const det = predPoo[k + 1] * predPbb[k + 1] - predPob[k + 1] ** 2;
    const i00 = predPbb[k + 1] / det,
      i01 = -predPob[k + 1] / det,
      i11 = predPoo[k + 1] / det;
    const c00 = a00 * i00 + a01 * i01,
      c01 = a00 * i01 + a01 * i11;
    const c10 = a10 * i00 + a11 * i01,
      c11 = a10 * i01 + a11 * i11;
    const dO = so - predO[k + 1],
      dB = sb - predB[k + 1];
    so = estO[k] + c00 * dO + c01 * dB;
    sb = estB[k] + c10 * dO + c11 * dB;
    smoothO[k] = so;
  }
  // Speed at every sample: the offset interpolated between fixes on the variance clock (held
  // beyond the first and last fix), added to the integrated force.
  const walk = new VarianceWalk(present, driftRate * dt, (block) => (rmsSurge * block * dt) ** 2);
  clock = 0;
  for (let i = 0, k = 0; i < n; i++) {
    if (i > 0) clock += walk.at(i);
    while (k + 1 < m && index[k + 1] <= i) k++;
    let o: number;
    if (i <= index[0]) o = smoothO[0];
    else if (k + 1 >= m) o = smoothO[m - 1];
    else {
      const width = fixClock[k + 1] - fixClock[k];
      const f = width > 0 ? Math.min(1, Math.max(0, (clock - fixClock[k]) / width)) : (i - index[k]) / (index[k + 1] - index[k]);
      o = smoothO[k] + (smoothO[k + 1] - smoothO[k]) * f;
    }
    speed[i] = Math.max(0, integrated[i] + o);
  }
}

/**
 * The process variance of each IMU sample, walked in increasing order without a per-sample
 * array: `recorded` for a recorded sample; a block of lost samples shares `lostBlock(length)`.
 */
export class VarianceWalk {
  private blockEnd = -1;
  private blockShare = 0;
  /** The lost block `peek` measured last: every fix inside one long loss peeks into it. */
  private peekStart = -1;
  private peekEnd = -1;
  private peekShare = 0;
  constructor(
    private readonly present: Uint8Array,
    private readonly recorded: number,
    private readonly lostBlock: (length: number) => number,
  ) {}

  at(i: number): number {
    if (this.present[i]) return this.recorded;
    if (i >= this.blockEnd) {
      let start = i;
      while (start > 0 && !this.present[start - 1]) start--;
      let end = i;
      while (end < this.present.length && !this.present[end]) end++;
      this.blockEnd = end;
      this.blockShare = this.lostBlock(end - start) / (end - start);
    }
    return this.blockShare;
  }

  /** The same value without moving the walk (for a sample ahead of it). */
  peek(i: number): number {
    if (this.present[i]) return this.recorded;
    if (i >= this.peekStart && i < this.peekEnd) return this.peekShare;
    let start = i;
    while (start > 0 && !this.present[start - 1]) start--;
    let end = i;
    while (end < this.present.length && !this.present[end]) end++;
    this.peekStart = start;
    this.peekEnd = end;
    this.peekShare = this.lostBlock(end - start) / (end - start);
    return this.peekShare;
  }
}

/** Offset at every IMU sample: linear in time between fixes, held beyond the first and last. */
function interpolate(times: Float64Array, values: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    while (k + 1 < times.length && times[k + 1] <= i) k++;
    if (i <= times[0]) out[i] = values[0];
    else if (k + 1 >= times.length) out[i] = values[times.length - 1];
    else out[i] = values[k] + ((values[k + 1] - values[k]) * (i - times[k])) / (times[k + 1] - times[k]);
  }
  return out;
}

/** Doppler speed noise (m/s) from consecutive fixes' offset differences (robust: median absolute deviation). */
function dopplerNoise(fixes: Fixes, hz: number, gnssHz: number): number {
  const spread = lagSpread(fixes, 1, hz / gnssHz);
  return spread === null ? 0.1 : (1.4826 * spread) / Math.SQRT2;
}

/**
 * How fast the offset wanders, (m/s)² per second: the variance of offset
 * differences grows with their lag by this rate (twice the Doppler noise
 * variance is the intercept). Lags of 1 and 20 fixes, robust spreads.
 */
function offsetDriftRate(fixes: Fixes, hz: number, gnssHz: number): number {
  const step = hz / gnssHz;
  const spread = (lag: number) => {
    const median = lagSpread(fixes, lag, step);
    return median === null ? NaN : (1.4826 * median) ** 2;
  };
  const short = spread(1);
  const long = spread(20);
  const rate = (long - short) / ((19 * step) / hz);
  return Number.isFinite(rate) && rate > 0 ? rate : 0;
}

/**
 * The median magnitude of the offset differences between fixes `lag` fixes apart that are
 * exactly `lag` fix intervals apart in time (null when there are fewer than 10). The
 * differences go into one array sized up front: a growing list of 72,000 numbers (two hours)
 * cost more than the selection.
 */
function lagSpread(fixes: Fixes, lag: number, step: number): number | null {
  const { index, offset } = fixes;
  const diffs = new Float64Array(Math.max(0, index.length - lag));
  let count = 0;
  for (let k = lag; k < index.length; k++) {
    if (Math.abs(index[k] - index[k - lag] - lag * step) < 1e-6) diffs[count++] = offset[k] - offset[k - lag];
  }
  return count < 10 ? null : medianAbsolute(diffs.subarray(0, count));
}

/** White accelerometer noise (m/s²) from second differences of the surge, which the stroke's slow shape barely touches. */
function accelerometerNoise(surge: Float64Array, present: Uint8Array): number {
  const stride = Math.max(1, Math.floor(surge.length / 4000));
  const values = new Float64Array(Math.ceil(Math.max(0, surge.length - 2) / stride));
  let count = 0;
  for (let i = 1; i + 1 < surge.length; i += stride) {
    if (present[i - 1] && present[i] && present[i + 1]) values[count++] = surge[i + 1] - 2 * surge[i] + surge[i - 1];
  }
  if (count < 10) return 0.25;
  return (1.4826 * medianAbsolute(values.subarray(0, count))) / Math.sqrt(6);
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

/**
 * The median magnitude as the sorted magnitudes' middle element (the upper one of an even count),
 * by selection. Takes magnitudes in place: pass a scratch array.
 */
function medianAbsolute(values: Float64Array): number {
  for (let i = 0; i < values.length; i++) values[i] = Math.abs(values[i]);
  return orderStatistic(values, Math.floor(values.length / 2));
}
