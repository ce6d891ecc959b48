import type { EffortTrack, ProcessedStroke } from "../svc/process/types";

/**
 * Session analyses as pure functions of a processed session (docs/analytics.md):
 * the stored strokes and 10 Hz track of one effort, no raw file. Each returns
 * `{status: "ok", ...}` or `{status: "insufficient_data", reason}`.
 */
export interface AnalysisInput {
  effort: { dist: number; duration_ms: number };
  strokes: ProcessedStroke[];
  track: EffortTrack;
}

export type AnalysisResult<T> = ({ status: "ok" } & T) | { status: "insufficient_data"; reason: string };

export const SEGMENTS = { min: 2, max: 20, default: 4 } as const;

const insufficient = (reason: string) => ({ status: "insufficient_data" as const, reason });
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const sd = (values: number[]) => {
  const m = mean(values);
  return Math.sqrt(values.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, values.length - 1));
};
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const total = (track: EffortTrack) => track.distance[track.distance.length - 1];

function checkSegments(segments: number) {
  if (!Number.isInteger(segments) || segments < SEGMENTS.min || segments > SEGMENTS.max) throw new RangeError(`segments must be an integer from ${SEGMENTS.min} to ${SEGMENTS.max}`);
}

/** Time (s from the start) at which the track reaches a distance, linear between points. */
function timeAt(track: EffortTrack, distance: number): number {
  const d = track.distance;
  let lo = 0;
  let hi = d.length - 1;
  if (distance >= d[hi]) return track.t[hi];
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (d[mid] < distance) lo = mid;
    else hi = mid;
  }
  const span = d[hi] - d[lo];
  return track.t[lo] + (span > 0 ? ((distance - d[lo]) / span) * (track.t[hi] - track.t[lo]) : 0);
}

function distanceAt(track: EffortTrack, t: number): number {
  const k = Math.min(track.t.length - 1, Math.max(0, Math.round(t / track.step_s)));
  return track.distance[k];
}

export interface Segment {
  from_m: number;
  to_m: number;
  time_s: number;
  speed: number;
  rate: number | null;
  /** Segment speed against the effort's mean speed, %. */
  speed_vs_mean_pct: number;
}

/** Equal-distance segments: time, mean speed, mean rate of the strokes caught within. */
export function segmentsOf(input: AnalysisInput, count: number): Segment[] {
  const length = total(input.track);
  const meanSpeed = length / input.track.t[input.track.t.length - 1];
  return Array.from({ length: count }, (_, k) => {
    const from = (length * k) / count;
    const to = (length * (k + 1)) / count;
    const time = timeAt(input.track, to) - timeAt(input.track, from);
    const rates = input.strokes.filter((s) => s.distance >= from && (k === count - 1 ? s.distance <= to : s.distance < to)).map((s) => s.rate);
    const speed = (to - from) / time;
    return { from_m: round(from, 1), to_m: round(to, 1), time_s: round(time, 3), speed: round(speed, 3), rate: rates.length ? round(mean(rates), 1) : null, speed_vs_mean_pct: round(((speed - meanSpeed) / meanSpeed) * 100, 2) };
  });
}

/**
 * Pacing: the effort in `segments` equal distances. `second_half_change_pct`
 * compares the mean speed after the first segment (which holds the start)
 * over the second half of the distance with the first half; below −1 % is a
 * positive split (slower second half), above +1 % a negative split, else
 * even. `fade_pct`: the drop from the fastest segment to the last, %.
 */
export function pacing(input: AnalysisInput, options: { segments?: number } = {}) {
  const count = options.segments ?? SEGMENTS.default;
  checkSegments(count);
  if (total(input.track) < 50 || input.track.t.length < 4 * count) return insufficient("the effort is shorter than 50 m or too short for the segments");
  const segments = segmentsOf(input, count);
  const length = total(input.track);
  const startEnd = length / count;
  const half = startEnd + (length - startEnd) / 2;
  const firstHalf = (half - startEnd) / (timeAt(input.track, half) - timeAt(input.track, startEnd));
  const secondHalf = (length - half) / (timeAt(input.track, length) - timeAt(input.track, half));
  const change = ((secondHalf - firstHalf) / firstHalf) * 100;
  const fastest = Math.max(...segments.map((s) => s.speed));
  return {
    status: "ok" as const,
    segments,
    second_half_change_pct: round(change, 2),
    profile: change < -1 ? ("positive_split" as const) : change > 1 ? ("negative_split" as const) : ("even" as const),
    fade_pct: round(((fastest - segments[count - 1].speed) / fastest) * 100, 2),
  };
}

/**
 * Finish: the last of `segments` equal distances against the middle ones
 * (all but the first, which holds the start, and the last), speed and rate
 * changes in %, and the last five strokes' rate against the effort's mean.
 */
export function finish(input: AnalysisInput, options: { segments?: number } = {}) {
  const count = options.segments ?? SEGMENTS.default;
  checkSegments(count);
  if (count < 3) throw new RangeError("finish needs at least 3 segments: start, middle, finish");
  if (total(input.track) < 50 || input.strokes.length < 10) return insufficient("the effort is shorter than 50 m or has fewer than 10 strokes");
  const segments = segmentsOf(input, count);
  const middle = segments.slice(1, -1);
  const last = segments[count - 1];
  const middleSpeed = mean(middle.map((s) => s.speed));
  const middleRates = middle.flatMap((s) => (s.rate === null ? [] : [s.rate]));
  const middleRate = middleRates.length ? mean(middleRates) : null;
  const lastFive = mean(input.strokes.slice(-5).map((s) => s.rate));
  const effortRate = mean(input.strokes.map((s) => s.rate));
  return {
    status: "ok" as const,
    finish: last,
    speed_change_pct: round(((last.speed - middleSpeed) / middleSpeed) * 100, 2),
    rate_change_pct: middleRate !== null && last.rate !== null ? round(((last.rate - middleRate) / middleRate) * 100, 2) : null,
    last_five_rate_vs_mean_pct: round(((lastFive - effortRate) / effortRate) * 100, 2),
  };
}

/**
 * Start: from the first catch, the time to 25 m and 50 m, the distance at
 * 5 s and 10 s, the time to reach 90 % of the effort's top speed (95th
 * percentile of the track's smoothed speed), and the first five strokes'
 * rate against the effort's mean.
 */
export function start(input: AnalysisInput) {
  const { track } = input;
  const duration = track.t[track.t.length - 1];
  if (duration < 15 || total(track) < 60 || input.strokes.length < 10) return insufficient("the effort is shorter than 15 s or 60 m, or has fewer than 10 strokes");
  const top = [...track.speed].sort((a, b) => a - b)[Math.floor(0.95 * (track.speed.length - 1))];
  const reach = track.speed.findIndex((v) => v >= 0.9 * top);
  const firstFive = mean(input.strokes.slice(0, 5).map((s) => s.rate));
  const effortRate = mean(input.strokes.map((s) => s.rate));
  return {
    status: "ok" as const,
    time_to_25m_s: round(timeAt(track, 25), 3),
    time_to_50m_s: round(timeAt(track, 50), 3),
    distance_at_5s_m: round(distanceAt(track, 5), 2),
    distance_at_10s_m: round(distanceAt(track, 10), 2),
    top_speed: round(top, 3),
    time_to_90pct_top_speed_s: round(track.t[reach], 2),
    first_five_rate_vs_mean_pct: round(((firstFive - effortRate) / effortRate) * 100, 2),
  };
}

/**
 * Side balance (kayaks): per side, the stroke count, the mean drive peak
 * (`max_accel_x`), the mean stroke distance and the mean rate; each balance
 * is (left − right) / mean of both, % (positive: the left side is stronger
 * or longer).
 */
export function sideBalance(input: AnalysisInput) {
  const left = input.strokes.filter((s) => s.side === "left");
  const right = input.strokes.filter((s) => s.side === "right");
  if (left.length < 10 || right.length < 10) return insufficient("side balance needs a kayak session with at least 10 strokes on each side");
  const side = (strokes: ProcessedStroke[], member: "left_stroke_distance" | "right_stroke_distance") => ({
    strokes: strokes.length,
    drive_peak: round(mean(strokes.map((s) => s.max_accel_x)), 3),
    stroke_distance: round(mean(strokes.map((s) => s[member] ?? 0)), 3),
    rate: round(mean(strokes.map((s) => s.rate)), 1),
  });
  const l = side(left, "left_stroke_distance");
  const r = side(right, "right_stroke_distance");
  const balance = (a: number, b: number) => round(((a - b) / ((a + b) / 2)) * 100, 2);
  return { status: "ok" as const, left: l, right: r, drive_peak_balance_pct: balance(l.drive_peak, r.drive_peak), stroke_distance_balance_pct: balance(l.stroke_distance, r.stroke_distance) };
}

/**
 * Consistency: coefficient of variation (sd / mean, %) of the stroke rate,
 * the stroke distance and the drive peak, over the strokes after the start
 * phase (the first `segments`-th of the distance), overall and per segment
 * (segments of at least 3 strokes). Lower is steadier.
 */
export function consistency(input: AnalysisInput, options: { segments?: number } = {}) {
  const count = options.segments ?? SEGMENTS.default;
  checkSegments(count);
  const length = total(input.track);
  const settled = input.strokes.filter((s) => s.distance >= length / count);
  if (settled.length < 10) return insufficient("fewer than 10 strokes after the start phase");
  const distanceOf = (s: ProcessedStroke) => s.stroke_distance ?? s.left_stroke_distance ?? s.right_stroke_distance ?? 0;
  const cv = (values: number[]) => (values.length >= 3 ? round((sd(values) / mean(values)) * 100, 2) : null);
  const of = (strokes: ProcessedStroke[]) => ({ rate_cv_pct: cv(strokes.map((s) => s.rate)), stroke_distance_cv_pct: cv(strokes.map(distanceOf)), drive_peak_cv_pct: cv(strokes.map((s) => s.max_accel_x)) });
  return {
    status: "ok" as const,
    overall: of(settled),
    segments: Array.from({ length: count }, (_, k) => ({ from_m: round((length * k) / count, 1), to_m: round((length * (k + 1)) / count, 1), ...of(input.strokes.filter((s) => s.distance >= (length * k) / count && s.distance < (length * (k + 1)) / count)) })),
  };
}
