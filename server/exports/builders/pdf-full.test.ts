import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadExportModel } from "../export-source";
import { buildExport } from "./index";
import { pageCount, pdfText, pixelsNear, renderPage } from "../../../test/support/pdf-tools";
import { defaultOptions, openExportWorld, type ExportWorld } from "../../../test/support/export-world";

let world: ExportWorld;
beforeAll(async () => {
  world = await openExportWorld();
});
afterAll(async () => {
  await world.handle.close();
});

const build = (overrides: Partial<Parameters<typeof buildExport>[3]> = {}) =>
  buildExport(
    world.db,
    { kind: "session", sessionId: world.sessionId },
    { userId: world.anna.id },
    { ...defaultOptions, format: "pdf-full", ...overrides },
  );

describe("pdf-full export", () => {
  it("has several numbered pages: every split, charts, data quality, every stroke", async () => {
    const file = await build({ splits: 20 });
    expect(file.filename).toMatch(/-seat1-en-full\.pdf$/);
    const pages = pageCount(file.bytes);
    expect(pages).toBeGreaterThan(3);
    const text = pdfText(file.bytes);
    expect(text).toContain(`Page 1 of ${pages}`);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    const first = pdfText(file.bytes, 1);
    expect(first).toMatch(/\n\s*20\s+500 m/);
    expect(first).toContain("Anna Alvarez (Seat 1)");
    expect(pdfText(file.bytes, 2)).toContain("Distance per stroke (m)");
    expect(pdfText(file.bytes, 3)).toContain("Heart-rate coverage");
    // The stroke table ends with the last stroke.
    const { strokes } = await loadExportModel(
      world.db,
      { kind: "session", sessionId: world.sessionId },
      { userId: world.anna.id },
      { athlete: 1, splits: 4, mode: "full", healthAllowed: true },
    );
    const strokeCount = strokes.length;
    expect(pages).toBe(3 + Math.ceil(strokeCount / 70));
    expect(pdfText(file.bytes, pages)).toMatch(new RegExp(`\\n\\s*${strokeCount}\\s+\\d+\\.\\d\\d\\s+(left|right)`));
  });

  it("draws the charts: the chart page rendered by pdftoppm has the speed, rate and distance-per-stroke lines in their colours", async () => {
    const png = renderPage((await build()).bytes, 2, 72);
    expect(png.width).toBeGreaterThan(500);
    const plot = { x0: 0.08, y0: 0.05, x1: 0.95, y1: 0.95 };
    expect(pixelsNear(png, plot, [0x0b, 0x5c, 0xad])).toBeGreaterThan(150); // speed
    expect(pixelsNear(png, plot, [0xb4, 0x23, 0x18])).toBeGreaterThan(150); // rate
    expect(pixelsNear(png, plot, [0x1a, 0x7f, 0x37])).toBeGreaterThan(150); // distance per stroke
    expect(pixelsNear(png, plot, [0x82, 0x50, 0xdf])).toBeGreaterThan(150); // heart rate (included: her own)
    // A blank page would have none: the left margin stays white.
    expect(pixelsNear(png, { x0: 0, y0: 0, x1: 0.04, y1: 1 }, [255, 255, 255], 10)).toBe(Math.ceil(0.04 * png.width) * png.height);
  });

  it("Spanish, without health permission: no heart-rate chart; same bytes every time", async () => {
    const a = await build({ lang: "es", healthAllowed: false });
    const b = await build({ lang: "es", healthAllowed: false });
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    const text = pdfText(a.bytes);
    expect(text).toContain("Informe completo de la sesión");
    expect(text).toMatch(/Página 1 de \d+/);
    expect(text).not.toContain("Frecuencia cardiaca");
    const png = renderPage(a.bytes, 2, 72);
    expect(pixelsNear(png, { x0: 0.08, y0: 0.05, x1: 0.95, y1: 0.95 }, [0x82, 0x50, 0xdf])).toBe(0);
  });
});
