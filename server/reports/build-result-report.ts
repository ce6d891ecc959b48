import { renderToBuffer } from "@react-pdf/renderer";
import { createElement } from "react";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { getStoredAnalysis, splitsOf } from "../results/result-analysis";
import { getResultDetail } from "../results/result-detail";
import { sessionFigures } from "../results/figures";
import { sessionReportLink } from "./report-link";
import { ResultReport, type ReportData } from "./result-report";
import type { ReportLang } from "./report-text";

/**
 * The compact PDF of one result the user can access, with a QR code to a
 * the session's public link, reused until revoked (docs/results-api.md "GET /results/{id}/pdf").
 * Throws not_found for inaccessible results and unprocessable when the
 * result has no processed data to report.
 */
export async function buildResultReport(
  db: Db,
  options: { userId: number; resultId: number; lang: ReportLang; splits: number; appUrl: string },
): Promise<{ pdf: Buffer; filename: string }> {
  const detail = await getResultDetail(db, options.userId, options.resultId);
  const analysis = await getStoredAnalysis(db, options.resultId);
  if (!analysis || detail.strokes.length === 0) throw new AppError("unprocessable", "This session has no processed stroke data to report");
  const link = await sessionReportLink(db, options.userId, options.resultId, options.appUrl);
  const s = detail.summary;
  const figures = sessionFigures(analysis.summary);
  const data: ReportData = {
    lang: options.lang,
    date: s.date,
    timeOfDay: s.timeOfDay,
    trackName: s.trackName,
    vesselType: s.vesselType,
    crew: detail.crew.map((c) => ({
      name: `${(c.athleteId !== null ? c.athleteName : c.externalName) ?? ""} ${(c.athleteId !== null ? c.athleteSurname : c.externalSurname) ?? ""}`.trim(),
      external: c.athleteId === null,
    })),
    distanceM: s.distanceM,
    durationMs: s.durationMs,
    splits: splitsOf(analysis, detail, options.splits).map((split) => ({
      distanceM: split.distance_m,
      elapsedS: split.time_s,
      splitS: split.split_time_s,
      speedMS: split.speed,
      rateSpm: split.rate,
      elapsedUncertaintyS: split.time_uncertainty_s,
      splitUncertaintyS: split.split_uncertainty_s,
    })),
    strokes: detail.strokes.map((stroke) => ({
      distanceM: stroke.distanceM ?? 0,
      speedMS: stroke.filteredSpeedMS,
      rateSpm: stroke.rateSpm,
    })),
    summary: {
      strokeCount: analysis.summary.stroke_count,
      avgRateSpm: analysis.summary.avg_rate,
      avgSpeedMS: figures.avgSpeedMS,
      maxSpeedMS: analysis.summary.max_speed,
      avgStrokeDistanceM: analysis.summary.avg_stroke_distance,
    },
    link,
  };
  try {
    const pdf = await renderToBuffer(createElement(ResultReport, { data }) as Parameters<typeof renderToBuffer>[0]);
    return { pdf, filename: `session-${options.resultId}-${s.date}.pdf` };
  } catch (error) {
    console.error("PDF rendering failed", error);
    throw new AppError("unprocessable", "The report could not be generated from this session's data");
  }
}
