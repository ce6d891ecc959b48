import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getEnv } from "../../config/env";
import { buildResultReport } from "../../reports/build-result-report";
import { sessionReportLink } from "../../reports/report-link";
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
  it("is the results API's one-page report, in English or Spanish, with the splits asked for", async () => {
    const en = await build({ splits: 5 });
    expect(en.contentType).toBe("application/pdf");
    expect(en.filename).toMatch(/-seat1-en\.pdf$/);
    expect(pageCount(en.bytes)).toBe(1);
    const text = pdfText(en.bytes);
    expect(text).toContain("Session report");
    expect(text).toContain("Anna Alvarez, Bea Blanco");
    expect(text).toMatch(/\n\s*5\s+500 m/);

    const es = await build({ lang: "es" });
    expect(pdfText(es.bytes)).toContain("Informe de la sesión");
    expect(es.filename).toMatch(/-es\.pdf$/);
  });

  it("is the same bytes for the same request (creation date fixed to the session)", async () => {
    const [a, b] = [await build(), await build()];
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });

  it("is the direct report's: the same QR code and public link, the same facts, from either path", async () => {
    const exported = pdfText((await build({ splits: 4 })).bytes);
    const direct = pdfText(
      (
        await buildResultReport(world.db, {
          userId: world.anna.id,
          resultId: world.sessionId,
          lang: "en",
          splits: 4,
          appUrl: getEnv().appUrl,
        })
      ).pdf,
    );
    const link = (await sessionReportLink(world.db, world.anna.id, world.sessionId, getEnv().appUrl)).url;
    for (const text of [exported, direct]) {
      expect(text).toContain("Scan to open this session online");
      expect(text.replace(/\s+/g, "")).toContain(link);
    }
    // One report: the export's text is the direct report's, line for line.
    expect(exported).toBe(direct);
  });

  it("privacy-safe: the other crew member is a seat without a name, and no public link (it would name them)", async () => {
    const text = pdfText((await build({ mode: "privacy-safe" })).bytes);
    expect(text).not.toContain("Scan to open");
    expect(text).toContain("Anna Alvarez, Seat 2");
    expect(text).not.toContain("Blanco");
  });
});
