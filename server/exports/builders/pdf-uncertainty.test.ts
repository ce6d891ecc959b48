import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatSeconds as formatClock } from "../../results/figure-format";
import { formatUncertainty } from "../../svc/process/uncertainty";
import { loadExportModel } from "../export-source";
import { buildExport } from "./index";
import { pdfText } from "../../../test/support/pdf-tools";
import { defaultOptions, openExportWorld, type ExportWorld } from "../../../test/support/export-world";

/** Both PDF reports state each split's elapsed time with its 95 % uncertainty, the Data API's figure (docs/processing.md "Split uncertainty"). */
let world: ExportWorld;
beforeAll(async () => {
  world = await openExportWorld();
});
afterAll(async () => {
  await world.handle.close();
});

describe("split uncertainty in the PDF reports", () => {
  for (const format of ["pdf", "pdf-full"] as const) {
    it(`${format}: every split reads "m:ss.cc ± 0.cc" with the split items' elapsed_uncertainty_s`, async () => {
      const file = await buildExport(
        world.db,
        { kind: "session", sessionId: world.sessionId },
        { userId: world.anna.id },
        { ...defaultOptions, format, splits: 5 },
      );
      const { splits } = await loadExportModel(
        world.db,
        { kind: "session", sessionId: world.sessionId },
        { userId: world.anna.id },
        { athlete: 1, splits: 5, mode: "full", healthAllowed: true },
      );
      const text = pdfText(file.bytes, 1).replace(/[ \t]+/g, " ");
      expect(splits).toHaveLength(5);
      for (const split of splits) {
        expect(split.elapsed_uncertainty_s).toBeGreaterThan(0);
        expect(text).toContain(`${formatClock(split.elapsed_s)} ${formatUncertainty(split.elapsed_uncertainty_s)}`);
        expect(text).toContain(`${formatClock(split.split_s)} ${formatUncertainty(split.split_uncertainty_s)}`);
      }
    });
  }
});
