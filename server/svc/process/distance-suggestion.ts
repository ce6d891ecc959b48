import { decodeSvc } from "../container";
import type { DecodedSvc, Keyring, VesselType } from "../types";
import { detectEffortStart, sampleDistance } from "./effort";
import { movingAverage, percentile } from "./filters";
import { analyseRecording } from "./process";

/** The sprint distances an upload may suggest (the session upload takes 50–1000 m). */
export const STANDARD_DISTANCES_M = [200, 500, 1000] as const;

export interface DistanceSuggestion {
  /** The standard distance nearest what the crew covered, among those the recording holds after the start. */
  distanceM: number;
  /** Metres from the detected start to the detected stop. */
  coveredM: number;
  /** Seconds on the recording clock. */
  startS: number;
  stopS: number;
}

/**
 * A distance for the web upload to suggest (docs/web-app.md "Upload"):
 * the effort start as processing detects it, then the stop — the first
 * moment after the start where the smoothed speed stays below 70 % of the
 * effort's cruising speed for 3 s (the crew eases off after the line) — and
 * the standard distance nearest what was covered between them. A distance
 * longer than the recording holds after the start is never suggested: the
 * upload would refuse it. Throws InvalidSvcError or ProcessingError as
 * processing does.
 */
export function suggestEffortDistance(bytes: Uint8Array, vessel: VesselType, keyring: Keyring): DistanceSuggestion {
  return suggestFromDecoded(decodeSvc(bytes, keyring), vessel);
}

export function suggestFromDecoded(decoded: DecodedSvc, vessel: VesselType): DistanceSuggestion {
  const { hz, kin, detected, kayak } = analyseRecording(decoded, vessel);
  const startIndex = detectEffortStart(kin.speed, detected, hz, kayak, kin.speedSums);
  const smooth = movingAverage(kin.speed, hz + 1, kin.speedSums);
  const cruise = percentile(smooth, 95);
  const slow = 0.7 * cruise;
  const hold = 3 * hz;
  // Skip the acceleration of a standing start: look for the stop only once the boat has reached effort speed.
  let from = Math.ceil(startIndex);
  while (from < smooth.length && smooth[from] < slow) from++;
  let stopIndex = smooth.length - 1;
  let run = 0;
  for (let i = from; i < smooth.length; i++) {
    run = smooth[i] < slow ? run + 1 : 0;
    if (run >= hold) {
      stopIndex = i - hold + 1;
      break;
    }
  }
  const startDistance = sampleDistance(kin.distance, startIndex);
  const coveredM = sampleDistance(kin.distance, stopIndex) - startDistance;
  const availableM = kin.distance[kin.distance.length - 1] - startDistance;
  const possible = STANDARD_DISTANCES_M.filter((d) => d <= availableM);
  const candidates = possible.length ? possible : [STANDARD_DISTANCES_M[0]];
  const distanceM = candidates.reduce((best, d) => (Math.abs(d - coveredM) < Math.abs(best - coveredM) ? d : best));
  return {
    distanceM,
    coveredM: Math.round(coveredM),
    startS: Math.round((startIndex / hz) * 1000) / 1000,
    stopS: Math.round((stopIndex / hz) * 1000) / 1000,
  };
}
