import { z } from "zod";
import type { SessionComparison } from "./compare-sessions";
import { finalTimeUncertainty } from "../svc/process/uncertainty";
import { serializeSessionListItem, serializeSessionSummary, ZSessionListItem, ZSessionSummary } from "./sessions-wire";

/**
 * Allowlisted serializer of POST /sessions/compare: each session's list
 * metadata and summary (never heart rate: the compare carries nobody's health
 * data), series aligned on one distance grid, and splits with their deltas
 * against the first session. Bounded: at most 9 sessions × 1000 points.
 */
const nullableNumber = z.number().nullable();
export const ZComparedSplit = z.object({
  index: z.number().int().describe("1-based"),
  distance_m: z.number().describe("distance from the start at the split's end"),
  elapsed_s: z.number().describe("time from the effort start to the split's end"),
  split_s: z.number().describe("this split's own time"),
  speed_m_s: z.number(),
  rate_spm: nullableNumber,
  split_delta_s: z.number().describe("split_s minus the first session's; negative is faster"),
  elapsed_delta_s: z.number().describe("elapsed_s minus the first session's: the gap at this mark"),
  elapsed_uncertainty_s: nullableNumber.describe(
    "95 % uncertainty of elapsed_s, seconds (null for a session processed before it was estimated)",
  ),
  split_uncertainty_s: nullableNumber.describe("95 % uncertainty of split_s, seconds"),
  split_delta_within_noise: z
    .boolean()
    .nullable()
    .describe(
      "split_delta_s is smaller than the combined uncertainty √(a² + b²) of the two split times; null for the first session or without uncertainties",
    ),
  elapsed_delta_within_noise: z
    .boolean()
    .nullable()
    .describe("elapsed_delta_s is smaller than the combined uncertainty of the two elapsed times"),
});
export const ZSessionComparison = z.object({
  session_ids: z.array(z.number().int()).describe("in the order asked; deltas are against the first"),
  distance_m: z.number().describe("the common distance: the shortest session's; the grid and the splits cover 0 to this"),
  points: z.number().int(),
  distance_grid_m: z.array(z.number()).describe("the common grid, metres from the start, evenly spaced"),
  sessions: z.array(
    z.object({
      session: ZSessionListItem,
      summary: ZSessionSummary,
      series: z.object({
        time_s: z.array(z.number()).describe("seconds from the effort start at each grid distance"),
        speed_m_s: z.array(z.number()),
        rate_spm: z.array(nullableNumber).describe("rate of the stroke under way; null before the first catch"),
      }),
      splits: z.array(ZComparedSplit),
    }),
  ),
});

export function serializeComparison(comparison: SessionComparison): z.output<typeof ZSessionComparison> {
  return {
    session_ids: comparison.sessions.map((s) => s.row.id),
    distance_m: comparison.distanceM,
    points: comparison.gridM.length,
    distance_grid_m: [...comparison.gridM],
    sessions: comparison.sessions.map((s) => ({
      session: serializeSessionListItem(s.row),
      summary: serializeSessionSummary(s.row.id, s.analysis.summary, s.analysis.dataQuality, false, finalTimeUncertainty(s.analysis.track)),
      series: { time_s: [...s.timeS], speed_m_s: [...s.speedMS], rate_spm: [...s.rateSpm] },
      splits: s.splits.map((p) => ({
        index: p.index,
        distance_m: p.distanceM,
        elapsed_s: p.elapsedS,
        split_s: p.splitS,
        speed_m_s: p.speedMS,
        rate_spm: p.rateSpm,
        split_delta_s: p.splitDeltaS,
        elapsed_delta_s: p.elapsedDeltaS,
        elapsed_uncertainty_s: p.elapsedUncertaintyS,
        split_uncertainty_s: p.splitUncertaintyS,
        split_delta_within_noise: p.splitDeltaWithinNoise,
        elapsed_delta_within_noise: p.elapsedDeltaWithinNoise,
      })),
    })),
  };
}
