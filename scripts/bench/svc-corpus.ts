import type { SimulateOptions } from "../../server/svc/simulator/simulate";
import type { VesselType } from "../../server/svc/types";

/** The boat classes and effort kinds the accuracy bench and the output hashes both cover, so they cover the same cells. */
export const CORPUS_VESSELS: VesselType[] = ["K1", "K2", "K4", "C1", "C2", "C4"];
export const CORPUS_EFFORTS: Pick<SimulateOptions, "distanceM" | "durationMs">[] = [
  { distanceM: 200 },
  { distanceM: 500 },
  { distanceM: 1000 },
  { durationMs: 60_000 },
  { durationMs: 120_000 },
];
