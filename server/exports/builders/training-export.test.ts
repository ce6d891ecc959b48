import { readFileSync } from "node:fs";
import { Decoder, Stream } from "@garmin/fitsdk";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import ExcelJS from "exceljs";
import { validateXML } from "xmllint-wasm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getTrainingSets } from "../../trainings/training-reads";
import { buildExport, EXPORT_FORMATS, type ExportFormat } from "./index";
import { EXPORT_JSON_VERSION, exportJsonSchema, type ExportDocument, type TrainingExportDocument } from "./json";
import { pdfText, readable } from "../../../test/support/pdf-tools";
import { addTrainings, defaultOptions, openExportWorld, type ExportWorld, type TrainingWorld } from "../../../test/support/export-world";

/**
 * Issue 23 §4: a training's export in every format is a training's, in its
 * own terms — no session-shaped placeholders (`category {id: 0, name:
 * "Training"}`, `pace {id: 0}`, `track {id: 0}`, an athlete `{id: 0}`,
 * `status: "processed"`, a session id that is the training's), and every id
 * in a file points at something real. Built from real processed trainings
 * (upload, processing) on the real database.
 */
let world: ExportWorld;
let trainings: TrainingWorld;
beforeAll(async () => {
  world = await openExportWorld();
  trainings = await addTrainings(world);
}, 120_000);
afterAll(async () => {
  await world.handle.close();
});

const build = (trainingId: number, format: ExportFormat, overrides: Partial<Parameters<typeof buildExport>[3]> = {}) =>
  buildExport(world.db, { kind: "training", trainingId }, { userId: world.anna.id }, { ...defaultOptions, format, ...overrides });
const json = async (trainingId: number, overrides: Partial<Parameters<typeof buildExport>[3]> = {}) =>
  JSON.parse(new TextDecoder().decode((await build(trainingId, "json", overrides)).bytes)) as TrainingExportDocument;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validate = ajv.compile(exportJsonSchema());
const expectValid = (doc: unknown) => expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);

/** Every value under a key that names a reference (`id`, `…_id`, `…_ids`), with where it was found. */
function references(value: unknown, path = "$"): { path: string; key: string; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => references(v, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const here =
      key === "id" || key.endsWith("_id") || key.endsWith("_ids")
        ? Array.isArray(v)
          ? v.map((x, i) => ({ path: `${path}.${key}[${i}]`, key, value: x }))
          : [{ path: `${path}.${key}`, key, value: v }]
        : [];
    return [...here, ...references(v, `${path}.${key}`)];
  });
}

describe("a training's JSON export (version 2)", () => {
  it("says it is a training, validates against the published schema, and every id in it is the training's, its sets', or a real record's", async () => {
    for (const id of [trainings.named, trainings.ownPractice]) {
      const doc = await json(id);
      // First the rule itself: no reference-looking value is 0 or points at nothing the file is about.
      const setIds = (await getTrainingSets(world.db, id)).map((s) => s.id);
      const boatClassIds = references(doc).flatMap((r) => (r.path.endsWith(".boat_class.id") ? [r.value] : []));
      const real = new Set<unknown>([
        id,
        ...setIds,
        world.annaAthleteId,
        world.trackId,
        ...boatClassIds,
        ...(doc.lactate ?? []).map((l) => l.id),
      ]);
      const refs = references(doc);
      expect(refs.length).toBeGreaterThan(10);
      for (const ref of refs) {
        expect(ref.value, ref.path).not.toBe(0);
        if (ref.value !== null) expect(real.has(ref.value), `${ref.path} = ${String(ref.value)} points nowhere`).toBe(true);
      }
      expectValid(doc);
      expect(doc).toMatchObject({
        format: "paddle-results.training-export",
        version: 2,
        kind: "training",
        source: { kind: "training", training_id: id },
      });
      expect(EXPORT_JSON_VERSION).toBe(2);
      // Nothing dressed as a session.
      expect(doc).not.toHaveProperty("session");
      expect(doc.training).not.toHaveProperty("category");
      expect(doc.training).not.toHaveProperty("pace");
      expect(doc.training).not.toHaveProperty("target");
      const text = JSON.stringify(doc);
      expect(text).not.toContain('"session_id"');
      expect(text).not.toContain('"processed"');
      expect(text).not.toContain('"Training"');

      expect(doc.training.sets.map((s) => s.set_id)).toEqual(setIds);
      expect(refs.filter((r) => r.key === "training_id").every((r) => r.value === id)).toBe(true);
      expect(doc.strokes.every((s) => setIds.includes(s.set_id))).toBe(true);
      expect(doc.set_splits.map((s) => s.set_id)).toEqual(doc.training.sets.filter((s) => s.kind === "work").map((s) => s.set_id));
      // Version 2 already has the members set corrections bring; nothing has been corrected.
      expect(doc.training.needs_review).toBe(false);
      expect(doc.training.sets.every((s) => s.corrected === false)).toBe(true);
    }
  });

  it("a training with its athlete and track names them by their real ids; the crew is the training's", async () => {
    const doc = await json(trainings.named);
    expect(doc.athlete).toEqual({ seat: 1, athlete: { id: world.annaAthleteId, name: "Anna Alvarez" }, is_subject: true });
    expect(doc.training.crew).toEqual([doc.athlete]);
    expect(doc.training).toMatchObject({
      id: trainings.named,
      title: "Tuesday pieces",
      notes: "into the wind",
      track: { id: world.trackId, name: "Export Basin" },
      athlete: { id: world.annaAthleteId },
    });
    expect(doc.privacy).toEqual({ mode: "full", heart_rate_included: true, lactate_included: true });
  });

  it("her own practice with no athlete and no track: absent is null, never {id: 0}", async () => {
    const doc = await json(trainings.ownPractice);
    expect(doc.athlete).toEqual({ seat: 1, athlete: null, is_subject: true });
    expect(doc.training.crew).toEqual([{ seat: 1, athlete: null, is_subject: true }]);
    expect(doc.training.track).toBeNull();
    expect(doc.training.athlete).toBeNull();
    expect(doc.training.template).toBeNull();
    expect(JSON.stringify(doc)).not.toContain(world.anna.name);
  });

  it("a session export is version 2 of the same document, kind session, and validates against the same schema", async () => {
    const file = await buildExport(
      world.db,
      { kind: "session", sessionId: world.sessionId },
      { userId: world.anna.id },
      { ...defaultOptions, format: "json" },
    );
    const doc = JSON.parse(new TextDecoder().decode(file.bytes)) as ExportDocument;
    expectValid(doc);
    expect(doc).toMatchObject({ version: 2, kind: "session", format: "paddle-results.session-export" });
    // The kinds cannot be mixed: a training document claiming to be a session fails the schema.
    const training = await json(trainings.named);
    expect(validate({ ...training, kind: "session" })).toBe(false);
    expect(validate({ ...training, version: 1 })).toBe(false);
  });
});

describe('version 2 has room for the changes planned beside it (docs/exports.md "Versions")', () => {
  it("a privacy-safe seat without identity as the chosen seat, a training with a whole crew, corrected sets and a review flag all validate", async () => {
    const file = await buildExport(
      world.db,
      { kind: "session", sessionId: world.sessionId },
      { userId: world.anna.id },
      { ...defaultOptions, format: "json", mode: "privacy-safe" },
    );
    const session = JSON.parse(new TextDecoder().decode(file.bytes)) as ExportDocument;
    // Partner exports of a seat that is not the person's own: no identity, no health.
    expectValid({
      ...session,
      athlete: { seat: 2, athlete: null, is_subject: false },
      privacy: { ...session.privacy, heart_rate_included: false, lactate_included: false },
      lactate: null,
    });
    const training = await json(trainings.named);
    const crew = [training.athlete, { seat: 2, athlete: null, is_subject: false }];
    expectValid({
      ...training,
      athlete: crew[1],
      training: {
        ...training.training,
        boat_class: { ...training.training.boat_class, crew_size: 2 },
        crew,
        needs_review: true,
        sets: training.training.sets.map((set, i) => ({ ...set, corrected: i === 0 })),
      },
    });
    // What stays refused: an athlete without a name; a training document carrying a session member.
    expect(validate({ ...training, athlete: { seat: 1, athlete: { id: 1 }, is_subject: true } })).toBe(false);
    expect(validate({ ...training, session: {} })).toBe(false);
  });
});

const XSD = readFileSync("test/fixtures/tcx/TrainingCenterDatabasev2.xsd", "utf8");

describe("a training's XLSX, FIT, TCX and PDF exports name it a training and hold no placeholder", () => {
  it("XLSX: sheets Training and Sets, a row per set, the training's id; no track row when it has none", async () => {
    const sets = await getTrainingSets(world.db, trainings.ownPractice);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from((await build(trainings.ownPractice, "xlsx")).bytes) as unknown as ArrayBuffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(["Training", "Sets", "Strokes", "Series"]);
    const summary = new Map(
      workbook
        .getWorksheet("Training")!
        .getSheetValues()
        .slice(2)
        .map((r) => [(r as unknown[])[1], (r as unknown[])[2]]),
    );
    expect(summary.get("Training")).toBe(trainings.ownPractice);
    expect(summary.has("Session")).toBe(false);
    expect(summary.has("Track")).toBe(false);
    expect(summary.has("Athlete")).toBe(false);
    expect(summary.get("Work sets")).toBe(sets.filter((s) => s.kind === "work").length);
    const setRows = workbook.getWorksheet("Sets")!.getSheetValues().slice(2) as unknown[][];
    expect(setRows.map((r) => [r[1], r[2]])).toEqual(sets.map((s) => [s.position, s.kind]));
    const text = JSON.stringify(workbook.worksheets.map((w) => w.getSheetValues()));
    expect(text).not.toContain("Session");

    const named = new ExcelJS.Workbook();
    await named.xlsx.load(Buffer.from((await build(trainings.named, "xlsx", { lang: "es" })).bytes) as unknown as ArrayBuffer);
    const values = named.getWorksheet("Training")!.getSheetValues().slice(2) as unknown[][];
    expect(values.find((r) => r[1] === "Entrenamiento")![2]).toBe(trainings.named);
    expect(values.find((r) => r[1] === "Pista")![2]).toBe("Export Basin");
  });

  it("FIT: the sport and session are named 'K1 training'; one lap per set, rests at rest intensity", async () => {
    const sets = await getTrainingSets(world.db, trainings.ownPractice);
    const decoder = new Decoder(Stream.fromByteArray(Array.from((await build(trainings.ownPractice, "fit")).bytes)));
    expect(decoder.checkIntegrity()).toBe(true);
    const { messages, errors } = decoder.read({ convertDateTimesToDates: true });
    expect(errors).toEqual([]);
    expect(messages.sportMesgs).toEqual([expect.objectContaining({ sport: "kayaking", name: "K1 training" })]);
    expect(messages.sessionMesgs![0]).toMatchObject({ sportProfileName: "K1 training", numLaps: sets.length });
    expect(messages.lapMesgs!.map((lap) => lap.intensity)).toEqual(sets.map((s) => (s.kind === "rest" ? "rest" : "active")));
    expect(messages.lapMesgs!.slice(0, -1).every((lap) => lap.lapTrigger === undefined)).toBe(true);
  });

  it("TCX: valid against TCX v2; the activity's notes say Training and its title, each lap names its set", async () => {
    const sets = await getTrainingSets(world.db, trainings.named);
    const xml = new TextDecoder().decode((await build(trainings.named, "tcx")).bytes);
    const result = await validateXML({
      xml: [{ fileName: "t.tcx", contents: xml }],
      schema: [{ fileName: "TrainingCenterDatabasev2.xsd", contents: XSD }],
    });
    expect(result.errors).toEqual([]);
    expect(xml).toContain("<Notes>Training: Tuesday pieces · into the wind</Notes>");
    expect([...xml.matchAll(/<Notes>(Set \d+ · (?:work|rest))<\/Notes>/g)].map((m) => m[1])).toEqual(
      sets.map((s) => `Set ${s.position} · ${s.kind}`),
    );
    expect(xml.split("<Intensity>Resting</Intensity>").length - 1).toBe(sets.filter((s) => s.kind === "rest").length);
    expect(xml).not.toContain("<TriggerMethod>Distance</TriggerMethod>");
  });

  it("PDFs: titled as a training's report; no track is a dash, not an empty placeholder", async () => {
    const full = pdfText((await build(trainings.ownPractice, "pdf-full")).bytes, 1);
    expect(full).toContain("Training report, full");
    expect(full).toContain(`Training #${trainings.ownPractice}`);
    expect(full).not.toContain("Session");
    expect(full).toMatch(/Set 2 · rest/);
    const compact = pdfText((await build(trainings.named, "pdf", { lang: "es" })).bytes);
    expect(compact).toContain("Informe del entrenamiento");
    expect(compact).not.toContain("Informe de la sesión");
  }, 60_000);
});

describe("a training's export in every format", () => {
  it.each(EXPORT_FORMATS)(
    "%s: the same bytes for the same request; web and data-surface API builds agree; no owner name, e-mail or file name",
    async (format) => {
      const source = { kind: "training" as const, trainingId: trainings.ownPractice };
      const web = await buildExport(world.db, source, { userId: world.anna.id }, { ...defaultOptions, format });
      const again = await buildExport(world.db, source, { userId: world.anna.id }, { ...defaultOptions, format });
      const api = await buildExport(
        world.db,
        source,
        { userId: world.anna.id, application: { id: 4242, surface: "data" } },
        { ...defaultOptions, format },
      );
      expect(Buffer.from(again.bytes).equals(Buffer.from(web.bytes))).toBe(true);
      expect(Buffer.from(api.bytes).equals(Buffer.from(web.bytes))).toBe(true);
      expect(web.filename).toMatch(new RegExp(`^training-${trainings.ownPractice}-\\d{4}-\\d{2}-\\d{2}-seat1`));
      const text = await readable(format, web.bytes);
      expect(text.length).toBeGreaterThan(100);
      // Her own practice has no athlete record: no file fills the seat with the owner's account name.
      expect(text).not.toContain(world.anna.name);
      expect(text).not.toContain(world.anna.email);
      expect(text).not.toContain(".svc");
    },
    60_000,
  );
});
