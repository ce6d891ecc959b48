import { indexAtValue, movingAverage, percentile } from "./filters";
import { ProcessingError } from "./errors";
import type { DetectedStroke } from "./strokes";

/**
 * Effort start (docs/processing.md "Effort start"): the catch of the first
 * stroke after which the boat accelerates from low speed. Find where the
 * smoothed speed first climbs to a sustained effort level; look back to the
 * last moment the boat was slow; the start is the first catch from there on
 * that begins a regular run of strokes up to the effort level.
 */
export function detectEffortStart(speed: Float64Array, strokes: DetectedStroke[], hz: number, kayak: boolean): number {
  const smooth = movingAverage(speed, hz + 1);
  const cruise = percentile(smooth, 95);
  if (!(cruise > 1)) throw new ProcessingError("no_effort", "the boat never reaches an effort speed");
  const go = 0.55 * cruise;
  const hold = 0.45 * cruise;
  const sustain = 4 * hz;
  // Prefix counts of "at effort level" make each 4-second check O(1).
  const heldBefore = new Int32Array(smooth.length + 1);
  for (let i = 0; i < smooth.length; i++) heldBefore[i + 1] = heldBefore[i] + (smooth[i] >= hold ? 1 : 0);
  let goIndex = -1;
  for (let i = 0; i < smooth.length - sustain; i++) {
    if (smooth[i] >= go && heldBefore[i + sustain] - heldBefore[i] >= 0.9 * sustain) {
      goIndex = i;
      break;
    }
  }
  if (goIndex < 0) throw new ProcessingError("no_effort", "no sustained effort found");
  const low = Math.max(0.5, 0.15 * cruise);
  let lowIndex = goIndex;
  while (lowIndex > 0 && smooth[lowIndex] > low) lowIndex--;

  const period = (kayak ? 60 / 110 : 60 / 60) * hz;
  const candidates = strokes.filter((s) => s.catchIndex >= lowIndex - 2 * hz && s.catchIndex <= goIndex);
  for (let k = 0; k < candidates.length; k++) {
    // The start's stroke is a real drive, not a peak of sensor noise before it.
    if (!isDrive(strokes, candidates[k])) continue;
    // A regular run: no pause longer than 2.5 typical periods until the effort level.
    let regular = true;
    for (let j = k; j + 1 < candidates.length; j++) {
      if (candidates[j + 1].catchIndex - candidates[j].catchIndex > 2.5 * period) regular = false;
    }
    if (regular) return candidates[k].catchIndex;
  }
  throw new ProcessingError("no_effort", "no stroke begins the effort");
}

/**
 * A drive: its peak at least 20 % of the median peak of the four strokes after it. A standing
 * start's first drive is among its strongest; a noise peak the detector took for a catch just
 * before it is not (measured on a noisy recording: 13 % of the drives after it; a real first
 * stroke weakened by lost IMU samples: 25 %).
 */
function isDrive(strokes: DetectedStroke[], stroke: DetectedStroke): boolean {
  const at = strokes.indexOf(stroke);
  const next = strokes
    .slice(at + 1, at + 5)
    .map((s) => s.peakHeight)
    .sort((a, b) => a - b);
  return next.length === 0 || stroke.peakHeight >= 0.2 * next[Math.floor(next.length / 2)];
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
