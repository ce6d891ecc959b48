/** 95_430 ms → "1:35.43". */
export function formatDuration(ms: number): string {
  const totalCentis = Math.round(ms / 10);
  const minutes = Math.floor(totalCentis / 6000);
  const seconds = (totalCentis % 6000) / 100;
  return `${minutes}:${seconds.toFixed(2).padStart(5, "0")}`;
}

/** A split's uncertainty beside its time (one formatter for pages and PDFs). */
export { formatUncertainty } from "@/server/svc/process/uncertainty";

/** Pace per 500 m, the unit paddlers read: 4.5 m/s → "1:51.1". Null or non-positive speed → "—". */
export function formatPace500(speedMS: number | null | undefined): string {
  if (!speedMS || speedMS <= 0 || !Number.isFinite(speedMS)) return "—";
  const tenths = Math.round((500 / speedMS) * 10);
  const minutes = Math.floor(tenths / 600);
  const seconds = (tenths % 600) / 10;
  return `${minutes}:${seconds.toFixed(1).padStart(4, "0")}`;
}

/** "1:51.1 /500 m (4.50 m/s)": pace first, speed beside it, never speed alone. */
export function formatPaceAndSpeed(speedMS: number | null | undefined): string {
  if (!speedMS || speedMS <= 0) return "—";
  return `${formatPace500(speedMS)} /500 m (${speedMS.toFixed(2)} m/s)`;
}
