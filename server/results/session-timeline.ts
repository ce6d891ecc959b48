import type { EffortTrack, Split } from "../svc/process/types";

/**
 * The session page's one cursor (docs/replay.md "One cursor through the
 * session page"): a time in seconds from the effort's start, the clock of the
 * replay's frames (frame 0 is the effort's first catch) and of the stored
 * track. The timeline maps that time to the distance the charts and the
 * course are drawn along and back, and carries what the player shows live:
 * the track's smoothed speed, each stroke's rate and the split ends.
 * Pure: built on the server, read in the browser.
 */
export interface SessionTimeline {
  /** Seconds from the effort start, ascending; the last is the effort's end. */
  t: number[];
  /** Metres from the effort start at each `t`, non-decreasing. */
  d: number[];
  /** Smoothed speed (m/s) at each `t`: the track's, as the course map and the speed sentence use. */
  speed: number[];
  /** Each stroke's catch distance (m) and rate (spm), in effort order. */
  strokes: [number, number | null][];
  /** Split ends (m), ascending; the last is the effort's distance. */
  splitEndsM: number[];
}

/** Points kept at most (a 500 m race at 10 Hz is ~1,000; a long paddle is thinned to this, a point every few seconds). */
export const MAX_TIMELINE_POINTS = 1200;

const r = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

export function sessionTimeline(
  track: Pick<EffortTrack, "t" | "distance" | "speed">,
  strokes: readonly { distance: number; rate: number | null }[],
  splits: readonly Pick<Split, "distance_m">[],
): SessionTimeline | null {
  const n = track.t.length;
  if (n < 2) return null;
  const stride = Math.max(1, Math.ceil(n / MAX_TIMELINE_POINTS));
  const keep: number[] = [];
  for (let k = 0; k < n; k += stride) keep.push(k);
  if (keep[keep.length - 1] !== n - 1) keep.push(n - 1);
  return {
    t: keep.map((k) => r(track.t[k], 2)),
    d: keep.map((k) => r(track.distance[k], 2)),
    speed: keep.map((k) => r(track.speed[k], 3)),
    strokes: strokes.map((s) => [r(s.distance, 2), s.rate]),
    splitEndsM: splits.map((s) => s.distance_m),
  };
}

/** Index of the last element of ascending `xs` at most `x` (0 before the first). */
function floorIndex(xs: readonly number[], x: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  if (x >= xs[hi]) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) lo = mid;
    else hi = mid;
  }
  return lo;
}

function interpolate(xs: readonly number[], ys: readonly number[], x: number): number {
  if (x <= xs[0]) return ys[0];
  if (x >= xs[xs.length - 1]) return ys[ys.length - 1];
  const i = floorIndex(xs, x);
  const span = xs[i + 1] - xs[i];
  return span > 0 ? ys[i] + ((ys[i + 1] - ys[i]) * (x - xs[i])) / span : ys[i];
}

export const durationOf = (timeline: SessionTimeline) => timeline.t[timeline.t.length - 1];
export const distanceOf = (timeline: SessionTimeline) => timeline.d[timeline.d.length - 1];

/** Metres from the start at `timeS` (held at the ends). */
export function distanceAtTime(timeline: SessionTimeline, timeS: number): number {
  return interpolate(timeline.t, timeline.d, timeS);
}

/** The first time the boat is at `distanceM` (0 before the start, the end past the finish). */
export function timeAtDistance(timeline: SessionTimeline, distanceM: number): number {
  const { t, d } = timeline;
  if (distanceM <= d[0]) return t[0];
  if (distanceM >= d[d.length - 1]) return t[t.length - 1];
  // d is non-decreasing: the first point at or past distanceM, interpolated from the one before.
  let lo = 0;
  let hi = d.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (d[mid] < distanceM) lo = mid;
    else hi = mid;
  }
  const span = d[hi] - d[lo];
  return span > 0 ? t[lo] + ((t[hi] - t[lo]) * (distanceM - d[lo])) / span : t[hi];
}

/** A split's end within this (m) counts as the next split's start: a seek to a split lands in it, not a hair before. */
export const SPLIT_EDGE_M = 0.05;

/** What the player shows at `timeS`: distance, speed, the rate of the stroke under way, the split it is in. */
export interface LiveFigures {
  timeS: number;
  distanceM: number;
  speedMS: number;
  rateSpm: number | null;
  /** 1-based split number and the number of splits; null without splits. */
  split: { number: number; of: number } | null;
}

export function liveFigures(timeline: SessionTimeline, timeS: number): LiveFigures {
  const time = Math.max(0, Math.min(durationOf(timeline), timeS));
  const distanceM = distanceAtTime(timeline, time);
  const speedMS = interpolate(timeline.t, timeline.speed, time);
  const catches = timeline.strokes.map((s) => s[0]);
  const stroke = catches.length && distanceM >= catches[0] ? timeline.strokes[floorIndex(catches, distanceM)] : null;
  const ends = timeline.splitEndsM;
  const index = ends.findIndex((end) => distanceM < end - SPLIT_EDGE_M);
  const split = ends.length ? { number: index < 0 ? ends.length : index + 1, of: ends.length } : null;
  return { timeS: time, distanceM, speedMS, rateSpm: stroke ? stroke[1] : null, split };
}
