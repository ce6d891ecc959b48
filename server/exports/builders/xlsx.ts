import ExcelJS from "exceljs";
import JSZip from "jszip";
import type { ExportModel } from "../export-source";
import { crewNames, EXPORT_TEXT } from "./export-text";
import type { ExportLang } from "./index";

/**
 * The workbook (docs/exports.md "XLSX"): sheets Summary, Splits, Strokes,
 * Series; units in the header row, numbers stored as numbers, the header row
 * frozen. Written with exceljs, then re-zipped with the entries dated at the
 * session start so the same request gives the same bytes.
 */
type Cell = string | number | null;
type Column = { header: string; width: number; format?: string };

const HEADERS = {
  en: {
    summary: ["Quantity", "Value", "Unit"],
    splits: ["Split", "Distance (m)", "Elapsed (s)", "Split time (s)", "Speed (m/s)", "Rate (spm)"],
    strokes: ["Stroke", "Time (s)", "Side", "Distance (m)", "Speed (m/s)", "Rate (spm)", "Distance per stroke (m)", "Peak surge accel. (m/s²)", "Lowest surge accel. (m/s²)", "Max pitch (°)", "Max roll (°)"],
    series: ["Time (s)", "Distance (m)", "Speed (m/s)", "Rate (spm)", "Distance per stroke (m)", "Heart rate (bpm)", "Latitude (°)", "Longitude (°)"],
  },
  es: {
    summary: ["Magnitud", "Valor", "Unidad"],
    splits: ["Parcial", "Distancia (m)", "Acumulado (s)", "Tiempo parcial (s)", "Velocidad (m/s)", "Ritmo (pal/min)"],
    strokes: ["Palada", "Tiempo (s)", "Lado", "Distancia (m)", "Velocidad (m/s)", "Ritmo (pal/min)", "Avance por palada (m)", "Acel. máx. de avance (m/s²)", "Acel. mín. de avance (m/s²)", "Cabeceo máx. (°)", "Balanceo máx. (°)"],
    series: ["Tiempo (s)", "Distancia (m)", "Velocidad (m/s)", "Ritmo (pal/min)", "Avance por palada (m)", "Frecuencia cardiaca (lpm)", "Latitud (°)", "Longitud (°)"],
  },
} as const;

const SUMMARY_ROWS = {
  en: { session: "Session", date: "Date", time: "Start time", track: "Track", boat: "Boat class", athlete: "Athlete", seat: "Seat", crew: "Crew", distance: "Distance", duration: "Duration", strokes: "Strokes", avgSpeed: "Average speed", maxSpeed: "Top speed", avgRate: "Average rate", maxRate: "Top rate", dps: "Average distance per stroke", avgHr: "Average heart rate", maxHr: "Maximum heart rate", mode: "Privacy mode" },
  es: { session: "Sesión", date: "Fecha", time: "Hora de inicio", track: "Pista", boat: "Embarcación", athlete: "Deportista", seat: "Asiento", crew: "Tripulación", distance: "Distancia", duration: "Duración", strokes: "Paladas", avgSpeed: "Velocidad media", maxSpeed: "Velocidad máxima", avgRate: "Ritmo medio", maxRate: "Ritmo máximo", dps: "Avance medio por palada", avgHr: "Frecuencia cardiaca media", maxHr: "Frecuencia cardiaca máxima", mode: "Modo de privacidad" },
} as const;

export async function buildXlsxExport(model: ExportModel, lang: ExportLang): Promise<Uint8Array> {
  const created = new Date(model.startUnixMs);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Paddle Results";
  workbook.created = created;
  workbook.modified = created;
  const h = HEADERS[lang];

  const r = SUMMARY_ROWS[lang];
  const s = model.session;
  const sum = model.summary;
  const summaryRows: Cell[][] = [
    [r.session, s.id, null],
    [r.date, s.date, null],
    [r.time, s.time_of_day, null],
    [r.track, s.track.name, null],
    [r.boat, s.boat_class.type, null],
    [r.athlete, model.athlete.athlete?.name ?? EXPORT_TEXT[lang].seat(model.athlete.seat), null],
    [r.seat, model.athlete.seat, null],
    [r.crew, crewNames(s.crew, lang).join(", "), null],
    [r.distance, sum.distance_m, "m"],
    [r.duration, sum.duration_ms / 1000, "s"],
    [r.strokes, sum.stroke_count, null],
    [r.avgSpeed, sum.avg_speed_m_s, "m/s"],
    [r.maxSpeed, sum.max_speed_m_s, "m/s"],
    [r.avgRate, sum.avg_rate_spm, "spm"],
    [r.maxRate, sum.max_rate_spm, "spm"],
    [r.dps, sum.avg_stroke_distance_m, "m"],
    ...(sum.heart_rate ? ([[r.avgHr, sum.heart_rate.avg_bpm, "bpm"], [r.maxHr, sum.heart_rate.max_bpm, "bpm"]] as Cell[][]) : []),
    [r.mode, model.mode, null],
  ];
  addSheet(workbook, "Summary", [
    { header: h.summary[0], width: 30 },
    { header: h.summary[1], width: 28 },
    { header: h.summary[2], width: 8 },
  ], summaryRows);

  addSheet(
    workbook,
    "Splits",
    h.splits.map((header, i) => ({ header, width: i === 0 ? 8 : 16, format: i === 0 ? "0" : "0.00" })),
    model.splits.splits.map((split) => [split.index, split.distance_m, split.elapsed_s, split.split_s, split.speed_m_s, split.rate_spm]),
  );

  addSheet(
    workbook,
    "Strokes",
    h.strokes.map((header, i) => ({ header, width: i === 0 || i === 2 ? 8 : 14, format: i === 0 ? "0" : i === 2 ? undefined : "0.000" })),
    model.strokes.map((k) => [k.index, k.time_s, k.side, k.distance_m, k.speed_m_s, k.rate_spm, k.stroke_distance_m, k.max_accel_x_m_s2, k.min_accel_x_m_s2, k.max_pitch_deg, k.max_roll_deg]),
  );

  const series = model.series;
  const heartRate = series.heart_rate_bpm;
  const seriesColumns = h.series.filter((_, i) => i !== 5 || heartRate);
  addSheet(
    workbook,
    "Series",
    seriesColumns.map((header) => ({ header, width: 14, format: header.includes("°") ? "0.00000" : "0.00" })),
    series.t_s.map((t, p) => {
      const position = model.positions[p];
      const row: Cell[] = [t, series.distance_m?.[p] ?? null, series.speed_m_s?.[p] ?? null, series.rate_spm?.[p] ?? null, series.stroke_distance_m?.[p] ?? null];
      if (heartRate) row.push(heartRate[p]);
      row.push(position?.[0] ?? null, position?.[1] ?? null);
      return row;
    }),
  );

  const written = await workbook.xlsx.writeBuffer();
  return restampZip(new Uint8Array(written as ArrayBuffer), created);
}

function addSheet(workbook: ExcelJS.Workbook, name: string, columns: Column[], rows: Cell[][]) {
  const sheet = workbook.addWorksheet(name, { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width, style: c.format ? { numFmt: c.format } : {} }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(row);
}

/** Zip entries carry a date; exceljs stamps "now". Dating them at the session start makes the file reproducible. */
async function restampZip(bytes: Uint8Array, date: Date): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  zip.forEach((_, entry) => {
    entry.date = date;
  });
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE", compressionOptions: { level: 6 } });
}
