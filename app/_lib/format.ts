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
