import { anomalies } from "./anomalies";
import { consistency } from "./consistency";
import { dataQuality } from "./data-quality";
import { finish } from "./finish";
import type { AnalysisInput } from "./input";
import { metricRelationships } from "./metric-relationships";
import { pacing } from "./pacing";
import { progression } from "./progression";
import type { AnalysisOptions, AnalysisOutcome } from "./segments";
import { sideBalance } from "./side-balance";
import { splitMotion } from "./split-motion";
import { start } from "./start";
import { strokePhases } from "./stroke-phases";

/**
 * The eleven session analyses (data-api.md "analysis", docs/analytics.md):
 * pure functions of the stored, processed effort.
 */
export const ANALYSES = {
  "data-quality": dataQuality,
  anomalies,
  "side-balance": sideBalance,
  "metric-relationships": metricRelationships,
  pacing,
  progression,
  "stroke-phases": strokePhases,
  consistency,
  start,
  finish,
  "split-motion": splitMotion,
} satisfies Record<string, (input: AnalysisInput, options: AnalysisOptions) => AnalysisOutcome<unknown>>;

export type AnalysisName = keyof typeof ANALYSES;
export const ANALYSIS_NAMES = Object.keys(ANALYSES) as [AnalysisName, ...AnalysisName[]];
export type AnalysisResultOf<N extends AnalysisName> = ReturnType<(typeof ANALYSES)[N]>;

export function runAnalysis(name: AnalysisName, input: AnalysisInput, options: AnalysisOptions): AnalysisOutcome<unknown> {
  return ANALYSES[name](input, options);
}

export { DEFAULT_OPTIONS, type AnalysisOptions, type AnalysisOutcome } from "./segments";
export { STROKE_METRIC_NAMES, STROKE_METRICS, type AnalysisInput, type StrokeMetric } from "./input";
