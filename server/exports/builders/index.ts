import type { Db } from "../../db/client";
import { AppError } from "../../errors";
import { loadExportModel, type ExportModel, type ExportSource, type ExportViewer } from "../export-source";

/**
 * The export builders (docs/exports.md "Builders"): one loader projects the
 * source once, one module per format lays it out. The web app's download and
 * the Data API's export job both call `buildExport`, so the same request
 * gives the same bytes.
 */
export const EXPORT_FORMATS = ["json", "pdf", "pdf-full", "xlsx", "fit", "tcx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export type ExportLang = "en" | "es";
export type { ExportSource, ExportViewer } from "../export-source";

export interface ExportOptions {
  format: ExportFormat;
  /** Seat 1–4 whose identity and heart rate go in (ExportRequest `athlete`, default 1). */
  athlete: 1 | 2 | 3 | 4;
  /** Equal-distance splits, 1–20 (default 4). */
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

/** One format: lays out an already projected model; never reads the database. */
export type FormatBuilder = (model: ExportModel, lang: ExportLang) => Promise<Uint8Array> | Uint8Array;

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
  if (!Number.isInteger(options.splits) || options.splits < 1 || options.splits > 20)
    throw new AppError("invalid", "splits: must be an integer from 1 to 20");
  if (options.lang !== "en" && options.lang !== "es") throw new AppError("invalid", "lang: must be en or es");
  const model = await loadExportModel(db, source, viewer, {
    athlete: options.athlete,
    splits: options.splits,
    mode: options.mode,
    healthAllowed: options.healthAllowed,
  });
  const bytes = await (await format.load())(model, options.lang);
  const langPart = options.format === "pdf" || options.format === "pdf-full" ? `-${options.lang}` : "";
  return {
    bytes,
    contentType: format.contentType,
    filename: `${model.facts.kind}-${model.facts.id}-${model.facts.date}-seat${options.athlete}${langPart}${format.suffix}`,
  };
}
