import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildExport } from "./index";
import { pageCount, pdfText } from "../../../test/support/pdf-tools";
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
    { ...defaultOptions, format: "pdf", ...overrides },
  );

describe("pdf export (the compact report)", () => {
  it("is the results API's one-page report, in English or Spanish, with the splits asked for and no share-link QR code", async () => {
    const en = await build({ splits: 5 });
    expect(en.contentType).toBe("application/pdf");
    expect(en.filename).toMatch(/-seat1-en\.pdf$/);
    expect(pageCount(en.bytes)).toBe(1);
    const text = pdfText(en.bytes);
    expect(text).toContain("Session report");
    expect(text).toContain("Anna Alvarez, Bea Blanco");
    expect(text).toMatch(/\n\s*5\s+500 m/);
    expect(text).not.toContain("Scan to open");

    const es = await build({ lang: "es" });
    expect(pdfText(es.bytes)).toContain("Informe de la sesión");
    expect(es.filename).toMatch(/-es\.pdf$/);
  });

  it("is the same bytes for the same request (creation date fixed to the session)", async () => {
    const [a, b] = [await build(), await build()];
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });

  it("privacy-safe: the other crew member is a seat without a name", async () => {
    const text = pdfText((await build({ mode: "privacy-safe" })).bytes);
    expect(text).toContain("Anna Alvarez, Seat 2");
    expect(text).not.toContain("Blanco");
  });
});
