import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getResultDetail } from "../../results/result-detail";
import { buildExport } from "./index";
import { exportJsonSchema, type SessionExportDocument } from "./json";
import { defaultOptions, openExportWorld, uploadK2, type ExportWorld } from "../../../test/support/export-world";

let world: ExportWorld;
beforeAll(async () => {
  world = await openExportWorld();
});
afterAll(async () => {
  await world.handle.close();
});

const build = (
  overrides: Partial<Parameters<typeof buildExport>[3]> = {},
  viewer: Parameters<typeof buildExport>[2] = { userId: world.anna.id },
) => buildExport(world.db, { kind: "session", sessionId: world.sessionId }, viewer, { ...defaultOptions, format: "json", ...overrides });
const parse = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes)) as SessionExportDocument;

describe("json export", () => {
  it("is a versioned document valid against the published schema, with every stroke, the splits asked for and the bounded series", async () => {
    const file = await build({ splits: 7 });
    expect(file.contentType).toBe("application/json");
    expect(file.filename).toMatch(new RegExp(`^session-${world.sessionId}-\\d{4}-\\d{2}-\\d{2}-seat1\\.json$`));
    const doc = parse(file.bytes);

    const schema = exportJsonSchema();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);

    expect(doc).toMatchObject({
      format: "paddle-results.session-export",
      version: 2,
      kind: "session",
      source: { kind: "session", session_id: world.sessionId },
    });
    const detail = await getResultDetail(world.db, world.anna.id, world.sessionId);
    expect(doc.strokes).toHaveLength(detail.strokes.length);
    expect(doc.strokes.map((s) => s.index)).toEqual(detail.strokes.map((s) => s.strokeIndex));
    expect(doc.summary.stroke_count).toBe(detail.strokes.length);
    expect(doc.splits.count).toBe(7);
    expect(doc.splits.splits.at(-1)!.distance_m).toBeCloseTo(doc.summary.distance_m, 1);
    expect(doc.series.points).toBe(doc.series.t_s.length);
    expect(doc.series.points).toBeLessThanOrEqual(1000);
    expect(doc.series.t_s.at(-1)! * 1000).toBeCloseTo(doc.summary.duration_ms, -2);
    expect(doc.series.route!.length).toBeGreaterThan(10);
    // Units travel in the field names.
    expect(Object.keys(doc.summary)).toEqual(expect.arrayContaining(["distance_m", "duration_ms", "avg_speed_m_s", "avg_rate_spm"]));
    expect(doc.session.weather).toMatchObject({ wind_speed_m_s: 2.5, air_temperature_c: 18 });
    expect(doc.session.description).toBe("Export <test> & notes");
  });

  it("the committed docs/export-json.schema.json is the schema the code publishes", () => {
    const committed = JSON.parse(readFileSync("docs/export-json.schema.json", "utf8"));
    expect(committed).toEqual(exportJsonSchema());
  });

  it("is the same bytes for the same request", async () => {
    const [a, b] = [await build(), await build()];
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });

  it("athlete 1 (the strap seat, the viewer's own) carries her heart rate and her own lactate; never the external provider's", async () => {
    const doc = parse((await build()).bytes);
    expect(doc.athlete).toEqual({ seat: 1, athlete: { id: world.annaAthleteId, name: "Anna Alvarez" }, is_subject: true });
    expect(doc.privacy).toEqual({ mode: "full", heart_rate_included: true, lactate_included: true });
    expect(doc.summary.heart_rate!.avg_bpm).toBeGreaterThan(60);
    expect(doc.series.heart_rate_bpm!.filter((v) => v !== null).length).toBeGreaterThan(10);
    expect(doc.lactate!.map((l) => l.lactate_mmol_l)).toEqual([world.manualLactate]);
    expect(JSON.stringify(doc.lactate)).not.toContain(String(world.externalLactate));
    expect(JSON.stringify(doc)).not.toContain("SomeWatch");
  });

  it("without health permission: no heart rate, no lactate", async () => {
    const doc = parse((await build({ healthAllowed: false })).bytes);
    expect(doc.privacy).toEqual({ mode: "full", heart_rate_included: false, lactate_included: false });
    expect(doc.summary.heart_rate).toBeNull();
    expect(doc.session.health).toBeNull();
    expect(doc.series).not.toHaveProperty("heart_rate_bpm");
    expect(doc.lactate).toBeNull();
  });

  it("athlete 2 (Bea, whom Anna manages): Bea's seat, and no heart rate (the strap is in seat 1)", async () => {
    const doc = parse((await build({ athlete: 2 })).bytes);
    expect(doc.athlete).toEqual({ seat: 2, athlete: { id: world.beaAthleteId, name: "Bea Blanco" }, is_subject: false });
    expect(doc.privacy.heart_rate_included).toBe(false);
    expect(doc.lactate).toBeNull();
    expect(doc.session.crew.map((c) => c.athlete?.name ?? null)).toEqual(["Anna Alvarez", "Bea Blanco"]);
  });

  it("privacy-safe mode: only the person's own seat has an identity, and a seat she may not see is not found", async () => {
    const doc = parse((await build({ mode: "privacy-safe" })).bytes);
    expect(doc.privacy.mode).toBe("privacy-safe");
    expect(doc.session.crew).toEqual([
      { seat: 1, athlete: { id: world.annaAthleteId, name: "Anna Alvarez" }, is_subject: true },
      { seat: 2, athlete: null, is_subject: false },
    ]);
    expect(JSON.stringify(doc)).not.toContain("Blanco");
    // A seat she could export on the web is exported too, without its identity (issue 21).
    const other = parse((await build({ mode: "privacy-safe", athlete: 2, healthAllowed: true })).bytes);
    expect(other.athlete).toEqual({ seat: 2, athlete: null, is_subject: false });
    expect(other.privacy).toEqual({ mode: "privacy-safe", heart_rate_included: false, lactate_included: false });
    expect(other.lactate).toBeNull();
    expect(JSON.stringify(other)).not.toContain("Blanco");
    expect(JSON.stringify(other)).not.toContain(String(world.beaAthleteId) + ',"name"');
    await expect(build({ mode: "privacy-safe", athlete: 3 })).rejects.toMatchObject({ code: "not_found" });
  });

  it("the partner surface is privacy-safe whatever the caller passes", async () => {
    const viewer = { userId: world.anna.id, application: { id: 1, surface: "partner" as const } };
    const doc = parse((await build({ mode: "full" }, viewer)).bytes);
    expect(doc.privacy.mode).toBe("privacy-safe");
    expect(JSON.stringify(doc)).not.toContain("Blanco");
    // She owns the session and may export Bea's seat on the web: the partner gets that file, privacy-safe.
    const seat2 = parse((await build({ athlete: 2, mode: "full" }, viewer)).bytes);
    expect(seat2.privacy.mode).toBe("privacy-safe");
    expect(seat2.athlete).toEqual({ seat: 2, athlete: null, is_subject: false });
    expect(seat2.session.crew.map((c) => c.athlete?.name ?? null)).toEqual(["Anna Alvarez", null]);
    expect(JSON.stringify(seat2)).not.toContain("Blanco");
    // Olaf has no access to the session at all.
    await expect(build({ athlete: 2 }, { userId: world.olaf.id, application: { id: 1, surface: "partner" } })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("not found: an empty seat, another person's session, a session that does not exist", async () => {
    await expect(build({ athlete: 3 })).rejects.toMatchObject({ code: "not_found" });
    await expect(build({}, { userId: world.olaf.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(
      buildExport(
        world.db,
        { kind: "session", sessionId: 2_000_000_000 },
        { userId: world.anna.id },
        { ...defaultOptions, format: "json" },
      ),
    ).rejects.toMatchObject({ code: "not_found" });
    // On the session surface only sessions the calling application created are readable.
    await expect(build({}, { userId: world.anna.id, application: { id: 999_999, surface: "session" } })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("a seat holding a paddler typed in by hand is not found (no identity to export), and the crew shows it without one", async () => {
    const id = await uploadK2(world, [world.annaAthleteId, { name: "Guest", surname: "Rower" }]);
    const source = { kind: "session" as const, sessionId: id };
    await expect(
      buildExport(world.db, source, { userId: world.anna.id }, { ...defaultOptions, format: "json", athlete: 2 }),
    ).rejects.toMatchObject({ code: "not_found" });
    const doc = parse((await buildExport(world.db, source, { userId: world.anna.id }, { ...defaultOptions, format: "json" })).bytes);
    expect(doc.session.crew[1]).toEqual({ seat: 2, athlete: null, is_subject: false });
    expect(JSON.stringify(doc)).not.toContain("Guest");
  });

  it("refuses options out of range", async () => {
    await expect(build({ splits: 21 })).rejects.toMatchObject({ code: "invalid", message: expect.stringMatching(/^splits/) });
    await expect(build({ athlete: 5 as 1 })).rejects.toMatchObject({ code: "invalid", message: expect.stringMatching(/^athlete/) });
    await expect(build({ format: "docx" as "json" })).rejects.toMatchObject({ code: "invalid", message: expect.stringMatching(/^format/) });
  });
});
