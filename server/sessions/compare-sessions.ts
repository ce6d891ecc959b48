import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { StoredAnalysis } from "../results/result-analysis";
import { timeAtDistance } from "../svc/process/track";
import type { EffortTrack } from "../svc/process/types";
import type { SessionRow } from "./list-sessions";
import { getReadableSession, getSessionAnalysis, getSessionStrokes } from "./read-session";
import type { SessionAudience } from "./session-boundary";

/**
 * Session compare (data-api.md POST /sessions/compare; docs/data-api.md
 * "Session compare"): 2 to 9 readable sessions laid over one distance grid.
 * The grid runs from 0 to the shortest session's distance, so every session
 * has a value at every point; splits cut that common distance into equal
 * parts and each split is compared with the first session's. Only derived,
 * bounded values come out: no stroke rows, no route, no heart rate.
 */
export const COMPARE_LIMITS = {
  minSessions: 2,
  maxSessions: 9,
  points: { min: 2, max: 1000, default: 200 },
  splits: SPLIT_COUNT,
} as const;

export interface ComparedSession {
  row: SessionRow;
  analysis: StoredAnalysis;
  /** At each grid distance: seconds from the effort start, speed m/s, stroke rate spm (null before the first stroke). */
  timeS: number[];
  speedMS: number[];
  rateSpm: (number | null)[];
  splits: ComparedSplit[];
}

export interface ComparedSplit {
  index: number;
  distanceM: number;
  elapsedS: number;
  splitS: number;
  speedMS: number;
  rateSpm: number | null;
  splitDeltaS: number;
  elapsedDeltaS: number;
  /** 95 % uncertainties of elapsedS and splitS (null for a session stored without the figures). */
  elapsedUncertaintyS: number | null;
  splitUncertaintyS: number | null;
  /** Whether each delta is smaller than the combined uncertainty of the two figures (null when either has none). */
  splitDeltaWithinNoise: boolean | null;
  elapsedDeltaWithinNoise: boolean | null;
}

export interface SessionComparison {
  /** The common distance (the shortest session's), metres. */
  distanceM: number;
  gridM: number[];
  sessions: ComparedSession[];
}

import { trackSplitUncertainties } from "../svc/process/uncertainty";
import { SPLIT_COUNT } from "../svc/process/track";

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Loads each session through the subject's boundary (absent or outside: the one not-found), then compares. */
export async function compareSessions(
  db: Db,
  audience: SessionAudience,
  ids: number[],
  options: { points: number; splits: number },
): Promise<SessionComparison> {
  if (ids.length < COMPARE_LIMITS.minSessions || ids.length > COMPARE_LIMITS.maxSessions || new Set(ids).size !== ids.length) {
    throw new AppError("invalid", `session_ids: ${COMPARE_LIMITS.minSessions} to ${COMPARE_LIMITS.maxSessions} different sessions`, {
      session_ids: ["Choose 2 to 9 different sessions"],
    });
  }
  // In turn, so the first session outside the boundary answers, whatever the others are.
  const rows: SessionRow[] = [];
  for (const id of ids) rows.push(await getReadableSession(db, audience, id));
  const loaded = await Promise.all(
    rows.map(async (row) => {
      const analysis = await getSessionAnalysis(db, row.id);
      if (!analysis) throw new AppError("conflict", `Session ${row.id} has no processed data: its processing failed`);
      const strokes = await getSessionStrokes(db, row.id);
      return { row, analysis, strokes: strokes.map((s) => ({ distance: s.distanceM ?? 0, rate: s.rateSpm })) };
    }),
  );
  return compareLoaded(loaded, options);
}

/** The pure part: grid, aligned series and splits of already loaded sessions. */
export function compareLoaded(
  loaded: { row: SessionRow; analysis: StoredAnalysis; strokes: { distance: number; rate: number | null }[] }[],
  options: { points: number; splits: number },
): SessionComparison {
  const distanceM = Math.max(0, Math.min(...loaded.map((s) => lastOf(s.analysis.track.distance))));
  const gridM = Array.from({ length: options.points }, (_, j) => round((distanceM * j) / (options.points - 1), 2));
  const sessions = loaded.map(({ row, analysis, strokes }) => {
    const track = analysis.track;
    const timeS = gridM.map((d) => round(timeAtDistance(track, d), 3));
    const speedMS = timeS.map((t) => round(valueAtTime(track, track.speed, t), 3));
    const rateSpm = gridM.map((d) => rateAt(strokes, d));
    return { row, analysis, timeS, speedMS, rateSpm, splits: splitsOf(track, strokes, distanceM, options.splits) };
  });
  const first = sessions[0].splits;
  for (const s of sessions) {
    s.splits = s.splits.map((split, k) => {
      const splitDeltaS = round(split.splitS - first[k].splitS, 3);
      const elapsedDeltaS = round(split.elapsedS - first[k].elapsedS, 3);
      return {
        ...split,
        splitDeltaS,
        elapsedDeltaS,
        splitDeltaWithinNoise: s === sessions[0] ? null : withinNoise(splitDeltaS, split.splitUncertaintyS, first[k].splitUncertaintyS),
        elapsedDeltaWithinNoise:
          s === sessions[0] ? null : withinNoise(elapsedDeltaS, split.elapsedUncertaintyS, first[k].elapsedUncertaintyS),
      };
    });
  }
  return { distanceM: round(distanceM, 2), gridM, sessions };
}

const lastOf = (values: number[]) => values[values.length - 1] ?? 0;

/**
 * A difference is "within the noise" when it is smaller than the two figures' combined 95 %
 * uncertainty (independent recordings: √(a² + b²)), docs/processing.md "Split uncertainty".
 */
export function withinNoise(delta: number, a: number | null, b: number | null): boolean | null {
  if (a === null || b === null) return null;
  return Math.abs(delta) < Math.sqrt(a * a + b * b);
}

/** Linear interpolation of a track channel at a time, seconds from the effort start. */
function valueAtTime(track: EffortTrack, values: number[], t: number): number {
  const times = track.t;
  if (!times.length) return 0;
  let lo = 0;
  let hi = times.length - 1;
  if (t <= times[0]) return values[0] ?? 0;
  if (t >= times[hi]) return values[hi] ?? 0;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid;
    else hi = mid;
  }
  const span = times[hi] - times[lo];
  return values[lo] + (span > 0 ? ((t - times[lo]) / span) * (values[hi] - values[lo]) : 0);
}

/** The rate of the stroke under way at a distance: the last catch at or before it (null before the first catch). */
function rateAt(strokes: { distance: number; rate: number | null }[], distance: number): number | null {
  let lo = 0;
  let hi = strokes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (strokes[mid].distance <= distance) lo = mid + 1;
    else hi = mid;
  }
  const rate = lo > 0 ? strokes[lo - 1].rate : null;
  return rate === null ? null : round(rate, 1);
}

function splitsOf(
  track: EffortTrack,
  strokes: { distance: number; rate: number | null }[],
  distanceM: number,
  count: number,
): ComparedSession["splits"] {
  const out: ComparedSession["splits"] = [];
  let previousTime = 0;
  let previousDistance = 0;
  for (let k = 1; k <= count; k++) {
    const distance = (distanceM * k) / count;
    const time = timeAtDistance(track, distance);
    const rates = strokes
      .filter((s) => s.distance >= previousDistance && s.distance < distance && s.rate !== null)
      .map((s) => s.rate as number);
    out.push({
      index: k,
      distanceM: round(distance, 2),
      elapsedS: round(time, 3),
      splitS: round(time - previousTime, 3),
      speedMS: round((distance - previousDistance) / Math.max(1e-6, time - previousTime), 3),
      rateSpm: rates.length ? round(rates.reduce((a, b) => a + b, 0) / rates.length, 1) : null,
      splitDeltaS: 0,
      elapsedDeltaS: 0,
      elapsedUncertaintyS: null,
      splitUncertaintyS: null,
      splitDeltaWithinNoise: null,
      elapsedDeltaWithinNoise: null,
    });
    previousTime = time;
    previousDistance = distance;
  }
  const bars = trackSplitUncertainties(
    track,
    out.map((s) => s.elapsedS),
    out.map((s) => s.distanceM),
  );
  out.forEach((split, k) => {
    split.elapsedUncertaintyS = bars?.[k].elapsed_s ?? null;
    split.splitUncertaintyS = bars?.[k].split_s ?? null;
  });
  return out;
}
