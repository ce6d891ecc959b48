import { renderToBuffer } from "@react-pdf/renderer";
import { createElement } from "react";
import { ResultReport, type ReportData } from "../../reports/result-report";
import { averageSpeedMS } from "../../results/figures";
import type { ExportModel } from "../export-model";
import { EXPORT_TEXT, seatName } from "./export-text";
import type { BuildExtras, ExportLang } from "./export-text";

/**
 * The compact PDF: the results API's report (server/reports) drawn from the
 * projected model, with the same public link as GET /results/{id}/pdf (a QR
 * code and its address). The link is the session's one public link, reused
 * until revoked, so the same request still gives the same bytes.
 */
export async function buildPdfExport(model: ExportModel, lang: ExportLang, extras: BuildExtras = {}): Promise<Uint8Array> {
  return new Uint8Array(
    await renderToBuffer(createElement(ResultReport, { data: reportData(model, lang, extras) }) as Parameters<typeof renderToBuffer>[0]),
  );
}

export function reportData(model: ExportModel, lang: ExportLang, extras: BuildExtras = {}): ReportData {
  const f = model.facts;
  return {
    lang,
    title: EXPORT_TEXT[lang].reportTitle[f.kind],
    date: f.date,
    timeOfDay: f.timeOfDay,
    trackName: f.track ?? "—",
    vesselType: f.boatClass,
    crew: f.crew.map((seat) => ({ name: seatName(seat, lang), external: false })),
    distanceM: f.distanceM,
    durationMs: f.durationMs,
    splits: model.splits.map((split) => ({
      distanceM: split.distance_m,
      elapsedS: split.elapsed_s,
      splitS: split.split_s,
      speedMS: split.speed_m_s,
      rateSpm: split.rate_spm,
      elapsedUncertaintyS: split.elapsed_uncertainty_s,
      splitUncertaintyS: split.split_uncertainty_s,
    })),
    strokes: model.strokes.map((stroke) => ({ distanceM: stroke.distance_m ?? 0, speedMS: stroke.speed_m_s, rateSpm: stroke.rate_spm })),
    summary: {
      strokeCount: model.summary.stroke_count,
      avgRateSpm: model.summary.avg_rate_spm,
      avgSpeedMS: averageSpeedMS(model.summary.distance_m, model.summary.duration_ms),
      maxSpeedMS: model.summary.max_speed_m_s,
      avgStrokeDistanceM: model.summary.avg_stroke_distance_m,
    },
    createdAt: new Date(model.startUnixMs),
    link: extras.link,
  };
}
