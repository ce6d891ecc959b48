/**
 * One formatting function per unit (docs/processing.md "Figures"): every
 * surface that writes a figure as text — web pages, PDFs, the course and
 * chart sentences — goes through these, so the same value reads the same
 * everywhere. Each rounds once, from the unrounded value it is given.
 */

const finitePositive = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v) && v > 0;

/** Elapsed time, m:ss.cc: 95_430 ms → "1:35.43" (rounded to the hundredth first, so 59.996 s is "1:00.00", never "0:60.00"). */
export function formatDuration(ms: number): string {
  const totalCentis = Math.round(ms / 10);
  const minutes = Math.floor(totalCentis / 6000);
  const seconds = (totalCentis % 6000) / 100;
  return `${minutes}:${seconds.toFixed(2).padStart(5, "0")}`;
}

/** The same clock from seconds (splits carry seconds). */
export const formatSeconds = (seconds: number): string => formatDuration(seconds * 1000);

/** Pace per 500 m, m:ss.t, the unit paddlers read: 4.5 m/s → "1:51.1". Null or non-positive speed → "—". */
export function formatPace500(speedMS: number | null | undefined): string {
  if (!finitePositive(speedMS)) return "—";
  const tenths = Math.round((500 / speedMS) * 10);
  const minutes = Math.floor(tenths / 600);
  const seconds = (tenths % 600) / 10;
  return `${minutes}:${seconds.toFixed(1).padStart(4, "0")}`;
}

/** Speed, m/s to the hundredth: "4.50". */
export const formatSpeed = (speedMS: number | null | undefined): string =>
  typeof speedMS === "number" && Number.isFinite(speedMS) ? speedMS.toFixed(2) : "—";

/** "1:51.1 /500 m (4.50 m/s)": pace first, speed beside it, never speed alone. */
export function formatPaceAndSpeed(speedMS: number | null | undefined): string {
  if (!finitePositive(speedMS)) return "—";
  return `${formatPace500(speedMS)} /500 m (${formatSpeed(speedMS)} m/s)`;
}

/** Stroke rate, spm to the tenth: "118.4". */
export const formatRate = (spm: number | null | undefined): string =>
  typeof spm === "number" && Number.isFinite(spm) ? spm.toFixed(1) : "—";

/** Distance per stroke, metres to the hundredth: "2.31". */
export const formatStrokeDistance = (m: number | null | undefined): string =>
  typeof m === "number" && Number.isFinite(m) ? m.toFixed(2) : "—";

/** Heart rate, whole beats per minute. */
export const formatHeartRate = (bpm: number | null | undefined): string =>
  typeof bpm === "number" && Number.isFinite(bpm) ? String(Math.round(bpm)) : "—";
