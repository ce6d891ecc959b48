import type { Db } from "../../db/client";
import { getEnv } from "../../config/env";
import { AppError } from "../../errors";
import { sessionReportLink } from "../../reports/report-link";
import type { BuildExtras, ExportLang } from "./export-text";
import { loadExportModel, type ExportModel, type ExportSource, type ExportViewer } from "../export-source";
import { isSplitCount, SPLIT_COUNT_RULE } from "../../svc/process/track";

/**
 * The export builders (docs/exports.md "Builders"): one loader projects the
 * source once, one module per format lays it out. The web app's download and
 * the Data API's export job both call `buildExport`, so the same request
 * gives the same bytes.
 */
export const EXPORT_FORMATS = ["json", "pdf", "pdf-full", "xlsx", "fit", "tcx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type { ExportLang } from "./export-text";
export type { ExportSource, ExportViewer } from "../export-source";

export interface ExportOptions {
  format: ExportFormat;
  /** Seat 1–4 whose identity and heart rate go in (ExportRequest `athlete`, default 1). */
  athlete: 1 | 2 | 3 | 4;
  /** Equal-distance splits (SPLIT_COUNT). */
  splits: number;
  lang: ExportLang;
  /** "privacy-safe" on the partner surface (forced there whatever is passed). */
  mode: "full" | "privacy-safe";
  /** The person may receive their own health data (web app: true; Data API: the token holds health:read). */
  healthAllowed: boolean;
}

export interface ExportFile {
  bytes: Uint8Array;
  contentType: string;
  filename: string;
}

/** What a format may print beyond the model, read before it is called: the compact PDF's public link. */

/** One format: lays out an already projected model; never reads the database. */
export type FormatBuilder = (model: ExportModel, lang: ExportLang, extras: BuildExtras) => Promise<Uint8Array> | Uint8Array;

/**
 * Each format's module is loaded on first use: a process that builds PDFs
 * never loads exceljs or the FIT SDK (tens of MB each), which keeps the
 * 60-minute full PDF's process under its memory budget (docs/benchmarks.md).
 */
const FORMATS: Record<ExportFormat, { load: () => Promise<FormatBuilder>; contentType: string; suffix: string }> = {
  json: { load: () => import("./json").then((m) => m.buildJsonExport), contentType: "application/json", suffix: ".json" },
  pdf: { load: () => import("./pdf").then((m) => m.buildPdfExport), contentType: "application/pdf", suffix: ".pdf" },
  "pdf-full": { load: () => import("./pdf-full").then((m) => m.buildFullPdfExport), contentType: "application/pdf", suffix: "-full.pdf" },
  xlsx: {
    load: () => import("./xlsx").then((m) => m.buildXlsxExport),
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    suffix: ".xlsx",
  },
  fit: { load: () => import("./fit").then((m) => m.buildFitExport), contentType: "application/vnd.ant.fit", suffix: ".fit" },
  tcx: { load: () => import("./tcx").then((m) => m.buildTcxExport), contentType: "application/vnd.garmin.tcx+xml", suffix: ".tcx" },
};

/**
 * Builds one export file. Throws AppError `not_found` for a source outside
 * the viewer's boundary or a seat they may not see, `conflict` for a session
 * without processed data, `invalid` for options out of range.
 */
export async function buildExport(db: Db, source: ExportSource, viewer: ExportViewer, options: ExportOptions): Promise<ExportFile> {
  const format = FORMATS[options.format];
  if (!format) throw new AppError("invalid", `format: must be one of ${EXPORT_FORMATS.join(", ")}`);
  if (!Number.isInteger(options.athlete) || options.athlete < 1 || options.athlete > 4)
    throw new AppError("invalid", "athlete: must be an integer from 1 to 4");
  if (!isSplitCount(options.splits)) throw new AppError("invalid", `splits: ${SPLIT_COUNT_RULE}`);
  if (options.lang !== "en" && options.lang !== "es") throw new AppError("invalid", "lang: must be en or es");
  const model = await loadExportModel(db, source, viewer, {
    athlete: options.athlete,
    splits: options.splits,
    mode: options.mode,
    healthAllowed: options.healthAllowed,
  });
  // The compact report is one report: its export carries the session's public link as the direct
  // report does (server/reports/report-link.ts), except privacy-safe, whose file names only the person.
  const extras: BuildExtras =
    options.format === "pdf" && source.kind === "session" && model.mode !== "privacy-safe"
      ? { link: await sessionReportLink(db, viewer.userId, source.sessionId, getEnv().appUrl) }
      : {};
  const bytes = await (await format.load())(model, options.lang, extras);
  const langPart = options.format === "pdf" || options.format === "pdf-full" ? `-${options.lang}` : "";
  return {
    bytes,
    contentType: format.contentType,
    filename: `${model.facts.kind}-${model.facts.id}-${model.facts.date}-seat${options.athlete}${langPart}${format.suffix}`,
  };
}
