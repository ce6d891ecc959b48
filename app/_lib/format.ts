// One formatting function per unit, shared with the PDFs (docs/processing.md "Figures").
export {
  formatDuration,
  formatHeartRate,
  formatPace500,
  formatPaceAndSpeed,
  formatRate,
  formatSeconds,
  formatSpeed,
  formatStrokeDistance,
} from "@/server/results/figure-format";

/** A split's uncertainty beside its time (one formatter for pages and PDFs). */
export { formatUncertainty } from "@/server/svc/process/uncertainty";

/** Weekly volume's distance, one decimal of a kilometre on every page (2_140 m → "2.1 km"). */
export const formatVolumeKm = (m: number) => `${(m / 1000).toFixed(1)} km`;

/** Weekly volume's time in hours and minutes, not a race clock (5_400_000 ms → "1 h 30 min"). */
export function formatVolumeTime(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}
