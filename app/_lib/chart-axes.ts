/**
 * Axes that fit the effort (docs/web-app.md "Charts"): the distance axis runs
 * from 0 to the effort's distance with a tick at every split end, so the last
 * label reads "1000 m" rather than the last stroke's "998 m"; a value axis
 * spans the data with a little room, on round steps, so a 4.4 m/s effort is
 * not drawn flat on 0–8 m/s.
 */
export interface Axis {
  domain: [number, number];
  ticks: number[];
}

/** Distance labels at most: every one is drawn (docs/web-app.md "Charts"), so they must fit a phone's chart. */
export const MAX_DISTANCE_TICKS = 5;

/**
 * 0 to `distanceM`, ticked at 0 and every split end (or at round steps when no splits are given). With more split
 * ends than labels fit, every second (third, …) split end is labelled; the dashed markers still show each one.
 */
export function distanceAxis(distanceM: number, splitEndsM: readonly number[] = []): Axis {
  const end = Math.max(1, Math.round(distanceM));
  const all = [...new Set(splitEndsM.map((d) => Math.round(d)).filter((d) => d > 0 && d < end))];
  const every = Math.ceil((all.length + 1) / (MAX_DISTANCE_TICKS - 1));
  const inside = all.filter((_, k) => (k + 1) % every === 0 && all.length + 1 - (k + 1) >= every);
  if (all.length) return { domain: [0, end], ticks: [0, ...inside, end] };
  const step = niceStep(end / 4);
  const ticks: number[] = [];
  for (let d = 0; d < end - step / 4; d += step) ticks.push(round(d));
  return { domain: [0, end], ticks: [...ticks, end] };
}

/**
 * The smallest round-step range holding every value, with at least 5 % of the spread as room at each end.
 * `trim` leaves out that share of the values at each end first (overlaid series, SERIES_TRIM): the
 * chart is fitted to the body of the data and the few values outside run off its edge, clipped.
 */
export function valueAxis(values: readonly (number | null | undefined)[], trim: { low?: number; high?: number } = {}): Axis | null {
  const present = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  if (!present.length) return null;
  let min: number;
  let max: number;
  if (trim.low || trim.high) {
    const sorted = [...present].sort((a, b) => a - b);
    min = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * (trim.low ?? 0)))];
    max = sorted[Math.max(0, Math.ceil(sorted.length * (1 - (trim.high ?? 0))) - 1)];
  } else {
    min = Math.min(...present);
    max = Math.max(...present);
  }
  const spread = max - min || Math.abs(max) * 0.1 || 1;
  min -= spread * 0.05;
  max += spread * 0.05;
  const step = niceStep((max - min) / 6);
  const low = Math.floor(min / step) * step;
  const high = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  for (let v = low; v <= high + step / 2; v += step) ticks.push(round(v));
  return { domain: [round(low), round(high)], ticks };
}

/**
 * An axis that holds zero and every value (bars grow from 0; fitness, fatigue and form share one zero line),
 * on about four round steps: weekly load 0–370 reads 0, 100, 200, 300, 400.
 */
export function zeroBasedAxis(values: readonly number[]): Axis {
  const present = values.filter((v) => Number.isFinite(v));
  const lo = Math.min(0, ...present);
  const hi = Math.max(lo + 1, 0, ...present);
  const step = niceStep((hi - lo) / 4);
  const low = Math.floor(lo / step + 1e-9) * step;
  const high = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let v = low; v <= high + step / 2; v += step) ticks.push(round(v));
  return { domain: [round(low), round(high)], ticks };
}

/**
 * Overlaid series (the session compare, the training's set compare): the lowest 5 % of the values
 * (a standing start's first strokes, a stop) and the highest 1 % (a GPS spike) do not set the axis,
 * so the efforts fill the chart instead of its top third.
 */
export const SERIES_TRIM = { low: 0.05, high: 0.01 } as const;

const DAY_MS = 86_400_000;

/** A time axis over days (ms since 1970): half a day of room each side, ticks every 1, 2, 7, 14 or 28 days (at most 6). */
export function dateAxis(times: readonly number[]): Axis {
  const present = times.filter((t) => Number.isFinite(t));
  if (!present.length) return { domain: [0, DAY_MS], ticks: [0, DAY_MS] };
  const min = Math.min(...present);
  const max = Math.max(...present);
  const spanDays = (max - min) / DAY_MS;
  const stepDays = [1, 2, 7, 14, 28, 56, 91, 182, 364].find((d) => spanDays / d <= 5) ?? Math.ceil(spanDays / 5);
  const ticks: number[] = [];
  for (let t = min; t <= max + 1; t += stepDays * DAY_MS) ticks.push(t);
  return { domain: [min - DAY_MS / 2, max + DAY_MS / 2], ticks };
}

/** Decimals that tell an axis' ticks apart: 0 for whole steps, 1 for tenths, else 2. */
export function tickDigits(axis: Axis): number {
  const step = axis.ticks.length > 1 ? axis.ticks[1] - axis.ticks[0] : 1;
  return step >= 1 - 1e-9 ? 0 : step >= 0.1 - 1e-9 && Math.abs(step * 10 - Math.round(step * 10)) < 1e-6 ? 1 : 2;
}

/** 1, 2, 2.5 or 5 times a power of ten, at least `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw - 1e-9) ?? 10) * power;
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;
