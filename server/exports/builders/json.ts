import { z } from "zod";
import { ZLactate } from "../../records/records-health-wire";
import { ZCrewSeat, ZSeries, ZSessionDetail, ZSessionSummary, ZSplits, ZStroke } from "../../sessions/sessions-wire";
import { ZSetSplits, ZTrainingSummary, ZTrainingTimeline } from "../../trainings/trainings-wire";
import { ZExportTraining, type ExportModel } from "../export-model";

export { ZExportTraining, ZExportTrainingSet } from "../export-model";

/**
 * The JSON export (docs/exports.md "JSON document"): a versioned document
 * built from the Data API's own schemas, so its fields, units and privacy
 * are those of the API. Its JSON Schema is generated from `ZExportDocument`
 * (docs/export-json.schema.json, served at /api/docs/export-json.schema.json).
 *
 * Version 2 (issue 23 §4) is one document with two kinds: a session's, and a
 * training's in a training's own terms — no session-shaped placeholders, no
 * id that is not the training's or its sets'.
 */
/** Where the schema is served, relative to the site origin. */
export const EXPORT_JSON_SCHEMA_ID = "/api/docs/export-json.schema.json";
export const EXPORT_JSON_VERSION = 2;

const ZVersion = z
  .literal(EXPORT_JSON_VERSION)
  .describe('document version; a change that removes or renames a field raises it (docs/exports.md "Versions")');
const ZPrivacy = z.object({
  mode: z.enum(["full", "privacy-safe"]).describe("privacy-safe: only the person's own seat carries an identity (docs/exports.md)"),
  heart_rate_included: z.boolean().describe("the heart rate is the chosen seat's own and the person may receive health data"),
  lactate_included: z.boolean().describe("the person's own lactate readings of this session or training are included"),
});
const ZChosenSeat = ZCrewSeat.describe(
  "the seat the export is about (ExportRequest athlete), as the crew list shows it; `athlete` is null when there is no identity to give: a privacy-safe seat that is not the person's own, or a person's own training recorded without an athlete record (`is_subject` true)",
);

export const ZSessionExportDocument = z
  .object({
    format: z.literal("paddle-results.session-export"),
    version: ZVersion,
    kind: z.literal("session").describe("what is exported: one session"),
    source: z.object({ kind: z.literal("session"), session_id: z.number().int() }),
    privacy: ZPrivacy,
    athlete: ZChosenSeat,
    session: ZSessionDetail,
    summary: ZSessionSummary,
    splits: ZSplits,
    strokes: z.array(ZStroke).describe("every stroke of the effort, in order"),
    series: ZSeries.describe("the bounded series: at most 1000 evenly spaced points"),
    lactate: z.array(ZLactate).nullable().describe("null unless lactate_included"),
  })
  .strict()
  .describe("a session's export");

export const ZTrainingExportDocument = z
  .object({
    format: z.literal("paddle-results.training-export"),
    version: ZVersion,
    kind: z.literal("training").describe("what is exported: one training (a practice of work sets and rests), never dressed as a session"),
    source: z.object({ kind: z.literal("training"), training_id: z.number().int() }),
    privacy: ZPrivacy,
    athlete: ZChosenSeat,
    training: ZExportTraining,
    summary: ZTrainingSummary.describe("`total`: first work start to last work end, rests included; `sets`: each work set's own figures"),
    timeline: ZTrainingTimeline,
    set_splits: z.array(ZSetSplits).describe("each work set's equal-distance splits (ExportRequest splits), in order"),
    strokes: z
      .array(ZStroke.extend({ set_id: z.number().int().describe("the work set the stroke belongs to") }))
      .describe("every work set's strokes on the training's clock and distance (from the first work set's start), in order"),
    series: z
      .object({ training_id: z.number().int(), ...ZSeries.omit({ session_id: true }).shape })
      .describe("the whole training's bounded series, from the first work set's start: at most 1000 evenly spaced points"),
    lactate: z.array(ZLactate).nullable().describe("null unless lactate_included"),
  })
  .strict()
  .describe("a training's export");

export const ZExportDocument = z
  .discriminatedUnion("kind", [ZSessionExportDocument, ZTrainingExportDocument])
  .describe(`Paddle Results export, version ${EXPORT_JSON_VERSION}: a session's or a training's (member \`kind\`)`);
export type ExportDocument = z.output<typeof ZExportDocument>;
export type SessionExportDocument = z.output<typeof ZSessionExportDocument>;
export type TrainingExportDocument = z.output<typeof ZTrainingExportDocument>;

export function exportDocument(model: ExportModel): ExportDocument {
  const common = {
    version: EXPORT_JSON_VERSION,
    privacy: { mode: model.mode, heart_rate_included: model.heartRateIncluded, lactate_included: model.lactate !== null },
    athlete: model.athlete,
  } as const;
  if (model.source.kind === "session" && "session" in model) {
    const id = model.source.sessionId;
    return {
      format: "paddle-results.session-export",
      ...common,
      kind: "session",
      source: { kind: "session", session_id: id },
      session: model.session,
      summary: { session_id: id, ...model.summary },
      // A session's laps are its equal-distance splits: none names a set.
      splits: { session_id: id, count: model.splits.length, splits: model.splits },
      strokes: model.strokes,
      series: { session_id: id, ...model.series },
      lactate: model.lactate,
    };
  }
  if (!("training" in model)) throw new Error("an export model without its source's members");
  const id = model.training.detail.id;
  return {
    format: "paddle-results.training-export",
    ...common,
    kind: "training",
    source: { kind: "training", training_id: id },
    training: model.training.detail,
    summary: model.training.summary,
    timeline: model.training.timeline,
    set_splits: model.training.setSplits,
    strokes: model.strokes.map((stroke) => ({ ...stroke, set_id: stroke.set_id! })),
    series: { training_id: id, ...model.series },
    lactate: model.lactate,
  };
}

export function buildJsonExport(model: ExportModel): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(exportDocument(model), null, 1)}\n`);
}

/** The published JSON Schema (draft 2020-12) of the document. */
export function exportJsonSchema(): Record<string, unknown> {
  return { $id: EXPORT_JSON_SCHEMA_ID, ...z.toJSONSchema(ZExportDocument, { target: "draft-2020-12", io: "output" }) };
}
