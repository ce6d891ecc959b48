import { randomUUID } from "node:crypto";
import { and, asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athletes, trainingDerived, trainings, trainingSetCorrections, trainingSets, trainingSetStrokes } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { AppError } from "../errors";
import { loadTrainingModel } from "../exports/training-export-source";
import {
  beginReprocessRun,
  finishReprocessRun,
  getActiveReprocessRun,
  reprocessNextBatch,
  startReprocessRun,
  stopReprocessRun,
} from "../reprocess/reprocess-runs";
import { loadKeyring } from "../svc/keyring";
import { PROCESSING_CORE_VERSION } from "../svc/process/version";
import { createUser, type SessionUser } from "../users/users";
import { processStoredTraining } from "./process-training";
import { correctTrainingSets, markTrainingReviewed, undoSetCorrection } from "./set-corrections";
import type { LayoutSet } from "./set-layout";
import { createTrainingFromUpload } from "./create-training";
import { createProcessedTraining, simulatedTrainingFile, vesselIdOf } from "../../test/support/trainings";

const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let paddler: SessionUser;
let stranger: SessionUser;
let athleteId: number;

beforeAll(async () => {
  handle = await openTestDb();
  const account = (label: string) =>
    createUser(handle.db, { name: label, email: `${label}-${randomUUID()}@test.example`, password: "long enough password" });
  coach = await account("coach");
  paddler = await account("paddler");
  stranger = await account("stranger");
  athleteId = (await createAthlete(handle.db, coach.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" })).id;
  await handle.db.update(athletes).set({ userId: paddler.id }).where(eq(athletes.id, athleteId));
});
afterAll(async () => {
  await handle.close();
});

const setsOf = (id: number) =>
  handle.db.select().from(trainingSets).where(eq(trainingSets.trainingId, id)).orderBy(asc(trainingSets.position));
const strokeCount = async (setId: number) =>
  (await handle.db.select({ n: count() }).from(trainingSetStrokes).where(eq(trainingSetStrokes.setId, setId)))[0].n;
const corrections = (id: number) =>
  handle.db.select().from(trainingSetCorrections).where(eq(trainingSetCorrections.trainingId, id)).orderBy(asc(trainingSetCorrections.id));
const training = async (id: number) => (await handle.db.select().from(trainings).where(eq(trainings.id, id)))[0];
let seed = 40;
// Each a different file (the same file twice is refused); the seeds are fixed so a failure repeats.
const fresh = async (spec = "4x250m/60s") =>
  (await createProcessedTraining(handle.db, coach, { spec, seed: ++seed, athleteId, keyring })).id;
const shape = (sets: { kind: string }[]) => sets.map((s) => (s.kind === "work" ? "W" : "R")).join("");
const expectAppError = async (promise: Promise<unknown>, code: AppError["code"], message?: RegExp) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  if (message) expect((error as AppError).message).toMatch(message);
};

describe("set corrections", () => {
  it("merges two work sets with the rest between: the first keeps its id, figures are measured again, the correction names who and when", async () => {
    const id = await fresh();
    const before = await setsOf(id);
    expect(shape(before)).toBe("WRWRWRW");
    expect(before.every((s) => !s.corrected)).toBe(true);
    const at = new Date("2026-11-27T10:00:00Z");
    const outcome = await correctTrainingSets(
      handle.db,
      coach.id,
      id,
      { op: "merge", set_id: before[0].id, with_set_id: before[2].id },
      { keyring, now: at },
    );
    const after = await setsOf(id);
    expect(shape(after)).toBe("WRWRW");
    expect(after[0].id).toBe(before[0].id);
    expect(after.slice(1).map((s) => s.id)).toEqual(before.slice(3).map((s) => s.id));
    expect(after[0]).toMatchObject({ startS: before[0].startS, endS: before[2].endS, corrected: true });
    expect(after.slice(1).every((s) => !s.corrected)).toBe(true);
    // Measured again: the merged set covers both pieces and the rest.
    expect(Math.abs(after[0].distanceM - (before[0].distanceM + before[1].distanceM + before[2].distanceM))).toBeLessThanOrEqual(2);
    expect(after[0].strokeCount).toBeGreaterThanOrEqual(before[0].strokeCount + before[2].strokeCount);
    expect(await strokeCount(after[0].id)).toBe(after[0].strokeCount);
    expect((after[0].summary as { stroke_count: number }).stroke_count).toBe(after[0].strokeCount);
    expect((await training(id)).workSetCount).toBe(3);
    expect(outcome).toMatchObject({ workSetCount: 3 });
    const [stored] = await corrections(id);
    expect(stored).toMatchObject({
      userId: coach.id,
      createdAt: at,
      undoneAt: null,
      operation: { op: "merge", set_id: before[0].id, with_set_id: before[2].id },
    });
  });

  it("splits a set at a chosen time (a new set after, the first keeps its id) and undo brings back the exact sets and ids", async () => {
    const id = await fresh();
    const before = await setsOf(id);
    await correctTrainingSets(handle.db, coach.id, id, { op: "split", set_id: before[2].id, at_s: 20 }, { keyring });
    const split = await setsOf(id);
    expect(shape(split)).toBe("WRWWRWRW");
    expect(split[2]).toMatchObject({ id: before[2].id, corrected: true });
    expect(split[3].id).toBeGreaterThan(Math.max(...before.map((s) => s.id)));
    expect(split[2].endS).toBeCloseTo(before[2].startS + 20, 3);
    expect(split[3]).toMatchObject({ startS: split[2].endS, endS: before[2].endS, kind: "work", corrected: true });
    // Each part's duration is rounded to the millisecond on its own, so the parts may sum 1 ms off the whole.
    expect(Math.abs(split[2].durationMs + split[3].durationMs - before[2].durationMs)).toBeLessThanOrEqual(1);
    expect(split[2].strokeCount + split[3].strokeCount).toBe(before[2].strokeCount);
    expect((await training(id)).workSetCount).toBe(5);

    await undoSetCorrection(handle.db, paddler.id, id, { keyring });
    const undone = await setsOf(id);
    expect(undone.map((s) => [s.id, s.kind, s.startS, s.endS, s.distanceM, s.strokeCount, s.corrected])).toEqual(
      before.map((s) => [s.id, s.kind, s.startS, s.endS, s.distanceM, s.strokeCount, false]),
    );
    const [stored] = await corrections(id);
    expect(stored.undoneByUserId).toBe(paddler.id);
    expect(stored.undoneAt).not.toBeNull();
    await expectAppError(undoSetCorrection(handle.db, coach.id, id, { keyring }), "conflict", /no correction to undo/);
  });

  it("moves a boundary to a stroke, and undo after a merge brings the merged-away set back with its id", async () => {
    const id = await fresh();
    const before = await setsOf(id);
    const [derived] = await handle.db
      .select({ catches: trainingDerived.strokeCatches })
      .from(trainingDerived)
      .where(eq(trainingDerived.trainingId, id));
    const catches = derived.catches as number[];
    // The first stroke of the rest after work 1 (a light stroke the crew took on): the end moves to it.
    const inRest = catches.find((c) => c > before[1].startS + 5 && c < before[1].endS - 5)!;
    expect(inRest).toBeDefined();
    await correctTrainingSets(handle.db, coach.id, id, { op: "move", set_id: before[0].id, edge: "end", to_s: inRest }, { keyring });
    const moved = await setsOf(id);
    expect(shape(moved)).toBe("WRWRWRW");
    expect(moved[0]).toMatchObject({ id: before[0].id, endS: inRest, corrected: true });
    expect(moved[1]).toMatchObject({ id: before[1].id, startS: inRest, endS: before[1].endS, corrected: true });
    expect(moved[0].durationMs).toBeGreaterThan(before[0].durationMs);
    // Not a stroke: refused, nothing written.
    await expectAppError(
      correctTrainingSets(handle.db, coach.id, id, { op: "move", set_id: before[0].id, edge: "end", to_s: inRest + 0.2345 }, { keyring }),
      "invalid",
      /stroke/,
    );

    await correctTrainingSets(handle.db, coach.id, id, { op: "merge", set_id: before[2].id, with_set_id: before[4].id }, { keyring });
    expect(shape(await setsOf(id))).toBe("WRWRW");
    await undoSetCorrection(handle.db, coach.id, id, { keyring });
    expect((await setsOf(id)).map((s) => s.id)).toEqual(before.map((s) => s.id));
  });

  it("marks a work set as rest (the rests around it become one) and a rest as work", async () => {
    const id = await fresh();
    const before = await setsOf(id);
    await correctTrainingSets(handle.db, coach.id, id, { op: "mark", set_id: before[2].id, kind: "rest" }, { keyring });
    const marked = await setsOf(id);
    expect(shape(marked)).toBe("WRWRW");
    expect(marked[1]).toMatchObject({
      id: before[1].id,
      kind: "rest",
      startS: before[1].startS,
      endS: before[3].endS,
      corrected: true,
      summary: null,
    });
    expect(await strokeCount(marked[1].id)).toBe(0);
    expect((await training(id)).workSetCount).toBe(3);

    await correctTrainingSets(handle.db, coach.id, id, { op: "mark", set_id: marked[3].id, kind: "work" }, { keyring });
    const work = await setsOf(id);
    expect(shape(work)).toBe("WRWWW");
    expect(work[3]).toMatchObject({ id: marked[3].id, kind: "work", corrected: true });
    expect(await strokeCount(work[3].id)).toBe(work[3].strokeCount);
    expect((work[3].summary as { distance_m: number } | null)?.distance_m).toBe(work[3].distanceM);
  });

  it("lets the owner and the paddler correct; a coach who only sees it gets 403, anyone else 404 like a missing training", async () => {
    const id = await fresh();
    const before = await setsOf(id);
    await expectAppError(
      correctTrainingSets(handle.db, stranger.id, id, { op: "mark", set_id: before[0].id, kind: "rest" }, { keyring }),
      "not_found",
    );
    await expectAppError(
      correctTrainingSets(handle.db, coach.id, 2_000_000_000, { op: "mark", set_id: before[0].id, kind: "rest" }, { keyring }),
      "not_found",
    );
    await expectAppError(undoSetCorrection(handle.db, stranger.id, id, { keyring }), "not_found");
    // The paddler's own upload: the coach who manages the paddler sees it but may not correct it.
    const own = (await createProcessedTraining(handle.db, paddler, { spec: "3x200m/45s", seed: 5, athleteId, keyring })).id;
    const ownSets = await setsOf(own);
    await expectAppError(
      correctTrainingSets(handle.db, coach.id, own, { op: "split", set_id: ownSets[0].id, at_s: 10 }, { keyring }),
      "forbidden",
      /owner and its paddler/,
    );
    await expectAppError(markTrainingReviewed(handle.db, coach.id, own), "forbidden");
    await correctTrainingSets(handle.db, paddler.id, id, { op: "split", set_id: before[0].id, at_s: 10 }, { keyring });
    expect((await corrections(id))[0].userId).toBe(paddler.id);
  });

  it("answers 409 for a training that is not processed yet", async () => {
    const { bytes } = simulatedTrainingFile({ spec: "2x200m/45s", seed: 77, keyring });
    const queued = await createTrainingFromUpload(handle.db, {
      user: coach,
      createdVia: "web",
      vesselId: await vesselIdOf(handle.db, "K1"),
      title: "queued",
      file: { filename: "queued.svc", bytes },
    });
    await expectAppError(
      correctTrainingSets(handle.db, coach.id, queued.id, { op: "mark", set_id: 1, kind: "rest" }, { keyring }),
      "conflict",
      /once the training is processed/,
    );
    await expectAppError(undoSetCorrection(handle.db, coach.id, queued.id, { keyring }), "conflict");
  });

  it("refuses bad input with a clear message and writes nothing", async () => {
    const id = await fresh();
    const before = await setsOf(id);
    const other = await fresh("3x200m/45s");
    const otherSets = await setsOf(other);
    const bad: [unknown, RegExp][] = [
      [{ op: "split", set_id: before[0].id, at_s: 0.5 }, /at least 1 s on each side/],
      [{ op: "split", set_id: before[0].id, at_s: 10_000 }, /at least 1 s on each side/],
      [{ op: "merge", set_id: before[0].id, with_set_id: before[4].id }, /neighbouring/],
      [{ op: "merge", set_id: before[0].id, with_set_id: before[0].id }, /itself/],
      [{ op: "mark", set_id: before[0].id, kind: "work" }, /already a work set/],
      [{ op: "mark", set_id: otherSets[0].id, kind: "rest" }, /not a set of this training/],
      [{ op: "move", set_id: before[2].id, edge: "start", to_s: before[0].startS }, /set before/],
      [{ op: "explode", set_id: before[0].id }, /Not a set correction/],
      [{ op: "split", set_id: "1; drop table", at_s: 3 }, /Not a set correction/],
      [{ op: "split", set_id: before[0].id, at_s: Number.NaN }, /Not a set correction/],
      [null, /Not a set correction/],
    ];
    for (const [input, message] of bad)
      await expectAppError(correctTrainingSets(handle.db, coach.id, id, input, { keyring }), "invalid", message);
    // Marking the only work sets as rest one by one: the last one stays.
    const single = (await createProcessedTraining(handle.db, coach, { spec: "1x250m/60s", seed: 3, keyring })).id;
    const singleSets = await setsOf(single);
    await expectAppError(
      correctTrainingSets(handle.db, coach.id, single, { op: "mark", set_id: singleSets[0].id, kind: "rest" }, { keyring }),
      "invalid",
      /at least one work set/,
    );
    // A failure after every write rolls all of it back.
    await expect(
      correctTrainingSets(
        handle.db,
        coach.id,
        id,
        { op: "merge", set_id: before[0].id, with_set_id: before[2].id },
        {
          keyring,
          afterWrites: async () => {
            throw new Error("disk full");
          },
        },
      ),
    ).rejects.toThrow("disk full");
    const after = await setsOf(id);
    expect(after.map((s) => [s.id, s.startS, s.endS, s.distanceM, s.corrected])).toEqual(
      before.map((s) => [s.id, s.startS, s.endS, s.distanceM, s.corrected]),
    );
    expect(await corrections(id)).toHaveLength(0);
    expect((await training(id)).workSetCount).toBe(4);
  });

  it("serves the corrected sets to the export, with corrected members and needs_review", async () => {
    const id = await fresh();
    const before = await setsOf(id);
    await correctTrainingSets(handle.db, coach.id, id, { op: "merge", set_id: before[0].id, with_set_id: before[2].id }, { keyring });
    const model = (await loadTrainingModel(
      handle.db,
      id,
      { userId: coach.id, application: null } as never,
      { mode: "full", athlete: 1, splits: 4, healthAllowed: false } as never,
    )) as Extract<Awaited<ReturnType<typeof loadTrainingModel>>, { training: unknown }>;
    const detail = model.training.detail as { needs_review: boolean; sets: { set_id: number; corrected: boolean }[] };
    expect(detail.needs_review).toBe(false);
    expect(detail.sets.map((s) => [s.set_id, s.corrected])).toEqual((await setsOf(id)).map((s) => [s.id, s.corrected]));
    expect(detail.sets[0]).toMatchObject({ set_id: before[0].id, corrected: true });
    expect(model.training.timeline.intervals).toHaveLength(5);
    expect(model.training.timeline.intervals[0].corrected).toBe(true);
  });
});

describe("reprocessing a corrected training", () => {
  /** Pretends the correction was made on an older core's detection whose bounds lay `shiftS` away from today's. */
  const shiftBefore = async (trainingId: number, shiftS: number) => {
    for (const c of await corrections(trainingId)) {
      const before = (c.before as LayoutSet[]).map((s) => ({ ...s, start_s: s.start_s + shiftS, end_s: s.end_s + shiftS }));
      await handle.db.update(trainingSetCorrections).set({ before }).where(eq(trainingSetCorrections.id, c.id));
    }
  };

  it("re-applies corrections whose sets lie within 2 s of the new detection: same sets, same ids, no review", async () => {
    const id = await fresh();
    const before = await setsOf(id);
    await correctTrainingSets(handle.db, coach.id, id, { op: "merge", set_id: before[0].id, with_set_id: before[2].id }, { keyring });
    await correctTrainingSets(handle.db, coach.id, id, { op: "split", set_id: before[4].id, at_s: 15 }, { keyring });
    const corrected = await setsOf(id);
    await shiftBefore(id, 1.5);
    expect((await processStoredTraining(handle.db, id, { keyring })).status).toBe("ready");
    const after = await setsOf(id);
    expect(after.map((s) => [s.id, s.kind, s.startS, s.endS, s.corrected])).toEqual(
      corrected.map((s) => [s.id, s.kind, s.startS, s.endS, s.corrected]),
    );
    expect((await training(id)).needsReview).toBe(false);
    expect(await corrections(id)).toHaveLength(2);
  });

  it("keeps the corrected sets and asks for a review when a correction no longer fits the new detection, through the reprocessing run", async () => {
    const id = await fresh();
    const before = await setsOf(id);
    await correctTrainingSets(handle.db, coach.id, id, { op: "split", set_id: before[2].id, at_s: 20 }, { keyring });
    const corrected = await setsOf(id);
    await shiftBefore(id, 3);
    // An older core's figures: the run reprocesses this training.
    await handle.db
      .update(trainings)
      .set({ processingCoreVersion: PROCESSING_CORE_VERSION - 1 })
      .where(eq(trainings.id, id));
    // A run another test file left active on this database is ended first (only one may run).
    const active = await getActiveReprocessRun(handle.db);
    if (active) await stopReprocessRun(handle.db, { userId: null, via: "cli" }, { runId: active.id, reason: "set-corrections test" });
    const run = await startReprocessRun(handle.db, { requestedByUserId: null, via: "cli", batchSize: 500 });
    await beginReprocessRun(handle.db, run.id);
    for (let k = 0; k < 50 && !(await reprocessNextBatch(handle.db, run.id, { keyring })).finished; k++);
    await finishReprocessRun(handle.db, run.id);
    const t = await training(id);
    expect(t).toMatchObject({ status: "ready", processingCoreVersion: PROCESSING_CORE_VERSION, needsReview: true });
    const after = await setsOf(id);
    expect(after.map((s) => [s.id, s.kind, s.startS, s.endS, s.corrected])).toEqual(
      corrected.map((s) => [s.id, s.kind, s.startS, s.endS, s.corrected]),
    );
    expect(await corrections(id)).toHaveLength(1);
    // The person looks and keeps them; a new correction or an undo clears it too.
    await markTrainingReviewed(handle.db, coach.id, id);
    expect((await training(id)).needsReview).toBe(false);
    await handle.db
      .update(trainings)
      .set({ needsReview: true })
      .where(and(eq(trainings.id, id)));
    await undoSetCorrection(handle.db, coach.id, id, { keyring });
    expect((await training(id)).needsReview).toBe(false);
  });
});
