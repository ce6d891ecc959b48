import type { Kinematics } from "./speed";
import type { EffortTrack, EffortUncertainty } from "./types";

/**
 * Split uncertainty (docs/processing.md "Split uncertainty"): how sure a
 * split's elapsed time from the effort start is, from what the recording
 * itself says about its noise. Pure; the figures it needs are stored in the
 * track at processing, so any split count can be served later.
 *
 * A split's end is where the fused distance reaches the split's distance, so
 * its time error is the distance error there divided by the speed. Over more
 * than a few seconds the distance comes from the GNSS Doppler speed alone
 * (docs/processing.md "Speed fusion"): each fix's noise (σ_v) weighs one fix
 * interval (Δ), so the distance error from the start grows as a random walk
 * while there are fixes, V(t) = σ_v²·Δ·(t − outage time). An outage of L seconds adds what the IMU's offset wanders
 * meanwhile (a bridge between the fixes on either side: W(L)·L²/12, W(L) the speed's wander
 * over L from the accelerometer noise measured on the file, times BRIDGE_EXCESS) and the
 * error of those two edge offsets carried over the outage (L²·P/2, P the
 * smoothed offset variance √(q·Δ·σ_v²)/2).
 */

/** Two-sided 95 % of a normal error. */
export const Z95 = 1.96;

/**
 * How much larger the fused distance's error is, where fixes exist, than an ideal integration of
 * the Doppler speed with the noise measured on the file (estimator version 3 on). Measured on the
 * development corpus `dev-wide` of bench:uncertainty (2026-12-02: the fusion's error there needs
 * 1.1–1.3 × the ideal; 1.1 brought every split index to 94–97 % coverage), never on a scored
 * corpus. It describes our fusion, not the simulator: no noise setting of the simulator enters.
 */
export const FUSION_EXCESS = 1.1;

/**
 * How much faster the fused speed wanders across a GNSS loss than the accelerometer's measured
 * white noise alone would make it (estimator version 5, processing core 5): the bridge a loss
 * leaves is counted as BRIDGE_EXCESS × σ_a²·L/f_s, stored per outage as W. Chosen on the
 * development corpus `dev-wide` (2026-12-02) as the value whose noisy coverage there is nearest
 * 95 % (2: 94.3 %, 2.5: 95.2 %, 3: 95.9 %); never on a scored corpus. The fusion loses some of
 * the bridge's ideal hold to lost IMU samples and to its own drift model.
 */
export const BRIDGE_EXCESS = 2.5;

export function effortUncertainty(
  kin: Pick<Kinematics, "noise" | "fixGaps">,
  startIndex: number,
  endIndex: number,
  hz: number,
  options: { endsAt: "distance" | "time"; startSdS: number },
): EffortUncertainty {
  const startS = startIndex / hz;
  const endS = endIndex / hz;
  const outages: [number, number, number][] = [];
  // Across a loss the speed is the integrated force: its white noise walks the speed by σ_a²/f_s
  // per second, so over the loss's length L by σ_a²·L/f_s, times the bridge's excess.
  const accelWalk = kin.noise.accelMs2 ** 2 / hz;
  for (const gap of kin.fixGaps) {
    const from = Math.max(gap.startS, startS);
    const to = Math.min(gap.endS, endS);
    if (to > from)
      outages.push([
        round(from - startS, 2),
        round(to - startS, 2),
        Number((BRIDGE_EXCESS * accelWalk * (gap.endS - gap.startS)).toPrecision(3)),
      ]);
  }
  return {
    speed_noise_ms: round(kin.noise.dopplerMs, 4),
    fix_interval_s: kin.noise.fixIntervalS,
    drift_rate: Number(kin.noise.driftRate.toPrecision(3)),
    start_sd_s: round(options.startSdS, 4),
    ends_at: options.endsAt,
    outages,
  };
}

/**
 * The start's own timing error (s): the catch is an interpolated zero
 * crossing of the 8 Hz surge, so its error is the filtered noise over the
 * signal's slope there, plus the sample spacing's quantization.
 */
export function catchTimingSd(filtered: Float64Array, catchIndex: number, hz: number, accelNoiseMs2: number): number {
  const i = Math.min(filtered.length - 2, Math.max(1, Math.round(catchIndex)));
  const slope = Math.abs(filtered[i + 1] - filtered[i - 1]) * (hz / 2);
  // White noise through an 8 Hz low-pass keeps √(2·8 / hz) of its spread.
  const noise = accelNoiseMs2 * Math.sqrt(16 / hz);
  const quantization = 1 / hz / Math.sqrt(12);
  const fromNoise = slope > 1e-6 ? noise / slope : 1 / hz;
  return Math.sqrt(quantization ** 2 + Math.min(1 / hz, fromNoise) ** 2);
}

/** Variance (m²) of the distance error accumulated from the start to `t` seconds. */
export function distanceVariance(u: EffortUncertainty, t: number): number {
  // Where fixes exist, the fused distance's error grows as the Doppler noise's random walk, times
  // the fusion's own excess over an ideal integration of the Doppler (FUSION_EXCESS).
  const r = (u.speed_noise_ms * FUSION_EXCESS) ** 2;
  const q = u.drift_rate;
  const edge = Math.sqrt(q * u.fix_interval_s * r) / 2;
  // The Doppler's walk grows only while there are fixes; an outage's time is the bridge's instead.
  let fixedTime = Math.max(0, t);
  let variance = 0;
  for (const [from, to, wander] of u.outages) {
    if (t <= from) continue;
    const length = to - from;
    const share = Math.min(1, (t - from) / length);
    fixedTime -= share * length;
    variance += share * (((wander ?? q * length) * length * length) / 12 + (length * length * edge) / 2);
  }
  return variance + r * u.fix_interval_s * Math.max(0, fixedTime);
}

export interface SplitUncertainty {
  /** 95 % of the elapsed time from the start, s. */
  elapsed_s: number;
  /** 95 % of the split's own time, s. */
  split_s: number;
}

/**
 * 95 % uncertainties of splits ending at `times` (s from the start, in
 * order) with the boat's speed `speeds` (m/s) there; `shares` are the
 * splits' distances as shares of the effort's whole distance (equal splits:
 * k / n). A distance effort ends where its distance is reached, so every
 * split end is such a point. A time-ended effort's end is exact and its
 * split distances are shares of the measured total, so their errors are
 * bridges tied to zero at the end: e(t) − share·e(T).
 */
export function splitUncertainties(
  u: EffortUncertainty,
  times: number[],
  speeds: number[],
  shares?: number[],
  totalS?: number,
): SplitUncertainty[] {
  const n = times.length;
  const shareOf = (k: number) => shares?.[k] ?? (k + 1) / n;
  const vT = distanceVariance(u, totalS ?? times[n - 1]);
  const timeEnded = u.ends_at === "time";
  const start2 = u.start_sd_s ** 2;
  const out: SplitUncertainty[] = [];
  for (let k = 0; k < n; k++) {
    const f = shareOf(k);
    const a = 1 / Math.max(0.5, speeds[k]);
    const vk = distanceVariance(u, times[k]);
    const elapsedVar = timeEnded ? (vk * (1 - 2 * f) + f * f * vT) * a * a : vk * a * a + start2;
    let splitVar: number;
    if (k === 0) splitVar = elapsedVar;
    else {
      // The split's own time: the start cancels; the earlier error is shared (independent increments).
      const b = 1 / Math.max(0.5, speeds[k - 1]);
      const vj = distanceVariance(u, times[k - 1]);
      const c = timeEnded ? b * shareOf(k - 1) - a * f : 0;
      splitVar = a * a * vk + b * b * vj + c * c * vT - 2 * a * b * vj + 2 * a * c * vk - 2 * b * c * vj;
    }
    out.push({ elapsed_s: round(Z95 * Math.sqrt(Math.max(0, elapsedVar)), 3), split_s: round(Z95 * Math.sqrt(Math.max(0, splitVar)), 3) });
  }
  return out;
}

/** Uncertainties of split ends at any distances on a stored track (null for a track stored without them). */
export function trackSplitUncertainties(
  track: Pick<EffortTrack, "t" | "distance" | "uncertainty">,
  times: number[],
  distances: number[],
): SplitUncertainty[] | null {
  if (!track.uncertainty || !times.length) return null;
  const total = track.distance[track.distance.length - 1];
  return splitUncertainties(
    track.uncertainty,
    times,
    times.map((t) => trackSpeedAt(track, t)),
    distances.map((d) => (total > 0 ? d / total : 1)),
    track.t[track.t.length - 1],
  );
}

/** 95 % uncertainty of the effort's final time, s (0 when the end is fixed in time; null without the figures). */
export function finalTimeUncertainty(track: Pick<EffortTrack, "t" | "distance" | "uncertainty">): number | null {
  const end = track.t[track.t.length - 1];
  return trackSplitUncertainties(track, [end], [track.distance[track.distance.length - 1]])?.[0].elapsed_s ?? null;
}

/** Speed at `t` seconds from the start on the stored track: distance over ±0.5 s. */
export function trackSpeedAt(track: Pick<EffortTrack, "t" | "distance">, t: number): number {
  const end = track.t[track.t.length - 1];
  const from = Math.max(0, t - 0.5);
  const to = Math.min(end, t + 0.5);
  return to > from ? (distanceAtTime(track, to) - distanceAtTime(track, from)) / (to - from) : 0;
}

function distanceAtTime(track: Pick<EffortTrack, "t" | "distance">, t: number): number {
  const times = track.t;
  let lo = 0;
  let hi = times.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid;
    else hi = mid;
  }
  const span = times[hi] - times[lo];
  return track.distance[lo] + (span > 0 ? ((t - times[lo]) / span) * (track.distance[hi] - track.distance[lo]) : 0);
}

/**
 * A split's 95 % uncertainty beside its time, to the time's hundredths: 0.043 → "± 0.04". Empty
 * when there is none to state: not estimated (processed before it was), or exact by definition
 * (a timed effort's end). The pages and the PDFs all use this one.
 */
export function formatUncertainty(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !(seconds > 0)) return "";
  return `± ${Math.max(0.01, Math.round(seconds * 100) / 100).toFixed(2)}`;
}

/** A time and its uncertainty in one string: "0:56.20 ± 0.04", or the time alone. */
export const withUncertainty = (time: string, seconds: number | null | undefined) => {
  const bar = formatUncertainty(seconds);
  return bar ? `${time} ${bar}` : time;
};

const round = (value: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};
