import { z } from "zod";
import type { LactateEntry, WeightEntry } from "../health/shareable-health";
import type { RecordEntry } from "./performance-records";

/**
 * Allowlisted serializers of performance records and health data. Health
 * items carry their provenance, which is only ever manual or device: the
 * queries never read external-provider rows (server/health/shareable-health.ts).
 */
export const ZRecordEntry = z.object({
  session_id: z.number().int().describe("the session that set the record"),
  boat_class: z.object({ id: z.number().int(), type: z.string().describe("K1 … C4"), crew_size: z.number().int() }),
  distance_m: z.number().int().describe("metres covered by the effort"),
  duration_ms: z.number().int(),
  date: z.string().describe("local date of the session, YYYY-MM-DD"),
  start_at: z.string().describe("instant of the effort start, ISO 8601 UTC"),
  current: z.boolean().describe("true for the standing record of its boat class and distance"),
});

export function serializeRecordEntry(entry: RecordEntry): z.output<typeof ZRecordEntry> {
  return {
    session_id: entry.resultId,
    boat_class: { id: entry.vesselId, type: entry.vesselType, crew_size: entry.crewSize },
    distance_m: entry.distanceM,
    duration_ms: entry.durationMs,
    date: entry.date,
    start_at: entry.startAt.toISOString(),
    current: entry.current,
  };
}

const ZProvenance = z.enum(["manual", "device"]).describe("manual: entered by the person; device: measured by the service's own unit");

export const ZWeight = z.object({
  id: z.number().int(),
  measured_on: z.string().describe("YYYY-MM-DD"),
  weight_kg: z.number(),
  provenance: ZProvenance,
});

export const serializeWeight = (entry: WeightEntry): z.output<typeof ZWeight> => ({
  id: entry.id,
  measured_on: entry.measuredOn,
  weight_kg: entry.weightKg,
  provenance: entry.provenance,
});

export const ZLactate = z.object({
  id: z.number().int(),
  session_id: z.number().int().nullable(),
  training_id: z.number().int().nullable(),
  measured_at: z.string().describe("ISO 8601 UTC"),
  lactate_mmol_l: z.number(),
  note: z.string().describe("when in the session, e.g. after 3 min"),
  provenance: ZProvenance,
});

export const serializeLactate = (entry: LactateEntry): z.output<typeof ZLactate> => ({
  id: entry.id,
  session_id: entry.resultId,
  training_id: entry.trainingId,
  measured_at: entry.measuredAt.toISOString(),
  lactate_mmol_l: entry.lactateMmolL,
  note: entry.note,
  provenance: entry.provenance,
});
