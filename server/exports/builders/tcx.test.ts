import { readFileSync } from "node:fs";
import { validateXML } from "xmllint-wasm";
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

const XSD = readFileSync("test/fixtures/tcx/TrainingCenterDatabasev2.xsd", "utf8");
const validate = (xml: string) =>
  validateXML({ xml: [{ fileName: "export.tcx", contents: xml }], schema: [{ fileName: "TrainingCenterDatabasev2.xsd", contents: XSD }] });
const source = () => ({ kind: "session" as const, sessionId: world.sessionId });
const count = (xml: string, tag: string) => xml.split(`<${tag}>`).length - 1;

describe("tcx export", () => {
  it("is valid against the TCX v2 schema: Sport Other, one lap per split, a trackpoint per series point", async () => {
    const file = await buildExport(world.db, source(), { userId: world.anna.id }, { ...defaultOptions, format: "tcx", splits: 6 });
    expect(file.contentType).toBe("application/vnd.garmin.tcx+xml");
    const xml = new TextDecoder().decode(file.bytes);
    const result = await validate(xml);
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);

    const model = await loadExportModel(
      world.db,
      source(),
      { userId: world.anna.id },
      { athlete: 1, splits: 6, mode: "full", healthAllowed: true },
    );
    expect(xml).toContain('<Activity Sport="Other">');
    expect(xml).toContain(`<Id>${new Date(model.startUnixMs).toISOString()}</Id>`);
    expect(xml.split("<Lap StartTime=").length - 1).toBe(6);
    expect(count(xml, "Trackpoint")).toBe(model.series.points);
    expect(count(xml, "HeartRateBpm")).toBeGreaterThan(model.series.points * 0.9);
    const lapDistances = [...xml.matchAll(/<\/TotalTimeSeconds>\s*<DistanceMeters>([\d.]+)<\/DistanceMeters>/g)].map((m) => Number(m[1]));
    expect(lapDistances.reduce((a, b) => a + b, 0)).toBeCloseTo(model.summary.distance_m, 1);
    const lastDistance = [...xml.matchAll(/<\/Position><DistanceMeters>([\d.]+)<\/DistanceMeters>/g)].at(-1)!;
    expect(Number(lastDistance[1])).toBeCloseTo(model.summary.distance_m, 1);
    // Notes are escaped, never markup.
    expect(xml).toContain("<Notes>Export &lt;test&gt; &amp; notes</Notes>");
  });

  it("has no heart rate without health permission, stays valid, and is the same bytes every time", async () => {
    const options = { ...defaultOptions, format: "tcx" as const, healthAllowed: false };
    const a = await buildExport(world.db, source(), { userId: world.anna.id }, options);
    const b = await buildExport(world.db, source(), { userId: world.anna.id }, options);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    const xml = new TextDecoder().decode(a.bytes);
    expect(xml).not.toContain("HeartRateBpm");
    expect((await validate(xml)).valid).toBe(true);
  });

  it("the shipped schema does reject what TCX forbids", async () => {
    const file = await buildExport(world.db, source(), { userId: world.anna.id }, { ...defaultOptions, format: "tcx" });
    const xml = new TextDecoder().decode(file.bytes);
    expect((await validate(xml.replace('Sport="Other"', 'Sport="Kayaking"'))).valid).toBe(false);
    expect((await validate(xml.replace("<Calories>0</Calories>", ""))).valid).toBe(false);
  });
});
