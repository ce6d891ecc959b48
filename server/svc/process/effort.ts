import { indexAtValue, movingAverage, percentile, prefixSums } from "./filters";
import { ProcessingError } from "./errors";
import type { DetectedStroke } from "./strokes";

/**
 * Effort start (docs/processing.md "Effort start"): the catch of the first
 * stroke after which the boat accelerates from low speed. Find where the
 * smoothed speed first climbs to a sustained effort level; look back to the
 * last moment the boat was slow; the start is the first catch from there on
 * that begins a regular run of strokes up to the effort level.
 */
export function detectEffortStart(
  speed: Float64Array,
  strokes: DetectedStroke[],
  hz: number,
  kayak: boolean,
  speedSums: Float64Array = prefixSums(speed),
): number {
  const smooth = movingAverage(speed, hz + 1, speedSums);
  const cruise = percentile(smooth, 95);
  if (!(cruise > 1)) throw new ProcessingError("no_effort", "the boat never reaches an effort speed");
  const go = 0.55 * cruise;
  const hold = 0.45 * cruise;
  const sustain = 4 * hz;
  // A running count of samples "at effort level" in [i, i + sustain) makes each 4-second check O(1).
  let held = 0;
  for (let i = 0; i < sustain && i < smooth.length; i++) if (smooth[i] >= hold) held++;
  let goIndex = -1;
  for (let i = 0; i < smooth.length - sustain; i++) {
    if (smooth[i] >= go && held >= 0.9 * sustain) {
      goIndex = i;
      break;
    }
    held += (smooth[i + sustain] >= hold ? 1 : 0) - (smooth[i] >= hold ? 1 : 0);
  }
  if (goIndex < 0) throw new ProcessingError("no_effort", "no sustained effort found");
  const low = Math.max(0.5, 0.15 * cruise);
  let lowIndex = goIndex;
  while (lowIndex > 0 && smooth[lowIndex] > low) lowIndex--;

  const period = (kayak ? 60 / 110 : 60 / 60) * hz;
  // The candidates are the strokes whose catch lies in [lowIndex − 2 s, goIndex]: a range of the
  // detected strokes, whose catches increase.
  let first = 0;
  while (first < strokes.length && !(strokes[first].catchIndex >= lowIndex - 2 * hz)) first++;
  let end = first;
  while (end < strokes.length && strokes[end].catchIndex <= goIndex) end++;
  // A regular run: no pause longer than 2.5 typical periods from a candidate until the effort
  // level — true from k on when true from k + 1 on and the pause after k is short (one pass back).
  let regularFrom = true;
  let start = -1;
  for (let k = end - 1; k >= first; k--) {
    if (k + 1 < end && strokes[k + 1].catchIndex - strokes[k].catchIndex > 2.5 * period) regularFrom = false;
    // The start's stroke is a real drive, not a peak of sensor noise before it.
    if (regularFrom && isDrive(strokes, k)) start = k;
  }
  if (start >= 0) return strokes[start].catchIndex;
  throw new ProcessingError("no_effort", "no stroke begins the effort");
}

/**
 * A drive: its peak at least 20 % of the median peak of the four strokes after it. A standing
 * start's first drive is among its strongest; a noise peak the detector took for a catch just
 * before it is not (measured on a noisy recording: 13 % of the drives after it; a real first
 * stroke weakened by lost IMU samples: 25 %).
 */
function isDrive(strokes: DetectedStroke[], at: number): boolean {
  const next = strokes
    .slice(at + 1, at + 5)
    .map((s) => s.peakHeight)
    .sort((a, b) => a - b);
  return next.length === 0 || strokes[at].peakHeight >= 0.2 * next[Math.floor(next.length / 2)];
}

/** Effort end: where the distance from the start reaches the target, or start + duration. */
export function effortEnd(
  distance: Float64Array,
  startIndex: number,
  hz: number,
  target: { distanceM?: number; durationMs?: number },
): number {
  if (target.durationMs !== undefined) {
    const end = startIndex + (target.durationMs / 1000) * hz;
    if (end > distance.length - 1) throw new ProcessingError("effort_incomplete", "the recording ends before the effort's duration");
    return end;
  }
  const startDistance = sampleDistance(distance, startIndex);
  const end = indexAtValue(distance, startDistance + target.distanceM!, Math.floor(startIndex));
  if (Number.isNaN(end)) throw new ProcessingError("effort_incomplete", `the recording ends before ${target.distanceM} m from the start`);
  return end;
}

export function sampleDistance(distance: Float64Array, index: number): number {
  const i = Math.min(distance.length - 2, Math.max(0, Math.floor(index)));
  return distance[i] + (distance[i + 1] - distance[i]) * (index - i);
}
