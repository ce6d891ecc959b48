import type { EffortTrack, ProcessedStroke, Split } from "./types";
import { trackSplitUncertainties } from "./uncertainty";

/**
 * Splits and series from the stored track (docs/processing.md "Splits",
 * "Series"): pure functions, so the APIs answer any split count or field set
 * without the raw file.
 */
/** How many equal-distance splits an effort may be cut into, and the default: one rule for every surface and API. */
export const SPLIT_COUNT = { min: 1, max: 20, default: 4 } as const;

/** Whether `count` is a split count the product answers (an integer within SPLIT_COUNT). */
export function isSplitCount(count: unknown): count is number {
  return Number.isInteger(count) && (count as number) >= SPLIT_COUNT.min && (count as number) <= SPLIT_COUNT.max;
}

/** The sentence every surface uses for a bad split count. */
export const SPLIT_COUNT_RULE = `must be an integer from ${SPLIT_COUNT.min} to ${SPLIT_COUNT.max}`;

export function computeSplits(
  track: Pick<EffortTrack, "t" | "distance"> & { uncertainty?: EffortTrack["uncertainty"] },
  strokes: Pick<ProcessedStroke, "distance" | "rate">[],
  count: number,
): Split[] {
  if (!isSplitCount(count)) throw new RangeError(`split count ${SPLIT_COUNT_RULE}`);
  const total = track.distance[track.distance.length - 1];
  const splits: Split[] = [];
  let previousTime = 0;
  let previousDistance = 0;
  for (let k = 1; k <= count; k++) {
    const distance = (total * k) / count;
    const time = k === count ? track.t[track.t.length - 1] : timeAtDistance(track, distance);
    const inSplit = strokes.filter((s) => s.distance >= previousDistance && (k === count ? s.distance <= total : s.distance < distance));
    splits.push({
      distance_m: round(distance, 2),
      time_s: round(time, 3),
      split_time_s: round(time - previousTime, 3),
      speed: round((distance - previousDistance) / Math.max(1e-6, time - previousTime), 3),
      rate: inSplit.length ? round(inSplit.reduce((sum, s) => sum + s.rate, 0) / inSplit.length, 1) : null,
      time_uncertainty_s: null,
      split_uncertainty_s: null,
    });
    previousTime = time;
    previousDistance = distance;
  }
  const bars = trackSplitUncertainties(
    track,
    splits.map((s) => s.time_s),
    splits.map((s) => s.distance_m),
  );
  splits.forEach((split, k) => {
    split.time_uncertainty_s = bars?.[k].elapsed_s ?? null;
    split.split_uncertainty_s = bars?.[k].split_s ?? null;
  });
  return splits;
}

/** Seconds from the start at which the boat reached `distance`, interpolated on the stored track. */
export function timeAtDistance(track: Pick<EffortTrack, "t" | "distance">, distance: number): number {
  const d = track.distance;
  let lo = 0;
  let hi = d.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (d[mid] < distance) lo = mid;
    else hi = mid;
  }
  const span = d[hi] - d[lo];
  return track.t[lo] + (span > 0 ? ((distance - d[lo]) / span) * (track.t[hi] - track.t[lo]) : 0);
}

export const SERIES_FIELDS = ["distance", "speed", "rate", "stroke_distance", "heart_rate"] as const;
export type SeriesField = (typeof SERIES_FIELDS)[number];
export const MAX_SERIES_POINTS = 1000;

/**
 * A bounded processed series: at most `maxPoints` (≤ 1000) evenly spaced
 * points of the chosen fields, each with its time from the start.
 */
export function buildSeries(
  track: EffortTrack,
  strokes: Pick<ProcessedStroke, "catch_s" | "distance" | "rate" | "stroke_distance" | "left_stroke_distance" | "right_stroke_distance">[],
  options: { fields: SeriesField[]; maxPoints: number; startS: number },
) {
  const maxPoints = Math.min(MAX_SERIES_POINTS, Math.max(2, Math.floor(options.maxPoints)));
  const n = track.t.length;
  const points = Math.min(n, maxPoints);
  const out: Record<string, (number | null)[]> = { t: [] };
  for (const field of options.fields) out[field] = [];
  let strokeCursor = 0;
  for (let p = 0; p < points; p++) {
    const i = points === 1 ? 0 : Math.round((p * (n - 1)) / (points - 1));
    const t = track.t[i];
    out.t.push(round(t, 2));
    // The stroke in progress at this time: the last catch at or before it.
    while (strokeCursor + 1 < strokes.length && strokes[strokeCursor + 1].catch_s - options.startS <= t) strokeCursor++;
    const stroke = strokes.length && strokes[strokeCursor].catch_s - options.startS <= t ? strokes[strokeCursor] : null;
    for (const field of options.fields) {
      if (field === "distance") out.distance.push(round(track.distance[i], 2));
      else if (field === "speed") out.speed.push(round(track.speed[i], 3));
      else if (field === "heart_rate") out.heart_rate.push(track.heart_rate[i]);
      else if (field === "rate") out.rate.push(stroke ? stroke.rate : null);
      else
        out.stroke_distance.push(
          stroke ? (stroke.stroke_distance ?? stroke.left_stroke_distance ?? stroke.right_stroke_distance ?? null) : null,
        );
    }
  }
  return out;
}

export const round = (value: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};
