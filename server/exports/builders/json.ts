import { z } from "zod";
import { ZLactate } from "../../http/data-api/serializers/records-health";
import { ZCrewSeat, ZSeries, ZSessionDetail, ZSessionSummary, ZSplit, ZSplits, ZStroke } from "../../http/data-api/serializers/sessions";
import { ZSetSummary, ZTrainingSet } from "../../http/data-api/serializers/trainings";
import type { ExportModel } from "../export-source";

/**
 * The JSON export (docs/exports.md "JSON document"): a versioned document
 * built from the Data API's own schemas, so its fields, units and privacy
 * are those of the API. Its JSON Schema is generated from `ZExportDocument`
 * (docs/export-json.schema.json, served at /api/docs/export-json.schema.json).
 */
/** Where the schema is served, relative to the site origin. */
export const EXPORT_JSON_SCHEMA_ID = "/api/docs/export-json.schema.json";
export const EXPORT_JSON_VERSION = 1;

export const ZExportDocument = z
  .object({
    format: z.enum(["paddle-results.session-export", "paddle-results.training-export"]).describe("what this document is: a session's export or a training's"),
    version: z.literal(EXPORT_JSON_VERSION).describe("document version; a change that removes or renames a field raises it"),
    source: z.union([z.object({ kind: z.literal("session"), session_id: z.number().int() }), z.object({ kind: z.literal("training"), training_id: z.number().int() })]),
    privacy: z.object({
      mode: z.enum(["full", "privacy-safe"]).describe("privacy-safe: only the person's own seat carries an identity (docs/exports.md)"),
      heart_rate_included: z.boolean().describe("the heart rate is the chosen seat's own and the person may receive health data"),
      lactate_included: z.boolean().describe("the person's own lactate readings of this session are included"),
    }),
    athlete: ZCrewSeat.extend({
      athlete: z
        .object({ id: z.number().int(), name: z.string() })
        .nullable()
        .describe("the seat's athlete; null only in privacy-safe mode for a seat other than the person's own"),
    }).describe("the seat the export is about (ExportRequest athlete)"),
    session: ZSessionDetail,
    summary: ZSessionSummary,
    splits: ZSplits,
    strokes: z.array(ZStroke).describe("every stroke of the effort, in order"),
    series: ZSeries.describe("the bounded series: at most 1000 evenly spaced points"),
    lactate: z.array(ZLactate).nullable().describe("null unless lactate_included"),
    training: z
      .object({
        id: z.number().int(),
        title: z.string(),
        sets: z.array(z.object({ set: ZTrainingSet, summary: ZSetSummary, splits: z.array(ZSplit) })).describe("each work set: its place, its own summary and equal-distance splits"),
      })
      .optional()
      .describe("training exports only: `session`, `summary` and `strokes` then describe the whole training (first work start to last work end) and `splits` holds one lap per set, work and rest"),
  })
  .strict()
  .describe("Paddle Results session export, version 1");
export type ExportDocument = z.output<typeof ZExportDocument>;

export function exportDocument(model: ExportModel): ExportDocument {
  return {
    format: model.source.kind === "training" ? "paddle-results.training-export" : "paddle-results.session-export",
    version: EXPORT_JSON_VERSION,
    source: model.source.kind === "training" ? { kind: "training", training_id: model.source.trainingId } : { kind: "session", session_id: model.source.sessionId },
    privacy: { mode: model.mode, heart_rate_included: model.heartRateIncluded, lactate_included: model.lactate !== null },
    athlete: model.athlete,
    session: model.session,
    summary: model.summary,
    splits: model.splits,
    strokes: model.strokes,
    series: model.series,
    lactate: model.lactate,
    ...(model.training ? { training: model.training } : {}),
  };
}

export function buildJsonExport(model: ExportModel): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(exportDocument(model), null, 1)}\n`);
}

/** The published JSON Schema (draft 2020-12) of the document. */
export function exportJsonSchema(): Record<string, unknown> {
  return { $id: EXPORT_JSON_SCHEMA_ID, ...z.toJSONSchema(ZExportDocument, { target: "draft-2020-12", io: "output" }) };
}
