import type { WorkoutStep } from "../types";
import type { DetectedStroke } from "./strokes";

/**
 * Set segmentation of a training (docs/trainings.md "How sets are found").
 * A work set is a run of work strokes. What counts as work is measured
 * against the practice's own typical work stroke — the median drive peak
 * and rate of the cruising part of candidate pieces — never against the
 * extremes (standing-start strokes surge 1.5–2× a cruising stroke at a
 * 15–20 % higher rate). A run is entered on strokes at work level (medians
 * of five strokes, so one odd stroke neither starts nor ends a set) and
 * held, against the run's own cruising level, until the crew stops working:
 * a piece that fades keeps its finish. With a workout template, runs are
 * then matched to its work steps, in order, by duration or distance.
 */
export const SENSITIVITY = { min: 0.5, max: 10, default: 5 } as const;

export interface WorkRun {
  /** Indices into the detected strokes: the first work stroke and the last. */
  firstStroke: number;
  lastStroke: number;
  /** Fractional IMU sample indices: the first catch, and half a stroke after the last work catch. */
  startIndex: number;
  endIndex: number;
}

/** Thresholds from the sensitivity (0.5–10): higher finds lighter and shorter efforts. */
export function segmentationThresholds(sensitivity: number) {
  const s = Math.min(SENSITIVITY.max, Math.max(SENSITIVITY.min, sensitivity));
  return {
    /** Drive peak (median of five strokes) as a share of the typical work stroke's, to enter a set. */
    peakShare: 0.85 - 0.035 * s,
    /** Stroke rate (median of five strokes) as a share of the typical working rate, to enter a set. */
    rateShare: 0.8 - 0.02 * s,
    /** Shortest set, s. */
    minSetS: 60 / s,
  };
}

/** Seconds without a catch that break a rhythm (longer than any stroke cycle, shorter than any drift). */
const RHYTHM_GAP_S = 2.5;
/** Strokes this long after a candidate piece's first catch are its cruising part (a start settles within 5–10 s). */
const CRUISE_AFTER_S = 10;
/** Holding a set: shares of the set's own cruising drive and rate (a piece fades 5–15 %, a tiring crew more). */
const HOLD_PEAK = 0.75;
const HOLD_RATE = 0.85;

export function findWorkRuns(strokes: DetectedStroke[], hz: number, sensitivity: number = SENSITIVITY.default): WorkRun[] {
  const count = strokes.length;
  if (count < 3) return [];
  const { peakShare, rateShare, minSetS } = segmentationThresholds(sensitivity);
  const gap = RHYTHM_GAP_S * hz;
  const intervals = new Float64Array(count);
  for (let k = 0; k < count; k++)
    intervals[k] = k + 1 < count ? strokes[k + 1].catchIndex - strokes[k].catchIndex : Number.POSITIVE_INFINITY;
  const rateOf = (k: number) => (k >= 0 && k < count && intervals[k] <= gap ? (60 * hz) / intervals[k] : 0);
  // A stroke's rate counts from either side: the last stroke of a piece is followed by a drift or a slow one.
  const rate = new Float64Array(count);
  const peak = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    rate[k] = Math.max(rateOf(k), rateOf(k - 1));
    peak[k] = strokes[k].peakHeight;
  }
  // Medians over five strokes of the same rhythm: a step in intensity keeps its edge, one odd stroke does not make one.
  const segmentStart = new Int32Array(count);
  const segmentEnd = new Int32Array(count);
  for (let k = 0; k < count; k++) segmentStart[k] = k > 0 && intervals[k - 1] <= gap ? segmentStart[k - 1] : k;
  for (let k = count - 1; k >= 0; k--) segmentEnd[k] = k + 1 < count && intervals[k] <= gap ? segmentEnd[k + 1] : k;
  const window = new Float64Array(5);
  const smooth = (values: Float64Array) => {
    const out = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      const from = Math.max(segmentStart[k], k - 2);
      const to = Math.min(segmentEnd[k], k + 2);
      // Insertion sort of at most five values: no allocation per stroke.
      let n = 0;
      for (let j = from; j <= to; j++) {
        let i = n++;
        for (; i > 0 && window[i - 1] > values[j]; i--) window[i] = window[i - 1];
        window[i] = values[j];
      }
      out[k] = n % 2 ? window[n >> 1] : 0.5 * (window[(n >> 1) - 1] + window[n >> 1]);
    }
    return out;
  };
  const smoothPeak = smooth(peak);
  const smoothRate = smooth(rate);

  // Typical work: the upper of the two intensity clusters (drive × rate), its cruising part only.
  const intensity = new Float64Array(count);
  for (let k = 0; k < count; k++) intensity[k] = Math.log(Math.max(smoothPeak[k], 1e-6) * Math.max(smoothRate[k], 1));
  const split = otsuThreshold(intensity);
  const upper = new Uint8Array(count);
  for (let k = 0; k < count; k++) upper[k] = intensity[k] >= split ? 1 : 0;
  const cruisePeaks: number[] = [];
  const cruiseRates: number[] = [];
  for (let k = 0; k < count;) {
    if (!upper[k]) {
      k++;
      continue;
    }
    let last = k;
    while (last + 1 < count && upper[last + 1] && intervals[last] <= gap) last++;
    for (let j = k; j <= last; j++) {
      if (strokes[j].catchIndex - strokes[k].catchIndex < CRUISE_AFTER_S * hz) continue;
      cruisePeaks.push(peak[j]);
      if (rateOf(j) > 0) cruiseRates.push(rateOf(j));
    }
    k = last + 1;
  }
  if (cruisePeaks.length === 0 || cruiseRates.length === 0) return [];
  const workPeak = median(Float64Array.from(cruisePeaks));
  const workRate = median(Float64Array.from(cruiseRates));
  const typicalInterval = (60 * hz) / workRate;
  const enters = (k: number) => smoothPeak[k] >= peakShare * workPeak && smoothRate[k] >= rateShare * workRate;

  const runs: WorkRun[] = [];
  let k = 0;
  while (k < count) {
    if (!enters(k)) {
      k++;
      continue;
    }
    let first = k;
    let last = k;
    while (last + 1 < count && intervals[last] <= gap && enters(last + 1)) last++;
    // The run's own cruising level, then hold the set while strokes stay near it (a fading finish is still work).
    const own = (from: number, to: number) => {
      const after = strokes[from].catchIndex + CRUISE_AFTER_S * hz;
      let begin = from;
      while (begin < to && strokes[begin].catchIndex < after) begin++;
      if (to - begin < 3) begin = Math.floor((from + to) / 2);
      return { peak: median(peak.slice(begin, to + 1)), rate: median(rate.slice(begin, to + 1)) };
    };
    const level = own(first, last);
    const holds = (j: number) => peak[j] >= HOLD_PEAK * peakShare * level.peak && rate[j] >= HOLD_RATE * rateShare * level.rate;
    for (;;) {
      // Extend through fading strokes, and bridge one or two light ones back into a run that goes on.
      if (last + 1 < count && intervals[last] <= gap && holds(last + 1)) {
        last++;
        continue;
      }
      const resume = [last + 2, last + 3].find(
        (j) => j < count && strokes[j].catchIndex - strokes[last].catchIndex <= 2.5 * typicalInterval * (j - last) && enters(j),
      );
      if (resume === undefined) break;
      last = resume;
    }
    // The first catch: the first stroke at work level on its own (the median can lead by a stroke).
    while (first < last && !(peak[first] >= HOLD_PEAK * peakShare * level.peak && rateOf(first) >= HOLD_RATE * rateShare * level.rate))
      first++;
    const ownInterval = last > first ? intervals[last - 1] : typicalInterval;
    const startIndex = strokes[first].catchIndex;
    const endIndex = strokes[last].catchIndex + 0.5 * Math.min(ownInterval, 2.5 * typicalInterval);
    if ((endIndex - startIndex) / hz >= minSetS) runs.push({ firstStroke: first, lastStroke: last, startIndex, endIndex });
    k = last + 1;
  }
  return runs;
}

function median(values: Float64Array): number {
  if (values.length === 0) return NaN;
  const sorted = values.slice().sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid]);
}

/**
 * Otsu's threshold: the split of the values into two groups with the
 * largest between-group variance (here light paddling against work). When
 * the two groups are not clearly apart (a practice of work and drifts only)
 * every value counts as the upper group.
 */
function otsuThreshold(values: Float64Array): number {
  const sorted = values.filter(Number.isFinite).sort();
  if (sorted.length < 2) return Number.NEGATIVE_INFINITY;
  const n = sorted.length;
  const prefix = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + sorted[i];
  let best = -1;
  let cut = 0;
  for (let i = 1; i < n; i++) {
    if (sorted[i] === sorted[i - 1]) continue;
    const m0 = prefix[i] / i;
    const m1 = (prefix[n] - prefix[i]) / (n - i);
    const between = i * (n - i) * (m0 - m1) ** 2;
    if (between > best) [best, cut] = [between, i];
  }
  const lower = prefix[cut] / cut;
  const upper = (prefix[n] - prefix[cut]) / (n - cut);
  // Work is well over 1.5× light paddling in drive × rate; closer groups are one kind of stroke.
  return upper - lower >= Math.log(1.5) ? sorted[cut] : Number.NEGATIVE_INFINITY;
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
  for (let r = R, w = W; r > 0 || w > 0;) {
    const how = move[r][w];
    if (how === 1) out.push({ run: --r, step: work[--w].index });
    else if (how === 2) out.push({ run: --r, step: null });
    else out.push({ run: null, step: work[--w].index });
  }
  return out.reverse();
}
