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

/** 0 to `distanceM`, ticked at 0 and every split end (or at round steps when no splits are given). */
export function distanceAxis(distanceM: number, splitEndsM: readonly number[] = []): Axis {
  const end = Math.max(1, Math.round(distanceM));
  const inside = splitEndsM.map((d) => Math.round(d)).filter((d) => d > 0 && d < end);
  if (inside.length) return { domain: [0, end], ticks: [...new Set([0, ...inside, end])] };
  const step = niceStep(end / 4);
  const ticks: number[] = [];
  for (let d = 0; d < end - step / 4; d += step) ticks.push(round(d));
  return { domain: [0, end], ticks: [...ticks, end] };
}

/** The smallest round-step range holding every value, with at least 5 % of the spread as room at each end. */
export function valueAxis(values: readonly (number | null | undefined)[]): Axis | null {
  const present = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  if (!present.length) return null;
  let min = Math.min(...present);
  let max = Math.max(...present);
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
