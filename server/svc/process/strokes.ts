import { percentile } from "./filters";

/**
 * Stroke detection (docs/processing.md "Strokes"). Each blade entry makes a
 * surge cycle: the check just before the catch, then a steep rise into the
 * drive's acceleration peak. Drive peaks are found first; each catch is the
 * last upward zero crossing of the filtered surge before its peak, placed
 * between samples by linear interpolation.
 */
export interface DetectedStroke {
  /** Catch, fractional IMU sample index. */
  catchIndex: number;
  /** Drive peak sample index and height (m/s²). */
  peakIndex: number;
  peakHeight: number;
}

/** Shortest plausible stroke period, s: 170 spm for kayaks, 100 spm for canoes. */
export const minStrokePeriodS = (kayak: boolean) => (kayak ? 60 / 170 : 60 / 100);

export function detectStrokes(filtered: Float64Array, sharp: Float64Array, hz: number, kayak: boolean): DetectedStroke[] {
  const n = filtered.length;
  // Threshold relative to the session's strong drives, so training and race paces both work.
  const strong = percentile(filtered, 99.5);
  // Low enough for light paddling (rests, warm-up, cool-down: a third of a work drive); noise peaks
  // stay far below, and two peaks closer than a plausible stroke keep only the higher.
  const threshold = Math.max(0.5, 0.15 * strong);
  const minGap = Math.round(minStrokePeriodS(kayak) * hz * 0.7);
  const peaks: number[] = [];
  for (let i = 1; i < n - 1; i++) {
    const value = filtered[i];
    if (value < threshold || value < filtered[i - 1] || value < filtered[i + 1]) continue;
    const previous = peaks.length ? peaks[peaks.length - 1] : -Infinity;
    if (i - previous < minGap) {
      if (value > filtered[previous]) peaks[peaks.length - 1] = i; // keep the higher of two close peaks
      continue;
    }
    peaks.push(i);
  }
  const maxLookBack = Math.round(minStrokePeriodS(kayak) * hz * 1.2);
  const strokes: DetectedStroke[] = [];
  for (const peak of peaks) {
    const limit = Math.max(1, peak - maxLookBack, strokes.length ? Math.ceil(strokes[strokes.length - 1].peakIndex) + 1 : 1);
    let catchIndex = Number.NaN;
    let check = 0;
    for (let i = peak; i > limit; i--) check = Math.min(check, filtered[i]);
    if (check < -0.1 * filtered[peak]) {
      for (let i = peak; i > limit; i--) {
        if (filtered[i - 1] <= 0 && filtered[i] > 0) {
          catchIndex = i - 1 + -filtered[i - 1] / (filtered[i] - filtered[i - 1]);
          break;
        }
      }
    } else {
      // From standstill there is no check: the catch is the onset of the rise, taken on a
      // lightly filtered signal (the 8 Hz one would smear the onset ~30 ms early) where it
      // passes 10 % of the peak.
      const level = 0.1 * filtered[peak];
      for (let i = peak; i > limit; i--) {
        if (sharp[i - 1] <= level && sharp[i] > level) {
          catchIndex = i - 1 + (level - sharp[i - 1]) / (sharp[i] - sharp[i - 1]);
          break;
        }
      }
    }
    if (!Number.isNaN(catchIndex)) strokes.push({ catchIndex, peakIndex: peak, peakHeight: filtered[peak] });
  }
  return strokes;
}

/**
 * Kayak sides: during a left-blade drive the bow turns to starboard (negative
 * yaw rate about up) and the hull rolls to port. Kayak strokes alternate, so
 * each stroke's side is decided by the evidence of its neighbours too
 * (a window of nine strokes, signs alternating).
 */
export function assignSides(strokes: DetectedStroke[], yawRateDegS: Float64Array, rollDeg: Float64Array, hz: number): ("left" | "right")[] {
  const evidence = strokes.map((stroke, k) => {
    const end = k + 1 < strokes.length ? strokes[k + 1].catchIndex : stroke.catchIndex + 0.5 * hz;
    const from = Math.ceil(stroke.catchIndex);
    const to = Math.min(yawRateDegS.length, Math.floor(stroke.catchIndex + 0.45 * (end - stroke.catchIndex)) + 1);
    let yaw = 0;
    let roll = 0;
    let rollBase = 0;
    for (let i = from; i < to; i++) {
      yaw += yawRateDegS[i];
      roll += rollDeg[i];
    }
    const count = Math.max(1, to - from);
    for (let i = Math.max(0, from - Math.round(0.3 * hz)); i < from; i++) rollBase += rollDeg[i];
    rollBase /= Math.max(1, Math.min(from, Math.round(0.3 * hz)));
    // Positive evidence means "left": the bow turns right (yaw rate < 0) and port goes down (roll < 0).
    return -yaw / count / 5 - (roll / count - rollBase) / 1.5;
  });
  return strokes.map((_, k) => {
    let sum = 0;
    for (let j = Math.max(0, k - 4); j <= Math.min(strokes.length - 1, k + 4); j++) sum += ((j - k) % 2 === 0 ? 1 : -1) * evidence[j];
    return sum >= 0 ? "left" : "right";
  });
}
