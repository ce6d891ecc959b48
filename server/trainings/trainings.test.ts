import { randomUUID } from "node:crypto";
import { and, count, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { processTrainingFunction } from "../../inngest/functions/process-training";
import { getBlob } from "../blobs/blob-store";
import type { DbHandle } from "../db/client";
import { eventOutbox, jobRuns, trainingDerived, trainings, trainingSets, trainingSetStrokes, workoutTemplates } from "../db/schema";
import { openTestDb, usePrivateDatabase } from "../../test/support/test-db";
import { drainEmbeddedRuns, relayAppEvents } from "../jobs/embedded-runner";
import { claimNextRun } from "../jobs/run-store";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { PROCESSING_CORE_VERSION } from "../svc/process/version";
import { simulateSession } from "../svc/simulator/simulate";
import { createUser, type SessionUser } from "../users/users";
import { inspectTemplate } from "../workouts/template";
import { createTrainingFromUpload, parseTrainingUploadMetadata, trainingOriginalKey } from "./create-training";
import { markTrainingProcessing, processStoredTraining, TRAINING_FAILURES } from "./process-training";
import { createProcessedTraining, simulatedTrainingFile, vesselIdOf } from "../../test/support/trainings";

const keyring = loadKeyring({});
let handle: DbHandle;
// A database of its own: its work spans the whole database (test/support/test-db.ts usePrivateDatabase).
let dropPrivateDatabase: () => Promise<void> = async () => {};
let coach: SessionUser;
let other: SessionUser;
let k1: number;
const file = simulatedTrainingFile({ spec: "4x250m/60s", vessel: "K1", seed: 11, keyring });

beforeAll(async () => {
  dropPrivateDatabase = await usePrivateDatabase();
  handle = await openTestDb();
  coach = await createUser(handle.db, { name: "Coach", email: `coach-${randomUUID()}@test.example`, password: "long enough password" });
  other = await createUser(handle.db, { name: "Other", email: `other-${randomUUID()}@test.example`, password: "long enough password" });
  k1 = await vesselIdOf(handle.db, "K1");
});
afterAll(async () => {
  await handle.close();
  await dropPrivateDatabase();
});

const upload = (overrides: Partial<Parameters<typeof createTrainingFromUpload>[1]> = {}) =>
  createTrainingFromUpload(handle.db, {
    user: coach,
    createdVia: "web",
    vesselId: k1,
    title: "Tuesday 4x250",
    file: { filename: "tuesday.svc", bytes: file.bytes },
    ...overrides,
  });

const drainTrainings = () => drainEmbeddedRuns(handle.db, { functions: [processTrainingFunction], retryBackoff: () => 0 });
const row = async (id: number) => (await handle.db.select().from(trainings).where(eq(trainings.id, id)))[0];
const setsOf = (id: number) => handle.db.select().from(trainingSets).where(eq(trainingSets.trainingId, id)).orderBy(trainingSets.position);

describe("createTrainingFromUpload", () => {
  let createdId = 0;

  it("stores the original, a queued training and its processing run together", async () => {
    const created = await upload({ sensitivity: 6.5 });
    createdId = created.id;
    expect(created.status).toBe("queued");
    const training = await row(created.id);
    expect(training).toMatchObject({
      ownerUserId: coach.id,
      status: "queued",
      title: "Tuesday 4x250",
      sensitivity: 6.5,
      createdVia: "web",
      processingCoreVersion: null,
      distanceM: null,
      workSetCount: null,
    });
    expect((await getBlob(handle.db, trainingOriginalKey(created.id)))!.bytes.equals(file.bytes)).toBe(true);
    // The processing event is an outbox row committed with the training (docs/jobs.md "Outbox").
    const events = await handle.db.select({ data: eventOutbox.data }).from(eventOutbox).where(eq(eventOutbox.name, "training/stored"));
    expect(events.some((e) => e.data.trainingId === created.id)).toBe(true);
  });

  it("refuses the same file twice for one owner, naming the existing training, and writes nothing", async () => {
    const before = await handle.db.select({ n: count() }).from(trainings).where(eq(trainings.ownerUserId, coach.id));
    const error = await upload({ title: "again" }).catch((e) => e);
    expect(error).toMatchObject({ code: "conflict", details: { existing_training_id: createdId } });
    expect(error.message).toContain(`training ${createdId}`);
    expect(await handle.db.select({ n: count() }).from(trainings).where(eq(trainings.ownerUserId, coach.id))).toEqual(before);
    // Another person may upload the same file.
    const theirs = await createTrainingFromUpload(handle.db, {
      user: other,
      createdVia: "web",
      vesselId: k1,
      file: { filename: "x.svc", bytes: file.bytes },
    });
    expect(theirs.id).not.toBe(createdId);
  });

  it("checks the file name, sensitivity, title, vessel and template before writing", async () => {
    const bytes = Buffer.from("a different file");
    await expect(upload({ file: { filename: "x.fit", bytes } })).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { file: ["The file name must end in .svc"] },
    });
    await expect(upload({ file: { filename: "x.svc", bytes: Buffer.alloc(0) } })).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { file: expect.any(Array) },
    });
    await expect(upload({ file: { filename: "x.svc", bytes }, sensitivity: 10.5 })).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { sensitivity: expect.any(Array) },
    });
    await expect(upload({ file: { filename: "x.svc", bytes }, title: "a\u0000b" })).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { title: expect.any(Array) },
    });
    await expect(upload({ file: { filename: "x.svc", bytes }, vesselId: 2_000_000 })).rejects.toMatchObject({
      code: "invalid",
      fieldErrors: { vessel_id: expect.any(Array) },
    });
    const inspected = inspectTemplate({ version: 1, steps: [{ kind: "work", distance_m: 250 }] });
    const [theirs] = await handle.db
      .insert(workoutTemplates)
      .values({ ownerUserId: other.id, name: "Theirs", template: inspected.template })
      .returning({ id: workoutTemplates.id });
    await expect(upload({ file: { filename: "x.svc", bytes }, templateId: theirs.id })).rejects.toMatchObject({
      code: "invalid",
      message: `workout template ${theirs.id} not found`,
    });
    const viewer = { ...coach, canCreateSessions: false };
    await expect(upload({ user: viewer, file: { filename: "x.svc", bytes } })).rejects.toMatchObject({ code: "forbidden" });
    expect(
      await handle.db
        .select({ n: count() })
        .from(trainings)
        .where(and(eq(trainings.ownerUserId, coach.id), eq(trainings.originalFilename, "x.svc"))),
    ).toEqual([{ n: 0 }]);
  });

  it("is processed by the background function: sets, strokes, facts, status ready and the core version", async () => {
    await drainTrainings();
    const training = await row(createdId);
    expect(training).toMatchObject({ status: "ready", failureCode: null, processingCoreVersion: PROCESSING_CORE_VERSION, workSetCount: 4 });
    expect(training.distanceM).toBeGreaterThan(1000);
    expect(training.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const sets = await setsOf(createdId);
    expect(sets.map((s) => s.kind)).toEqual(["work", "rest", "work", "rest", "work", "rest", "work"]);
    const truthWork = file.truth.sets.filter((s) => s.kind === "work");
    sets
      .filter((s) => s.kind === "work")
      .forEach((s, k) => {
        expect(Math.abs(s.startS - truthWork[k].start_s)).toBeLessThan(1);
        expect(Math.abs(s.strokeCount - truthWork[k].stroke_count)).toBeLessThanOrEqual(1);
      });
    for (const s of sets) {
      const [{ n }] = await handle.db.select({ n: count() }).from(trainingSetStrokes).where(eq(trainingSetStrokes.setId, s.id));
      expect(n).toBe(s.kind === "work" ? s.strokeCount : 0);
    }
    expect(await handle.db.select({ n: count() }).from(trainingDerived).where(eq(trainingDerived.trainingId, createdId))).toEqual([
      { n: 1 },
    ]);
  });
});

describe("processStoredTraining", () => {
  it("matches the sets to the template snapshot taken at upload", async () => {
    const inspected = inspectTemplate({
      version: 1,
      name: "4x250",
      steps: [
        {
          repeat: 4,
          steps: [
            { kind: "work", distance_m: 250 },
            { kind: "rest", duration_s: 60 },
          ],
        },
      ],
    });
    const [template] = await handle.db
      .insert(workoutTemplates)
      .values({ ownerUserId: coach.id, name: "4x250", template: inspected.template })
      .returning({ id: workoutTemplates.id });
    const { id, outcome } = await createProcessedTraining(handle.db, coach, {
      spec: "4x250m/60s",
      seed: 5,
      templateId: template.id,
      keyring,
    });
    expect(outcome).toEqual({ status: "ready", workSetCount: 4, processingCoreVersion: PROCESSING_CORE_VERSION });
    // Editing the template afterwards does not change the training's snapshot.
    await handle.db
      .update(workoutTemplates)
      .set({ template: { version: 1, steps: [] } })
      .where(eq(workoutTemplates.id, template.id));
    expect((await row(id)).templateSnapshot).toEqual(inspected.template);
    const work = (await setsOf(id)).filter((s) => s.kind === "work");
    expect(work.map((s) => s.stepIndex)).toEqual([0, 2, 4, 6]);
    expect(work.map((s) => s.distanceM)).toEqual([250, 250, 250, 250]);
    const [derived] = await handle.db.select().from(trainingDerived).where(eq(trainingDerived.trainingId, id));
    expect(derived.templateMatch).toEqual({ unmatched_steps: [], extra_sets: [] });
  });

  it("ends failed with a stable code and a message for people on a corrupt file", async () => {
    const created = await upload({
      file: { filename: "broken.svc", bytes: Buffer.from("SVC1 but not really a file at all, no no no no no no no no no no") },
    });
    expect(await processStoredTraining(handle.db, created.id, { keyring })).toEqual({ status: "failed", code: "invalid_file" });
    expect(await row(created.id)).toMatchObject({
      status: "failed",
      failureCode: "invalid_file",
      failureMessage: TRAINING_FAILURES.invalid_file,
      processingCoreVersion: null,
      distanceM: null,
    });
    expect(await setsOf(created.id)).toEqual([]);
  });

  it("ends failed with no_sets on a valid recording without a work set", async () => {
    const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", durationMs: 8000, seed: 1, pace: "training" }).content, keyring));
    const created = await upload({ file: { filename: "short.svc", bytes } });
    await drainTrainings();
    expect(await row(created.id)).toMatchObject({ status: "failed", failureCode: "no_sets", failureMessage: TRAINING_FAILURES.no_sets });
  });

  it("reprocessing replaces the sets in one transaction: a failure midway keeps the previous sets whole", async () => {
    const { id } = await createProcessedTraining(handle.db, coach, { spec: "3x200m/60s", seed: 9, keyring });
    const before = await setsOf(id);
    const strokesBefore = await handle.db
      .select({ n: count() })
      .from(trainingSetStrokes)
      .where(
        inArray(
          trainingSetStrokes.setId,
          before.map((s) => s.id),
        ),
      );
    await expect(
      processStoredTraining(handle.db, id, {
        keyring,
        afterWrites: async () => {
          throw new Error("disk full");
        },
      }),
    ).rejects.toThrow("disk full");
    const kept = await setsOf(id);
    expect(kept.map((s) => s.id)).toEqual(before.map((s) => s.id));
    expect(
      await handle.db
        .select({ n: count() })
        .from(trainingSetStrokes)
        .where(
          inArray(
            trainingSetStrokes.setId,
            kept.map((s) => s.id),
          ),
        ),
    ).toEqual(strokesBefore);

    // Sensitivity changed and processed again: a set found with the same kind and bounds keeps its id, any other is a new
    // row; the old rows that were not found again are gone with their strokes, nothing left over.
    await handle.db.update(trainings).set({ sensitivity: 4 }).where(eq(trainings.id, id));
    expect(await processStoredTraining(handle.db, id, { keyring })).toMatchObject({ status: "ready", workSetCount: 3 });
    const after = await setsOf(id);
    expect(after.length).toBe(before.length);
    const same = (a: (typeof before)[number], b: (typeof before)[number]) =>
      a.kind === b.kind && Math.abs(a.startS - b.startS) < 0.0015 && Math.abs(a.endS - b.endS) < 0.0015;
    for (const set of after) {
      const was = before.find((b) => same(b, set));
      if (was) expect(set.id).toBe(was.id);
      else expect(before.some((b) => b.id === set.id)).toBe(false);
    }
    const gone = before.filter((b) => !after.some((s) => s.id === b.id)).map((b) => b.id);
    if (gone.length)
      expect(await handle.db.select({ n: count() }).from(trainingSetStrokes).where(inArray(trainingSetStrokes.setId, gone))).toEqual([
        { n: 0 },
      ]);
    const strokesAfter = await handle.db
      .select({ n: count() })
      .from(trainingSetStrokes)
      .where(
        inArray(
          trainingSetStrokes.setId,
          after.map((s) => s.id),
        ),
      );
    // Work sets store their strokes (a rest only counts them).
    expect(strokesAfter[0].n).toBe(after.reduce((n, s) => n + (s.kind === "work" ? s.strokeCount : 0), 0));
    expect(await row(id)).toMatchObject({ status: "ready", workSetCount: 3 });
  });

  it("a deleted training is a permanent not_found, and the job ends without retrying", async () => {
    const created = await upload({ file: { filename: "gone.svc", bytes: Buffer.from("another file to delete") } });
    await handle.db.delete(trainings).where(and(eq(trainings.id, created.id), eq(trainings.ownerUserId, coach.id)));
    await expect(processStoredTraining(handle.db, created.id, { keyring })).rejects.toMatchObject({ code: "not_found" });
    await drainTrainings();
    const runs = await handle.db
      .select({ status: jobRuns.status, event: jobRuns.event })
      .from(jobRuns)
      .where(eq(jobRuns.functionId, "process-training"));
    const mine = runs.filter((r) => r.event.data.trainingId === created.id);
    expect(mine.map((r) => r.status)).toEqual(["completed"]);
  });
});

describe("process-training after a crash", () => {
  it("a run whose worker died midway is taken over once its lease expires and ends ready", async () => {
    const crashed = simulatedTrainingFile({ spec: "3x150m/40s", vessel: "K1", seed: 77, keyring });
    const created = await upload({ file: { filename: "crash.svc", bytes: crashed.bytes } });
    // A worker claims the run, marks the training processing (its first step), then dies: no step result, no finish.
    let mine = null;
    await relayAppEvents(handle.db);
    for (let k = 0; k < 50 && !mine; k++) {
      const claimed = await claimNextRun(handle.db, { workerId: "worker-that-died", functionIds: ["process-training"], leaseMs: 300 });
      if (!claimed) break;
      if (claimed.event.data.trainingId === created.id) mine = claimed;
    }
    expect(mine).not.toBeNull();
    await markTrainingProcessing(handle.db, created.id);
    expect((await row(created.id)).status).toBe("processing");
    await new Promise((resolve) => setTimeout(resolve, 400));
    await drainTrainings();
    expect(await row(created.id)).toMatchObject({ status: "ready", workSetCount: 3 });
    const [run] = await handle.db.select({ status: jobRuns.status }).from(jobRuns).where(eq(jobRuns.id, mine!.id));
    expect(run.status).toBe("completed");
  });
});

describe("parseTrainingUploadMetadata", () => {
  it("reads the web form's metadata part and names the field of every problem", () => {
    expect(
      parseTrainingUploadMetadata(JSON.stringify({ vessel_id: 1, track_id: null, template_id: 3, title: "x", sensitivity: 2.5 })),
    ).toEqual({
      vesselId: 1,
      crew: null,
      trackId: null,
      athleteId: null,
      templateId: 3,
      title: "x",
      notes: undefined,
      sensitivity: 2.5,
    });
    const fieldOf = (raw: string | undefined) => {
      try {
        parseTrainingUploadMetadata(raw);
        return "accepted";
      } catch (error) {
        return Object.keys((error as { fieldErrors?: object }).fieldErrors ?? { form: 1 })[0];
      }
    };
    expect(fieldOf(undefined)).toBe("form");
    expect(fieldOf("{not json")).toBe("form");
    expect(fieldOf("[1]")).toBe("form");
    expect(fieldOf("{}")).toBe("vessel_id");
    expect(fieldOf(JSON.stringify({ vessel_id: 99999999999 }))).toBe("vessel_id");
    expect(fieldOf(JSON.stringify({ vessel_id: 1, track_id: "1" }))).toBe("track_id");
    expect(fieldOf(JSON.stringify({ vessel_id: 1, title: 5 }))).toBe("title");
    expect(fieldOf(JSON.stringify({ vessel_id: 1, sensitivity: "high" }))).toBe("sensitivity");
  });
});
