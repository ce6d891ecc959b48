import type { WorkoutStep } from "../../workouts/template";
import { percentile } from "./filters";
import type { DetectedStroke } from "./strokes";

/**
 * Set segmentation of a training (docs/processing.md "Trainings"). A work
 * set is a run of hard strokes: drives at least a share of the recording's
 * strongest and a rate near the recording's working rate. Runs are found on
 * the strokes alone; with a workout template they are then matched to its
 * work steps, in order, by duration or distance.
 */
export const SENSITIVITY = { min: 0.5, max: 10, default: 5 } as const;

export interface WorkRun {
  /** Indices into the detected strokes: the first hard stroke and the last. */
  firstStroke: number;
  lastStroke: number;
  /** Fractional IMU sample indices: the first catch, and half a stroke after the last hard catch. */
  startIndex: number;
  endIndex: number;
}

/** Thresholds from the sensitivity (0.5–10): higher finds lighter and shorter efforts. */
export function segmentationThresholds(sensitivity: number) {
  const s = Math.min(SENSITIVITY.max, Math.max(SENSITIVITY.min, sensitivity));
  return {
    /** Drive peak as a share of the recording's strong drives (98th percentile). */
    peakShare: 0.7 - 0.025 * s,
    /** Stroke rate as a share of the working rate (median rate of strong strokes). */
    rateShare: 0.8 - 0.02 * s,
    /** Shortest set, s. */
    minSetS: 60 / s,
  };
}

export function findWorkRuns(strokes: DetectedStroke[], hz: number, sensitivity: number = SENSITIVITY.default): WorkRun[] {
  const count = strokes.length;
  if (count < 3) return [];
  const { peakShare, rateShare, minSetS } = segmentationThresholds(sensitivity);
  const intervals = strokes.map((s, k) => (k + 1 < count ? strokes[k + 1].catchIndex - s.catchIndex : Number.POSITIVE_INFINITY));
  const strongPeak = percentile(strokes.map((s) => s.peakHeight), 98);
  const strongRates = strokes.flatMap((s, k) => (s.peakHeight >= 0.7 * strongPeak && Number.isFinite(intervals[k]) ? [(60 * hz) / intervals[k]] : []));
  const workingRate = strongRates.length ? percentile(strongRates, 50) : 0;
  const rateOf = (k: number) => (k >= 0 && k < count && Number.isFinite(intervals[k]) ? (60 * hz) / intervals[k] : 0);
  // A stroke's rate counts from either side: the last stroke of a piece is followed by a slow one.
  const hard = strokes.map((s, k) => s.peakHeight >= peakShare * strongPeak && Math.max(rateOf(k), rateOf(k - 1)) >= rateShare * workingRate);
  const typicalInterval = workingRate > 0 ? (60 * hz) / workingRate : hz;

  const runs: WorkRun[] = [];
  let k = 0;
  while (k < count) {
    if (!hard[k]) {
      k++;
      continue;
    }
    const first = k;
    let last = k;
    // Extend while hard strokes follow closely; one light stroke inside a run is tolerated.
    for (let j = k + 1; j < count; j++) {
      if (strokes[j].catchIndex - strokes[last].catchIndex > 2.5 * typicalInterval * (j - last)) break;
      if (hard[j]) last = j;
      else if (j - last >= 2) break;
    }
    const ownInterval = last > first ? intervals[last - 1] : typicalInterval;
    const startIndex = strokes[first].catchIndex;
    const endIndex = strokes[last].catchIndex + 0.5 * Math.min(ownInterval, 2.5 * typicalInterval);
    if ((endIndex - startIndex) / hz >= minSetS) runs.push({ firstStroke: first, lastStroke: last, startIndex, endIndex });
    k = last + 1;
  }
  return runs;
}

export interface StepMatch {
  /** Index of the run, or null for a template work step with no run. */
  run: number | null;
  /** Index into the template's (expanded) steps, or null for an extra run. */
  step: number | null;
}

/**
 * Align runs with the template's work steps in order (a small edit-distance
 * alignment): matching run r to step w costs the relative mismatch of the
 * run's measured duration or distance to the step's target (allowed up to
 * `tolerance`), leaving a step or a run unmatched costs 1.
 */
export function matchRunsToSteps(measured: { durationS: number; distanceM: number }[], steps: WorkoutStep[], tolerance = 0.4): StepMatch[] {
  const work = steps.flatMap((s, index) => (s.kind === "work" ? [{ ...s, index }] : []));
  const R = measured.length;
  const W = work.length;
  const mismatch = (r: number, w: number) => {
    const step = work[w];
    const value = step.distance_m !== undefined ? measured[r].distanceM : measured[r].durationS;
    const target = step.distance_m ?? step.duration_s!;
    return Math.abs(value - target) / target;
  };
  // cost[r][w]: best cost aligning the first r runs with the first w steps.
  const cost = Array.from({ length: R + 1 }, () => new Float64Array(W + 1));
  const move = Array.from({ length: R + 1 }, () => new Uint8Array(W + 1)); // 1 match, 2 extra run, 3 missing step
  for (let r = 0; r <= R; r++) {
    for (let w = 0; w <= W; w++) {
      if (r === 0 && w === 0) continue;
      let best = Number.POSITIVE_INFINITY;
      let how = 0;
      if (r > 0 && w > 0) {
        const m = mismatch(r - 1, w - 1);
        if (m <= tolerance && cost[r - 1][w - 1] + m < best) [best, how] = [cost[r - 1][w - 1] + m, 1];
      }
      if (r > 0 && cost[r - 1][w] + 1 < best) [best, how] = [cost[r - 1][w] + 1, 2];
      if (w > 0 && cost[r][w - 1] + 1 < best) [best, how] = [cost[r][w - 1] + 1, 3];
      cost[r][w] = best;
      move[r][w] = how;
    }
  }
  const out: StepMatch[] = [];
  for (let r = R, w = W; r > 0 || w > 0; ) {
    const how = move[r][w];
    if (how === 1) out.push({ run: --r, step: work[--w].index });
    else if (how === 2) out.push({ run: --r, step: null });
    else out.push({ run: null, step: work[--w].index });
  }
  return out.reverse();
}
