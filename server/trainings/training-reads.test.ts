import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { athletes, healthLactate, oauthApplications, trainings, workoutTemplates } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { buildExport } from "../exports/builders";
import { ZTrainingExportDocument } from "../exports/builders/json";
import { listShareableLactate } from "../health/shareable-health";
import { loadKeyring } from "../svc/keyring";
import { parseTrainingSpec } from "../svc/simulator/training";
import { createUser, type SessionUser } from "../users/users";
import { createTrainingFromUpload } from "./create-training";
import { createProcessedTraining, simulatedTrainingFile, vesselIdOf } from "../../test/support/trainings";
import {
  getReadableTraining,
  getReadableWorkSet,
  getSetStrokes,
  getTrainingAthlete,
  getTrainingSets,
  getTrainingTemplate,
  getWorkSets,
  getWorkSetsByIds,
  listTrainingsPage,
  setStrokesPageQuery,
  trainingHeartRateIsSubjects,
  type TrainingAudience,
} from "./training-reads";

const keyring = loadKeyring({});
let handle: DbHandle;
let anna: SessionUser;
let olaf: SessionUser;
let appId: number;
let templated: number;
let plain: number;
let fromApp: number;
let queued: number;
let olafs: number;

const dataOf = (user: SessionUser): TrainingAudience => ({ subjectId: user.id, surface: "data", applicationId: appId });
const sessionSurface = (user: SessionUser): TrainingAudience => ({ subjectId: user.id, surface: "session", applicationId: appId });

beforeAll(async () => {
  handle = await openTestDb();
  const db = handle.db;
  anna = await createUser(db, { name: "Anna Trainer", email: `anna-${randomUUID()}@test.example`, password: "long enough password" });
  olaf = await createUser(db, { name: "Olaf Other", email: `olaf-${randomUUID()}@test.example`, password: "long enough password" });
  [{ id: appId }] = await db
    .insert(oauthApplications)
    .values({
      ownerUserId: anna.id,
      clientId: `test-${randomUUID()}`,
      name: "Logger",
      surface: "session",
      clientType: "public",
      redirectUris: ["https://app.example/cb"],
      scopes: ["trainings:read"],
      reviewStatus: "not_required",
    })
    .returning({ id: oauthApplications.id });
  const steps = parseTrainingSpec("3x250m/60s")!;
  const [template] = await db
    .insert(workoutTemplates)
    .values({
      ownerUserId: anna.id,
      name: "Three 250s",
      template: { version: 1, name: "Three 250s", boat_class: "K1", notes: null, steps },
    })
    .returning({ id: workoutTemplates.id });
  templated = (
    await createProcessedTraining(db, anna, {
      spec: "3x250m/60s",
      seed: 21,
      title: "Tuesday 100% pieces",
      templateId: template.id,
      keyring,
    })
  ).id;
  plain = (await createProcessedTraining(db, anna, { spec: "4x250m/60s", seed: 22, title: "Thursday easy", keyring })).id;
  fromApp = (
    await createProcessedTraining(db, anna, { spec: "3x250m/60s", seed: 23, title: "Logged by app", applicationId: appId, keyring })
  ).id;
  olafs = (await createProcessedTraining(db, olaf, { spec: "3x250m/60s", seed: 24, title: "Olaf pieces", keyring })).id;
  const file = simulatedTrainingFile({ spec: "3x250m/60s", seed: 25, keyring });
  queued = (
    await createTrainingFromUpload(db, {
      user: anna,
      createdVia: "web",
      vesselId: await vesselIdOf(db, "K1"),
      title: "Still queued",
      file: { filename: "q.svc", bytes: file.bytes },
    })
  ).id;
  // Distinct dates, so the order is known: templated oldest, fromApp newest of the processed ones.
  await db
    .update(trainings)
    .set({ date: "2026-03-01", startAt: new Date("2026-03-01T08:00:00Z") })
    .where(eq(trainings.id, templated));
  await db
    .update(trainings)
    .set({ date: "2026-03-05", startAt: new Date("2026-03-05T08:00:00Z") })
    .where(eq(trainings.id, plain));
  await db
    .update(trainings)
    .set({ date: "2026-03-09", startAt: new Date("2026-03-09T08:00:00Z") })
    .where(eq(trainings.id, fromApp));
}, 120_000);
afterAll(async () => {
  await handle.close();
});

describe("the training boundary", () => {
  it("reads the subject's own training and refuses another's with the same not-found as an absent one", async () => {
    expect((await getReadableTraining(handle.db, dataOf(anna), plain)).id).toBe(plain);
    const other = await getReadableTraining(handle.db, dataOf(anna), olafs).catch((e) => e);
    const absent = await getReadableTraining(handle.db, dataOf(anna), 2_000_000_000).catch((e) => e);
    expect(other.code).toBe("not_found");
    expect(other.message).toBe(absent.message);
  });

  it("on the session surface reads only the trainings the calling application created", async () => {
    expect((await getReadableTraining(handle.db, sessionSurface(anna), fromApp)).id).toBe(fromApp);
    expect((await getReadableTraining(handle.db, sessionSurface(anna), plain).catch((e) => e)).code).toBe("not_found");
    const listed = await listTrainingsPage(handle.db, sessionSurface(anna), {}, null, 50);
    expect(listed.map((t) => t.id)).toEqual([fromApp]);
  });
});

describe("listTrainingsPage", () => {
  it("lists the subject's trainings newest first, a queued one by its upload time, never another's", async () => {
    const rows = await listTrainingsPage(handle.db, dataOf(anna), {}, null, 50);
    expect(rows.map((t) => t.id)).toEqual([queued, fromApp, plain, templated]);
    expect(rows[0]).toMatchObject({ status: "queued", date: null, distanceM: null });
  });

  it("pages by keyset without repeats or gaps", async () => {
    const first = await listTrainingsPage(handle.db, dataOf(anna), {}, null, 2);
    const second = await listTrainingsPage(handle.db, dataOf(anna), {}, [first[1].sortKey, first[1].id], 2);
    expect([...first, ...second].map((t) => t.id)).toEqual([queued, fromApp, plain, templated]);
  });

  it("filters by part of the title (LIKE characters taken literally) and by local date", async () => {
    expect((await listTrainingsPage(handle.db, dataOf(anna), { title: "thursday" }, null, 50)).map((t) => t.id)).toEqual([plain]);
    expect((await listTrainingsPage(handle.db, dataOf(anna), { title: "100%" }, null, 50)).map((t) => t.id)).toEqual([templated]);
    expect((await listTrainingsPage(handle.db, dataOf(anna), { title: "%" }, null, 50)).map((t) => t.id)).toEqual([templated]);
    expect(
      (await listTrainingsPage(handle.db, dataOf(anna), { date_from: "2026-03-02", date_to: "2026-03-08" }, null, 50)).map((t) => t.id),
    ).toEqual([plain]);
  });
});

describe("sets", () => {
  it("lists work sets and rests alternating in time order, as many work sets as the practice had", async () => {
    const sets = await getTrainingSets(handle.db, plain);
    expect(sets.map((s) => s.kind)).toEqual(["work", "rest", "work", "rest", "work", "rest", "work"]);
    for (let i = 1; i < sets.length; i++) expect(sets[i].startS).toBeGreaterThanOrEqual(sets[i - 1].endS - 0.01);
    expect((await getWorkSets(handle.db, plain)).every((w) => w.summary.stroke_count === w.strokeCount)).toBe(true);
  });

  it("reads a work set; a rest, another training's set and an absent set are the same not-found", async () => {
    const sets = await getTrainingSets(handle.db, plain);
    const work = sets.find((s) => s.kind === "work")!;
    const rest = sets.find((s) => s.kind === "rest")!;
    const otherWork = (await getTrainingSets(handle.db, templated)).find((s) => s.kind === "work")!;
    expect((await getReadableWorkSet(handle.db, dataOf(anna), plain, work.id)).set.id).toBe(work.id);
    for (const [trainingId, setId] of [
      [plain, rest.id],
      [plain, otherWork.id],
      [plain, 2_000_000_000],
      [olafs, (await getTrainingSets(handle.db, olafs))[0].id],
    ]) {
      const error = await getReadableWorkSet(handle.db, dataOf(anna), trainingId, setId).catch((e) => e);
      expect(error.code).toBe("not_found");
    }
    expect((await getWorkSetsByIds(handle.db, plain, [work.id, rest.id, otherWork.id])).map((s) => s.id)).toEqual([work.id]);
  });

  it("pages a set's strokes in order; catch times fall inside the set", async () => {
    const work = (await getWorkSets(handle.db, plain))[1];
    const all = await getSetStrokes(handle.db, work.id);
    expect(all.length).toBe(work.strokeCount);
    const first = await setStrokesPageQuery(handle.db, work.id, null, 5);
    const next = await setStrokesPageQuery(handle.db, work.id, first[4].index, 5);
    expect([...first, ...next].map((s) => s.index)).toEqual(all.slice(0, 10).map((s) => s.index));
    for (const s of all) {
      expect(s.catchS).toBeGreaterThanOrEqual(work.startS - 0.01);
      expect(s.catchS).toBeLessThanOrEqual(work.endS + 0.01);
    }
  });
});

describe("template, paddler and heart rate", () => {
  it("returns the template snapshot with its live id, null without one", async () => {
    const template = await getTrainingTemplate(handle.db, templated, anna.id);
    expect(template?.template.steps.filter((s) => s.kind === "work")).toHaveLength(3);
    expect(template?.id).not.toBeNull();
    expect(await getTrainingTemplate(handle.db, plain, anna.id)).toBeNull();
  });

  it("heart rate is the subject's only for their own practice or their own athlete record", async () => {
    const row = await getReadableTraining(handle.db, dataOf(anna), plain);
    expect(trainingHeartRateIsSubjects(row, await getTrainingAthlete(handle.db, dataOf(anna), row), anna.id)).toBe(true);
    const [ben] = await handle.db
      .insert(athletes)
      .values({ ownerUserId: anna.id, name: "Ben", surname: "Managed" })
      .returning({ id: athletes.id });
    await handle.db.update(trainings).set({ athleteId: ben.id }).where(eq(trainings.id, plain));
    const withBen = await getReadableTraining(handle.db, dataOf(anna), plain);
    const seen = await getTrainingAthlete(handle.db, dataOf(anna), withBen);
    expect(seen?.athlete).toEqual({ id: ben.id, name: "Ben Managed" });
    expect(trainingHeartRateIsSubjects(withBen, seen, anna.id)).toBe(false);
    // Off the data surface a managed athlete has no identity.
    expect((await getTrainingAthlete(handle.db, sessionSurface(anna), withBen))?.athlete).toBeNull();
    await handle.db.update(trainings).set({ athleteId: null }).where(eq(trainings.id, plain));
  });
});

describe("lactate of a training", () => {
  it("filters the subject's readings by training", async () => {
    await handle.db.insert(healthLactate).values([
      { userId: anna.id, trainingId: plain, measuredAt: new Date("2026-03-05T08:30:00Z"), lactateMmolL: 6.1, provenance: "manual" },
      { userId: anna.id, trainingId: templated, measuredAt: new Date("2026-03-01T08:30:00Z"), lactateMmolL: 3.3, provenance: "manual" },
    ]);
    const rows = await listShareableLactate(handle.db, anna.id, { trainingId: plain }, { after: null, take: 10 });
    expect(rows.map((r) => r.lactateMmolL)).toEqual([6.1]);
  });
});

describe("a training as an export source", () => {
  const options = { athlete: 1 as const, splits: 4, lang: "en" as const, mode: "full" as const, healthAllowed: true };

  it("JSON: a training document with one lap per set and each work set's own splits", async () => {
    const file = await buildExport(handle.db, { kind: "training", trainingId: plain }, { userId: anna.id }, { ...options, format: "json" });
    expect(file.filename).toMatch(new RegExp(`^training-${plain}-2026-03-05-seat1\\.json$`));
    const doc = ZTrainingExportDocument.parse(JSON.parse(new TextDecoder().decode(file.bytes)));
    expect(doc.format).toBe("paddle-results.training-export");
    expect(doc.source).toEqual({ kind: "training", training_id: plain });
    expect(doc.timeline.intervals).toHaveLength(7);
    expect(doc.training.sets).toHaveLength(7);
    expect(doc.set_splits).toHaveLength(4);
    expect(doc.set_splits.every((s) => s.splits.length === 4)).toBe(true);
    expect(doc.lactate?.map((l) => l.lactate_mmol_l)).toEqual([6.1]);
    const times = doc.strokes.map((s) => s.time_s);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("FIT and TCX carry one lap per set; PDF and XLSX build", async () => {
    const tcx = new TextDecoder().decode(
      (await buildExport(handle.db, { kind: "training", trainingId: plain }, { userId: anna.id }, { ...options, format: "tcx" })).bytes,
    );
    expect(tcx.match(/<Lap /g)).toHaveLength(7);
    for (const format of ["fit", "pdf", "pdf-full", "xlsx"] as const) {
      const file = await buildExport(handle.db, { kind: "training", trainingId: plain }, { userId: anna.id }, { ...options, format });
      expect(file.bytes.byteLength).toBeGreaterThan(500);
    }
  }, 60_000);

  it("refuses another seat, another person's training and a training not processed yet", async () => {
    expect(
      (
        await buildExport(
          handle.db,
          { kind: "training", trainingId: plain },
          { userId: anna.id },
          { ...options, athlete: 2, format: "json" },
        ).catch((e) => e)
      ).code,
    ).toBe("not_found");
    expect(
      (
        await buildExport(handle.db, { kind: "training", trainingId: olafs }, { userId: anna.id }, { ...options, format: "json" }).catch(
          (e) => e,
        )
      ).code,
    ).toBe("not_found");
    expect(
      (
        await buildExport(handle.db, { kind: "training", trainingId: queued }, { userId: anna.id }, { ...options, format: "json" }).catch(
          (e) => e,
        )
      ).code,
    ).toBe("conflict");
  });
});
