import ExcelJS from "exceljs";
import JSZip from "jszip";
import type { ExportModel } from "../export-model";
import { crewNames, EXPORT_TEXT } from "./export-text";
import type { ExportLang } from "./export-text";

/**
 * The workbook (docs/exports.md "XLSX"): sheets Summary, Splits, Strokes,
 * Series; units in the header row, numbers stored as numbers, the header row
 * frozen. Written with exceljs, then re-zipped with the entries dated at the
 * session start so the same request gives the same bytes. A training's
 * workbook names itself: sheets Training, Sets, Strokes, Series, a row per
 * set (work or rest) and the set of each stroke; absent facts (no track, no
 * athlete record) are left out, never filled in.
 */
type Cell = string | number | null;
type Column = { header: string; width: number; format?: string };

const HEADERS = {
  en: {
    summary: ["Quantity", "Value", "Unit"],
    splits: ["Split", "Distance (m)", "Elapsed (s)", "Split time (s)", "Speed (m/s)", "Rate (spm)"],
    sets: ["Set", "Kind", "Distance (m)", "Elapsed (s)", "Set time (s)", "Speed (m/s)", "Rate (spm)"],
    set: "Set",
    strokes: [
      "Stroke",
      "Time (s)",
      "Side",
      "Distance (m)",
      "Speed (m/s)",
      "Rate (spm)",
      "Distance per stroke (m)",
      "Peak surge accel. (m/s²)",
      "Lowest surge accel. (m/s²)",
      "Max pitch (°)",
      "Max roll (°)",
    ],
    series: [
      "Time (s)",
      "Distance (m)",
      "Speed (m/s)",
      "Rate (spm)",
      "Distance per stroke (m)",
      "Heart rate (bpm)",
      "Latitude (°)",
      "Longitude (°)",
    ],
  },
  es: {
    summary: ["Magnitud", "Valor", "Unidad"],
    splits: ["Parcial", "Distancia (m)", "Acumulado (s)", "Tiempo parcial (s)", "Velocidad (m/s)", "Ritmo (pal/min)"],
    sets: ["Serie", "Tipo", "Distancia (m)", "Acumulado (s)", "Tiempo de la serie (s)", "Velocidad (m/s)", "Ritmo (pal/min)"],
    set: "Serie",
    strokes: [
      "Palada",
      "Tiempo (s)",
      "Lado",
      "Distancia (m)",
      "Velocidad (m/s)",
      "Ritmo (pal/min)",
      "Avance por palada (m)",
      "Acel. máx. de avance (m/s²)",
      "Acel. mín. de avance (m/s²)",
      "Cabeceo máx. (°)",
      "Balanceo máx. (°)",
    ],
    series: [
      "Tiempo (s)",
      "Distancia (m)",
      "Velocidad (m/s)",
      "Ritmo (pal/min)",
      "Avance por palada (m)",
      "Frecuencia cardiaca (lpm)",
      "Latitud (°)",
      "Longitud (°)",
    ],
  },
} as const;

const SUMMARY_ROWS = {
  en: {
    title: "Title",
    workSets: "Work sets",
    date: "Date",
    time: "Start time",
    track: "Track",
    boat: "Boat class",
    athlete: "Athlete",
    seat: "Seat",
    crew: "Crew",
    distance: "Distance",
    duration: "Duration",
    strokes: "Strokes",
    avgSpeed: "Average speed",
    maxSpeed: "Top speed",
    avgRate: "Average rate",
    maxRate: "Top rate",
    dps: "Average distance per stroke",
    avgHr: "Average heart rate",
    maxHr: "Maximum heart rate",
    mode: "Privacy mode",
  },
  es: {
    title: "Título",
    workSets: "Series de trabajo",
    date: "Fecha",
    time: "Hora de inicio",
    track: "Pista",
    boat: "Embarcación",
    athlete: "Deportista",
    seat: "Asiento",
    crew: "Tripulación",
    distance: "Distancia",
    duration: "Duración",
    strokes: "Paladas",
    avgSpeed: "Velocidad media",
    maxSpeed: "Velocidad máxima",
    avgRate: "Ritmo medio",
    maxRate: "Ritmo máximo",
    dps: "Avance medio por palada",
    avgHr: "Frecuencia cardiaca media",
    maxHr: "Frecuencia cardiaca máxima",
    mode: "Modo de privacidad",
  },
} as const;

export async function buildXlsxExport(model: ExportModel, lang: ExportLang): Promise<Uint8Array> {
  const created = new Date(model.startUnixMs);
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "Paddle Results";
  workbook.created = created;
  workbook.modified = created;
  const h = HEADERS[lang];

  const r = SUMMARY_ROWS[lang];
  const words = EXPORT_TEXT[lang];
  const f = model.facts;
  const training = f.kind === "training";
  const sum = model.summary;
  const present = (rows: (Cell[] | false)[]) => rows.filter((row): row is Cell[] => row !== false);
  const summaryRows: Cell[][] = present([
    [words.source[f.kind], f.id, null],
    f.title !== null && [r.title, f.title, null],
    [r.date, f.date, null],
    [r.time, f.timeOfDay, null],
    f.track !== null && [r.track, f.track, null],
    [r.boat, f.boatClass, null],
    model.athlete.athlete !== null && [r.athlete, model.athlete.athlete.name, null],
    [r.seat, model.athlete.seat, null],
    [r.crew, crewNames(f.crew, lang).join(", "), null],
    training && [r.workSets, model.splits.filter((lap) => lap.set?.kind === "work").length, null],
    [r.distance, sum.distance_m, "m"],
    [r.duration, sum.duration_ms / 1000, "s"],
    [r.strokes, sum.stroke_count, null],
    [r.avgSpeed, sum.avg_speed_m_s, "m/s"],
    [r.maxSpeed, sum.max_speed_m_s, "m/s"],
    [r.avgRate, sum.avg_rate_spm, "spm"],
    [r.maxRate, sum.max_rate_spm, "spm"],
    [r.dps, sum.avg_stroke_distance_m, "m"],
    ...(sum.heart_rate
      ? ([
          [r.avgHr, sum.heart_rate.avg_bpm, "bpm"],
          [r.maxHr, sum.heart_rate.max_bpm, "bpm"],
        ] as Cell[][])
      : []),
    [r.mode, model.mode, null],
  ]);
  addSheet(
    workbook,
    training ? "Training" : "Summary",
    [
      { header: h.summary[0], width: 30 },
      { header: h.summary[1], width: 28 },
      { header: h.summary[2], width: 8 },
    ],
    summaryRows,
  );

  if (training) {
    addSheet(
      workbook,
      "Sets",
      h.sets.map((header, i) => ({ header, width: i === 0 || i === 1 ? 10 : 16, format: i === 0 ? "0" : i === 1 ? undefined : "0.00" })),
      model.splits.map((lap) => [
        lap.set?.position ?? lap.index,
        lap.set ? words[lap.set.kind] : null,
        lap.distance_m,
        lap.elapsed_s,
        lap.split_s,
        lap.speed_m_s,
        lap.rate_spm,
      ]),
    );
  } else {
    addSheet(
      workbook,
      "Splits",
      h.splits.map((header, i) => ({ header, width: i === 0 ? 8 : 16, format: i === 0 ? "0" : "0.00" })),
      model.splits.map((split) => [split.index, split.distance_m, split.elapsed_s, split.split_s, split.speed_m_s, split.rate_spm]),
    );
  }

  // A training's strokes also say which set (by its place in the training) they belong to.
  const setPosition = new Map(model.splits.flatMap((lap) => (lap.set ? [[lap.set.id, lap.set.position] as const] : [])));
  const strokeHeaders: string[] = training ? [...h.strokes, h.set] : [...h.strokes];
  addSheet(
    workbook,
    "Strokes",
    strokeHeaders.map((header, i) => ({
      header,
      width: i === 0 || i === 2 || i === 11 ? 8 : 14,
      format: i === 0 || i === 11 ? "0" : i === 2 ? undefined : "0.000",
    })),
    model.strokes.map((k) => {
      const row: Cell[] = [
        k.index,
        k.time_s,
        k.side,
        k.distance_m,
        k.speed_m_s,
        k.rate_spm,
        k.stroke_distance_m,
        k.max_accel_x_m_s2,
        k.min_accel_x_m_s2,
        k.max_pitch_deg,
        k.max_roll_deg,
      ];
      if (training) row.push(k.set_id === undefined ? null : (setPosition.get(k.set_id) ?? null));
      return row;
    }),
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
      const row: Cell[] = [
        t,
        series.distance_m?.[p] ?? null,
        series.speed_m_s?.[p] ?? null,
        series.rate_spm?.[p] ?? null,
        series.stroke_distance_m?.[p] ?? null,
      ];
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
