import { decodeSvc } from "../container";
import type { DecodedSvc, Keyring, VesselType, WorkoutStep } from "../types";
import { sampleDistance } from "./effort";
import { ProcessingError } from "./errors";
import { indexAtValue } from "./filters";
import { dataQuality, strokeMetrics, summarize } from "./metrics";
import { analyseRecording, buildTrack, effortHeartRate, recordingClock, type ProcessingOptions } from "./process";
import { findWorkRuns, matchRunsToSteps, SENSITIVITY, type WorkRun } from "./sets";
import { assignSides, type DetectedStroke } from "./strokes";
import { round } from "./track";
import { catchTimingSd } from "./uncertainty";
import type { DataQuality, EffortTrack, ProcessedStroke, SessionSummary } from "./types";
import { PROCESSING_CORE_VERSION } from "./version";

/**
 * A training: one recording of a practice with several work sets and rests
 * (docs/processing.md "Trainings"). Every work set is an effort with the
 * same definitions as a session's: it starts at its first catch and, when
 * matched to a template step, ends where the step's distance or time is
 * reached; its strokes, track (for splits) and summary are its own.
 */
export interface TrainingMeta {
  vessel: VesselType;
  /** Expanded template steps (a normalized version-1 workout template), if the practice followed one. */
  steps?: WorkoutStep[];
  /** Segmentation sensitivity, 0.5–10 (default 5): higher finds lighter, shorter efforts. */
  sensitivity?: number;
  /**
   * Sets decided by a person (docs/trainings.md "Corrected sets"): when given,
   * detection is skipped and these contiguous spans (recording clock, s) are
   * the sets, each measured with the same definitions as a detected one.
   */
  spans?: SetSpan[];
}

export interface SetSpan {
  kind: "work" | "rest";
  start_s: number;
  end_s: number;
  step_index: number | null;
}

export interface TrainingSet {
  kind: "work" | "rest";
  /** Seconds on the recording clock (the clock of `strokes[].catch_s`). */
  start_s: number;
  end_s: number;
  distance_m: number;
  duration_ms: number;
  stroke_count: number;
  /** Work sets matched to a template: the index of the step in the expanded steps; null otherwise. */
  step_index: number | null;
  /** False when the recording (or the next set) came before the step's distance or time was reached. */
  complete: boolean;
  /** Work sets only: the set's own strokes (distance from the set start), track and summary. */
  strokes: ProcessedStroke[] | null;
  track: EffortTrack | null;
  summary: SessionSummary | null;
  heart_rate: [number, number][] | null;
}

export interface TemplateMatch {
  /** Expanded step indices of work steps no set was found for. */
  unmatched_steps: number[];
  /** Positions in `sets` of work sets that match no step. */
  extra_sets: number[];
}

export interface ProcessedTraining {
  processing_core_version: number;
  /** From the first work set's start to the last one's end. */
  effort: { start_s: number; end_s: number; dist: number; duration_ms: number };
  date: string;
  time_of_day: string;
  start_unix_ms: number;
  utc_offset_min: number;
  device: ReturnType<typeof recordingClock>["device"];
  /** Every stroke of the recording; `distance` from the first work set's start (negative before it). */
  strokes: ProcessedStroke[];
  summary: SessionSummary;
  data_quality: DataQuality;
  track: EffortTrack;
  sets: TrainingSet[];
  /** The sets detection found (with `spans`, what it would have found): what a correction is compared with. */
  detected_sets: SetSpan[];
  template_match: TemplateMatch | null;
}

export function processTrainingSvc(
  bytes: Uint8Array,
  meta: TrainingMeta,
  keyring: Keyring,
  options: ProcessingOptions = {},
): ProcessedTraining {
  return processTraining(decodeSvc(bytes, keyring), meta, options);
}

export function processTraining(decoded: DecodedSvc, meta: TrainingMeta, options: ProcessingOptions = {}): ProcessedTraining {
  const sensitivity = meta.sensitivity ?? SENSITIVITY.default;
  if (!(sensitivity >= SENSITIVITY.min && sensitivity <= SENSITIVITY.max))
    throw new RangeError(`sensitivity must be from ${SENSITIVITY.min} to ${SENSITIVITY.max}`);
  const { kayak, signals, hz, kin, filtered, detected } = analyseRecording(decoded, meta.vessel, options);
  const runs = findWorkRuns(detected, hz, sensitivity);
  const placed = placeWorkSets(runs, kin.distance, hz, meta.steps);
  const detectedSpans = spansOf(placed.works, hz);
  const forced = meta.spans ? forcedWorks(meta.spans, placed.works, detected, kin.distance, hz, meta.steps) : null;
  const { works, match } = forced ?? placed;
  if (works.length === 0) throw new ProcessingError("no_effort", "no work sets found");

  const sides = kayak ? assignSides(detected, signals.yawRateDegS, signals.rollDeg, hz) : detected.map(() => null);
  const strokesBetween = (from: number, to: number) => {
    let first = lowerBound(detected, from);
    const begin = first;
    while (first < detected.length && detected[first].catchIndex < to) first++;
    return { begin, end: first };
  };
  // A work set's last stroke ends with its work: a catch after the set's end (the rest's first easy stroke) is not
  // its next catch, so it keeps the set's own rhythm (the stroke before it) instead of running into the rest.
  const metricsOf = (begin: number, end: number, startIndex: number, endIndex = Infinity) =>
    strokeMetrics(
      detected.slice(begin, end),
      (k) => {
        const next = detected[begin + k + 1]?.catchIndex ?? null;
        return next !== null && next <= endIndex ? next : null;
      },
      sides.slice(begin, end),
      kin,
      signals,
      filtered,
      startIndex,
      kayak,
    );
  const metres = (from: number, to: number) => sampleDistance(kin.distance, to) - sampleDistance(kin.distance, from);

  const sets: TrainingSet[] = [];
  works.forEach((work, k) => {
    if (k > 0 && work.startIndex > works[k - 1].endIndex) {
      const from = works[k - 1].endIndex;
      const { begin, end } = strokesBetween(from, work.startIndex);
      sets.push({
        kind: "rest",
        start_s: round(from / hz, 3),
        end_s: round(work.startIndex / hz, 3),
        distance_m: Math.round(metres(from, work.startIndex)),
        duration_ms: Math.round(((work.startIndex - from) * 1000) / hz),
        stroke_count: end - begin,
        step_index: null,
        complete: true,
        strokes: null,
        track: null,
        summary: null,
        heart_rate: null,
      });
    }
    const { begin, end } = strokesBetween(work.startIndex, work.endIndex);
    const strokes = metricsOf(begin, end, work.startIndex, work.endIndex);
    const durationMs = Math.round(((work.endIndex - work.startIndex) * 1000) / hz);
    const distanceM = work.targetDistanceM ?? Math.round(metres(work.startIndex, work.endIndex));
    const startSdS = catchTimingSd(filtered, work.startIndex, hz, kin.noise.accelMs2);
    const track = buildTrack(decoded, kin, work.startIndex, work.endIndex, hz, {
      endsAt: work.targetDistanceM !== null ? "distance" : "time",
      startSdS,
    });
    const heartRate = effortHeartRate(decoded, work.startIndex / hz, work.endIndex / hz);
    sets.push({
      kind: "work",
      start_s: round(work.startIndex / hz, 3),
      end_s: round(work.endIndex / hz, 3),
      distance_m: distanceM,
      duration_ms: durationMs,
      stroke_count: strokes.length,
      step_index: work.stepIndex,
      complete: work.complete,
      strokes,
      track,
      summary: summarize(
        strokes,
        distanceM,
        durationMs,
        track.speed,
        heartRate.map(([, bpm]) => bpm),
        kayak,
      ),
      heart_rate: heartRate,
    });
  });

  const startIndex = works[0].startIndex;
  const endIndex = works[works.length - 1].endIndex;
  const startS = startIndex / hz;
  const endS = endIndex / hz;
  const durationMs = Math.round((endS - startS) * 1000);
  const dist = Math.round(metres(startIndex, endIndex));
  const track = buildTrack(decoded, kin, startIndex, endIndex, hz);
  const all = metricsOf(0, detected.length, startIndex);
  const within = all.filter((s) => s.catch_s >= startS - 1e-9 && s.catch_s < endS);
  const heartRate = effortHeartRate(decoded, startS, endS);
  const workPositions = sets.flatMap((s, position) => (s.kind === "work" ? [position] : []));
  return {
    processing_core_version: PROCESSING_CORE_VERSION,
    effort: { start_s: round(startS, 3), end_s: round(endS, 3), dist, duration_ms: durationMs },
    ...recordingClock(decoded, startS),
    strokes: all,
    summary: summarize(
      within,
      dist,
      durationMs,
      track.speed,
      heartRate.map(([, bpm]) => bpm),
      kayak,
    ),
    data_quality: dataQuality(decoded, kin, startS, endS, sampleDistance(kin.distance, startIndex), kin.distance, hz),
    track,
    sets,
    detected_sets: detectedSpans,
    template_match: match && {
      unmatched_steps: match.unmatchedSteps,
      extra_sets: works.flatMap((w, k) => (w.stepIndex === null ? [workPositions[k]] : [])),
    },
  };
}

interface PlacedWork {
  startIndex: number;
  endIndex: number;
  stepIndex: number | null;
  targetDistanceM: number | null;
  complete: boolean;
}

/**
 * Work sets from the runs: without a template each run is a set ending half
 * a stroke after its last hard catch; with one, matched runs end where the
 * step's distance or time from the first catch is reached (never past the
 * next run's start or the recording's end), and runs without a step stay as
 * extra sets.
 */
function placeWorkSets(runs: WorkRun[], distance: Float64Array, hz: number, steps: WorkoutStep[] | undefined) {
  const signalOnly = (run: WorkRun): PlacedWork => ({
    startIndex: run.startIndex,
    endIndex: run.endIndex,
    stepIndex: null,
    targetDistanceM: null,
    complete: true,
  });
  if (!steps) return { works: runs.map(signalOnly), match: null };
  const measured = runs.map((run) => ({
    durationS: (run.endIndex - run.startIndex) / hz,
    distanceM: sampleDistance(distance, run.endIndex) - sampleDistance(distance, run.startIndex),
  }));
  const alignment = matchRunsToSteps(measured, steps);
  const works: PlacedWork[] = [];
  const unmatchedSteps: number[] = [];
  for (const pair of alignment) {
    if (pair.run === null) {
      unmatchedSteps.push(pair.step!);
      continue;
    }
    const run = runs[pair.run];
    if (pair.step === null) {
      works.push(signalOnly(run));
      continue;
    }
    const step = steps[pair.step];
    const limit = pair.run + 1 < runs.length ? runs[pair.run + 1].startIndex : distance.length - 1;
    const target =
      step.distance_m !== undefined
        ? indexAtValue(distance, sampleDistance(distance, run.startIndex) + step.distance_m, Math.floor(run.startIndex))
        : run.startIndex + step.duration_s! * hz;
    const complete = Number.isFinite(target) && target <= limit;
    works.push({
      startIndex: run.startIndex,
      endIndex: complete ? target : Math.min(limit, run.endIndex),
      stepIndex: pair.step,
      targetDistanceM: complete && step.distance_m !== undefined ? step.distance_m : null,
      complete,
    });
  }
  return { works, match: { unmatchedSteps } };
}

/** Detected work sets as contiguous spans, the rests between them included. */
function spansOf(works: PlacedWork[], hz: number): SetSpan[] {
  return works.flatMap((w, k) => {
    const work: SetSpan = { kind: "work", start_s: round(w.startIndex / hz, 3), end_s: round(w.endIndex / hz, 3), step_index: w.stepIndex };
    return k > 0 && w.startIndex > works[k - 1].endIndex
      ? [{ kind: "rest" as const, start_s: round(works[k - 1].endIndex / hz, 3), end_s: work.start_s, step_index: null }, work]
      : [work];
  });
}

/**
 * A person's spans as work sets: each keeps its step but is measured, not
 * set to the step's target (the person chose where it ends). Rests are the
 * gaps between work sets. Spans must lie in the recording, in order.
 *
 * A span that is a detected work set (same bounds to the millisecond, same
 * step) is that set exactly as detection placed it: its unrounded bounds, a
 * step's target distance, a distance end and so its split uncertainties. So
 * a correction changes only the sets it touched, and undoing every
 * correction gives back what detection gave (docs/trainings.md
 * "Corrections are undone exactly").
 */
function forcedWorks(
  spans: SetSpan[],
  placed: PlacedWork[],
  detected: DetectedStroke[],
  distance: Float64Array,
  hz: number,
  steps: WorkoutStep[] | undefined,
): { works: PlacedWork[]; match: { unmatchedSteps: number[] } | null } {
  // Bounds are kept to the millisecond: one that was a detected set's bound is that bound again, unrounded (a neighbour of
  // an untouched set meets it exactly, so no sliver of a rest appears and the neighbour's figures stay); one that was a
  // catch is that catch again, so the stroke stays on its side.
  const detectedBounds = placed.flatMap((w) => [w.startIndex, w.endIndex]);
  const toIndex = (s: number) => {
    const index = s * hz;
    const bound = detectedBounds.find((b) => Math.abs(b - index) <= 0.0015 * hz);
    if (bound !== undefined) return bound;
    const k = lowerBound(detected, index - 0.0015 * hz);
    return k < detected.length && Math.abs(detected[k].catchIndex - index) <= 0.0015 * hz ? detected[k].catchIndex : index;
  };
  const works = spans
    .filter((s) => s.kind === "work")
    .map((s): PlacedWork => {
      const same = placed.find(
        (w) =>
          w.stepIndex === s.step_index &&
          Math.abs(round(w.startIndex / hz, 3) - s.start_s) < 0.0015 &&
          Math.abs(round(w.endIndex / hz, 3) - s.end_s) < 0.0015,
      );
      if (same) return same;
      const startIndex = toIndex(s.start_s);
      const endIndex = toIndex(s.end_s);
      const step = s.step_index !== null ? steps?.[s.step_index] : undefined;
      const metres = sampleDistance(distance, endIndex) - sampleDistance(distance, startIndex);
      // Half a metre or a tenth of a second of slack: a boundary a person moved to a catch may fall just short of the target.
      const complete =
        !step || (step.distance_m !== undefined ? metres >= step.distance_m - 0.5 : (endIndex - startIndex) / hz >= step.duration_s! - 0.1);
      return { startIndex, endIndex, stepIndex: step ? s.step_index : null, targetDistanceM: null, complete };
    });
  if (!steps) return { works, match: null };
  const used = new Set(works.map((w) => w.stepIndex));
  return { works, match: { unmatchedSteps: steps.flatMap((step, index) => (step.kind === "work" && !used.has(index) ? [index] : [])) } };
}

function lowerBound(strokes: DetectedStroke[], index: number): number {
  let lo = 0;
  let hi = strokes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (strokes[mid].catchIndex < index - 1e-6) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
