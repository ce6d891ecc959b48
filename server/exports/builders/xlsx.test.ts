import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadExportModel } from "../export-source";
import { buildExport } from "./index";
import { defaultOptions, openExportWorld, type ExportWorld } from "../../../test/support/export-world";

let world: ExportWorld;
beforeAll(async () => {
  world = await openExportWorld();
});
afterAll(async () => {
  await world.handle.close();
});

const source = () => ({ kind: "session" as const, sessionId: world.sessionId });
async function open(bytes: Uint8Array) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
  return workbook;
}
const headerRow = (sheet: ExcelJS.Worksheet) => (sheet.getRow(1).values as unknown[]).slice(1);

describe("xlsx export", () => {
  it("opens again with exceljs: Summary, Splits, Strokes, Series; units in the header, numbers as numbers, header frozen", async () => {
    const file = await buildExport(world.db, source(), { userId: world.anna.id }, { ...defaultOptions, format: "xlsx", splits: 8 });
    expect(file.contentType).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const workbook = await open(file.bytes);
    const model = await loadExportModel(
      world.db,
      source(),
      { userId: world.anna.id },
      { athlete: 1, splits: 8, mode: "full", healthAllowed: true },
    );
    expect(workbook.worksheets.map((w) => w.name)).toEqual(["Summary", "Splits", "Strokes", "Series"]);
    for (const sheet of workbook.worksheets) expect(sheet.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });

    const splits = workbook.getWorksheet("Splits")!;
    expect(headerRow(splits)).toEqual(["Split", "Distance (m)", "Elapsed (s)", "Split time (s)", "Speed (m/s)", "Rate (spm)"]);
    expect(splits.rowCount).toBe(1 + 8);
    const lastSplit = splits.getRow(9);
    expect(lastSplit.getCell(2).type).toBe(ExcelJS.ValueType.Number);
    expect(lastSplit.getCell(2).value).toBeCloseTo(model.summary.distance_m, 1);
    expect(lastSplit.getCell(3).value).toBe(model.splits[7].elapsed_s);

    const strokes = workbook.getWorksheet("Strokes")!;
    expect(headerRow(strokes)).toContain("Distance per stroke (m)");
    expect(strokes.rowCount).toBe(1 + model.strokes.length);
    const row = strokes.getRow(11);
    expect(row.getCell(1).value).toBe(model.strokes[9].index);
    expect(row.getCell(3).value).toBe(model.strokes[9].side);
    for (const c of [2, 4, 5, 6, 7]) expect(row.getCell(c).type).toBe(ExcelJS.ValueType.Number);
    expect(row.getCell(6).value).toBe(model.strokes[9].rate_spm);

    const series = workbook.getWorksheet("Series")!;
    expect(headerRow(series)).toEqual([
      "Time (s)",
      "Distance (m)",
      "Speed (m/s)",
      "Rate (spm)",
      "Distance per stroke (m)",
      "Heart rate (bpm)",
      "Latitude (°)",
      "Longitude (°)",
    ]);
    expect(series.rowCount).toBe(1 + model.series.points);
    expect(series.getRow(series.rowCount).getCell(2).value).toBeCloseTo(model.summary.distance_m, 1);

    const summary = workbook.getWorksheet("Summary")!;
    const byName = new Map(
      summary
        .getSheetValues()
        .slice(2)
        .map((r) => [(r as unknown[])[1], (r as unknown[]).slice(2)]),
    );
    expect(byName.get("Distance")).toEqual([model.summary.distance_m, "m"]);
    expect(byName.get("Strokes")![0]).toBe(model.summary.stroke_count);
    expect(byName.get("Athlete")![0]).toBe("Anna Alvarez");
    expect(byName.get("Average heart rate")).toEqual([model.summary.heart_rate!.avg_bpm, "bpm"]);
  });

  it("Spanish headers; no heart-rate column without health permission; the same bytes every time", async () => {
    const options = { ...defaultOptions, format: "xlsx" as const, lang: "es" as const, healthAllowed: false };
    const a = await buildExport(world.db, source(), { userId: world.anna.id }, options);
    const b = await buildExport(world.db, source(), { userId: world.anna.id }, options);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    const workbook = await open(a.bytes);
    expect(headerRow(workbook.getWorksheet("Series")!)).not.toContain("Frecuencia cardiaca (lpm)");
    expect(headerRow(workbook.getWorksheet("Splits")!)).toContain("Velocidad (m/s)");
    const summary = workbook
      .getWorksheet("Summary")!
      .getSheetValues()
      .map((r) => (r as unknown[] | undefined)?.[1]);
    expect(summary).not.toContain("Frecuencia cardiaca media");
  });
});
