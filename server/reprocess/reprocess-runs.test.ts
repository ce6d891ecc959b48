import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, count, eq, inArray, lt, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { reprocessStoredFilesFunction } from "../../inngest/functions/reprocess-stored-files";
import { runAdminCommand } from "../admin/admin-cli";
import { openDb, type Db, type DbHandle } from "../db/client";
import { stageBlob } from "../blobs/blob-store";
import {
  blobs,
  operatorActions,
  reprocessRunFailures,
  reprocessRuns,
  resultDerived,
  results,
  resultStrokes,
  trainings,
  trainingSets,
} from "../db/schema";
import { openTestDb, usePrivateDatabase } from "../../test/support/test-db";
import { drainEmbeddedRuns } from "../jobs/embedded-runner";
import { sendEvent } from "../events/send-event";
import { resultBlobPrefix } from "../results/delete-result";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { PROCESSING_CORE_VERSION } from "../svc/process/version";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { trainingOriginalKey } from "../trainings/create-training";
import { createProcessedTraining } from "../../test/support/trainings";
import { createUser, type SessionUser } from "../users/users";
import {
  beginReprocessRun,
  failReprocessRun,
  finishReprocessRun,
  getActiveReprocessRun,
  getReprocessRun,
  isActiveReprocessState,
  listReprocessFailures,
  reprocessNextBatch,
  startReprocessRun,
  stopReprocessRun,
} from "./reprocess-runs";

/**
 * Reprocessing runs on a real database. The runs cover every stored result
 * in it (other test files' too, on a shared Postgres), so the assertions are
 * about this file's own results and the counters' invariants.
 */
const keyring = loadKeyring({});
let handle: DbHandle;
// A database of its own: its work spans the whole database (test/support/test-db.ts usePrivateDatabase).
let dropPrivateDatabase: () => Promise<void> = async () => {};
let db: Db;
let coach: SessionUser;
let trackId: number;
let seed = 500;

async function upload(): Promise<number> {
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: seed++ }).content, keyring));
  const metadata = JSON.stringify({
    distance: 200,
    vessel_id: 1,
    track_id: trackId,
    category_id: 1,
    pace_id: 1,
    athletes: [{ name: "Guest" }],
  });
  return (
    await uploadResult(db, { user: coach, createdVia: "web", keyPairId: null, file: { filename: "s.svc", bytes }, metadata }, { keyring })
  ).id;
}

/** What an older core left: its version, figures that differ from today's, fewer strokes. */
async function makeOld(resultId: number, version: number | null) {
  await db
    .update(resultDerived)
    .set({ processingCoreVersion: version, summary: { old: true } })
    .where(eq(resultDerived.resultId, resultId));
  await db.delete(resultStrokes).where(and(eq(resultStrokes.resultId, resultId), eq(resultStrokes.strokeIndex, 0)));
  await db.update(results).set({ distanceM: 1 }).where(eq(results.id, resultId));
}

async function figures(resultId: number) {
  const [derived] = await db
    .select({ version: resultDerived.processingCoreVersion, summary: resultDerived.summary })
    .from(resultDerived)
    .where(eq(resultDerived.resultId, resultId));
  const [strokes] = await db.select({ n: count() }).from(resultStrokes).where(eq(resultStrokes.resultId, resultId));
  const [result] = await db.select({ distanceM: results.distanceM }).from(results).where(eq(results.id, resultId));
  return { version: derived.version, summary: derived.summary as Record<string, unknown>, strokes: strokes.n, distanceM: result.distanceM };
}

/** Works the run to its end; on a shared Postgres another test file's drain may have claimed it, so wait for its final state too. */
async function workRun(runId: number) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    await drainEmbeddedRuns(db, { functions: [reprocessStoredFilesFunction], retryBackoff: () => 0 });
    const run = await getReprocessRun(db, runId);
    if (!isActiveReprocessState(run.state)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${run.state}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  dropPrivateDatabase = await usePrivateDatabase();
  handle = await openTestDb();
  db = handle.db;
  coach = await createUser(
    db,
    { name: "Operator coach", email: `reprocess-${randomUUID()}@test.example`, password: "long enough password" },
    { unlimitedExternals: true },
  );
  trackId = (await createTrack(db, coach.id, { name: "Basin" })).id;
});
afterAll(async () => {
  await handle.close();
  await dropPrivateDatabase();
});

describe("upload and correction record the core version", () => {
  it("stores PROCESSING_CORE_VERSION on a new result", async () => {
    const id = await upload();
    expect((await figures(id)).version).toBe(PROCESSING_CORE_VERSION);
  });
});

/** Points a stored file's key at other bytes (a damaged original). */
async function replaceBlobBytes(key: string, text: string) {
  const content = await stageBlob(db, Buffer.from(text));
  await db.update(blobs).set({ sha256: content.sha256, byteSize: content.byteSize }).where(eq(blobs.key, key));
}

describe("a reprocessing run", () => {
  it("replaces older and unknown figures, skips current ones, records a failing item and goes on", { timeout: 120_000 }, async () => {
    const [older, unknown, corrupt, current] = [await upload(), await upload(), await upload(), await upload()];
    const fresh = await figures(older);
    const freshUnknown = await figures(unknown);
    await makeOld(older, 1);
    await makeOld(unknown, null);
    await makeOld(corrupt, 1);
    await replaceBlobBytes(`${resultBlobPrefix(corrupt)}original.svc`, "not a session file");
    const currentBefore = await figures(current);

    const run = await startReprocessRun(db, { requestedByUserId: coach.id, via: "web" });
    expect(run).toMatchObject({ state: "queued", targetCoreVersion: PROCESSING_CORE_VERSION });
    // One active run, enforced by the database.
    await expect(startReprocessRun(db, { requestedByUserId: coach.id, via: "cli" })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining(`run ${run.id}`),
    });

    const finished = await workRun(run.id);
    expect(finished.state).toBe("completed");
    expect(finished.done + finished.failed + finished.skipped).toBe(finished.total);
    expect(finished.done).toBeGreaterThanOrEqual(2);
    expect(finished.failed).toBeGreaterThanOrEqual(1);
    expect(finished.skipped).toBeGreaterThanOrEqual(1);
    expect(finished.finishedAt).not.toBeNull();

    // Today's figures again, exactly as an upload makes them.
    expect(await figures(older)).toEqual(fresh);
    expect(await figures(unknown)).toEqual(freshUnknown);
    expect(await figures(current)).toEqual(currentBefore);
    // The failing item keeps its previous figures and says why.
    expect(await figures(corrupt)).toMatchObject({ version: 1, summary: { old: true } });
    const failures = await listReprocessFailures(db, run.id);
    expect(failures).toContainEqual({
      itemKind: "result",
      itemId: corrupt,
      error: expect.stringMatching(/^file corrupt, truncated or not a valid device session/),
    });
    expect(failures.map((f) => f.itemId)).not.toContain(older);

    // Finished: a new run may start, and finds nothing of ours to do but the corrupt file.
    const again = await startReprocessRun(db, { requestedByUserId: coach.id, via: "web" });
    await workRun(again.id);
    expect((await listReprocessFailures(db, again.id)).map((f) => f.itemId)).toContain(corrupt);
    expect(await figures(older)).toEqual(fresh);
  });

  it(
    "replaces an item's figures in one transaction: a failure at the last moment leaves the previous ones whole, and the step resumes",
    { timeout: 120_000 },
    async () => {
      const id = await upload();
      const fresh = await figures(id);
      await makeOld(id, 1);
      const old = await figures(id);

      const run = await startReprocessRun(db, { requestedByUserId: null, via: "cli", batchSize: 1000 });
      expect(await beginReprocessRun(db, run.id)).toEqual({ state: "running" });
      // Idempotent start: a repeated step changes nothing.
      expect(await beginReprocessRun(db, run.id)).toEqual({ state: "running" });
      const failAt = async (_tx: Db, resultId: number) => {
        if (resultId === id) throw new Error("connection lost at commit");
      };
      await expect(reprocessNextBatch(db, run.id, { keyring, beforeCommit: failAt })).rejects.toThrow("connection lost at commit");
      expect(await figures(id)).toEqual(old);
      const [row] = await db.select({ lastResultId: reprocessRuns.lastResultId }).from(reprocessRuns).where(eq(reprocessRuns.id, run.id));
      expect(row.lastResultId).toBeLessThan(id);

      // The retried step starts after the last committed item and finishes the run.
      for (;;) if ((await reprocessNextBatch(db, run.id, { keyring })).finished) break;
      await finishReprocessRun(db, run.id);
      expect(await figures(id)).toEqual(fresh);
      const done = await getReprocessRun(db, run.id);
      expect(done.state).toBe("completed");
      expect(done.done + done.failed + done.skipped).toBe(done.total);
    },
  );

  it(
    "reprocesses trainings after the results: older ones replaced with their sets, one the core refuses keeps its figures",
    { timeout: 180_000 },
    async () => {
      const older = await createProcessedTraining(db, coach, { spec: "3x250m/60s", seed: 31, keyring });
      const refused = await createProcessedTraining(db, coach, { spec: "3x250m/60s", seed: 32, keyring });
      expect(older.outcome.status).toBe("ready");
      const setsOf = async (id: number) => (await db.select({ n: count() }).from(trainingSets).where(eq(trainingSets.trainingId, id)))[0].n;
      const trainingRow = async (id: number) =>
        (
          await db
            .select({ status: trainings.status, version: trainings.processingCoreVersion })
            .from(trainings)
            .where(eq(trainings.id, id))
        )[0];
      const olderSets = await setsOf(older.id);
      const refusedSets = await setsOf(refused.id);
      await db
        .update(trainings)
        .set({ processingCoreVersion: 1 })
        .where(inArray(trainings.id, [older.id, refused.id]));
      await db.delete(trainingSets).where(and(eq(trainingSets.trainingId, older.id), eq(trainingSets.position, 1)));
      await replaceBlobBytes(trainingOriginalKey(refused.id), "damaged");

      const run = await startReprocessRun(db, { requestedByUserId: coach.id, via: "web", batchSize: 5 });
      const finished = await workRun(run.id);
      expect(finished.state).toBe("completed");
      expect(finished.done + finished.failed + finished.skipped).toBe(finished.total);

      expect(await trainingRow(older.id)).toEqual({ status: "ready", version: PROCESSING_CORE_VERSION });
      expect(await setsOf(older.id)).toBe(olderSets);
      // Refused by today's core: recorded, and its sets and version stay as they were.
      expect(await trainingRow(refused.id)).toEqual({ status: "ready", version: 1 });
      expect(await setsOf(refused.id)).toBe(refusedSets);
      expect(await listReprocessFailures(db, run.id)).toContainEqual({
        itemKind: "training",
        itemId: refused.id,
        error: expect.stringMatching(/^file corrupt/),
      });
    },
  );

  it("refuses a batch size outside 1 to 1000", async () => {
    await expect(startReprocessRun(db, { requestedByUserId: null, via: "cli", batchSize: 0 })).rejects.toMatchObject({ code: "invalid" });
  });
});

describe("a lost reprocessing run", () => {
  /** A run whose event never reached a runner (an Inngest server dropped it): nothing will ever work it unless a test does. */
  async function lostRun(batchSize = 1000): Promise<number> {
    const [row] = await db
      .insert(reprocessRuns)
      .values({ targetCoreVersion: PROCESSING_CORE_VERSION, requestedVia: "cli", batchSize })
      .returning({ id: reprocessRuns.id });
    return row.id;
  }
  const lastMovedMinutesAgo = (runId: number, minutes: number) =>
    db
      .update(reprocessRuns)
      .set({ lastProgressAt: sql`now() - ${minutes}::integer * interval '1 minute'` })
      .where(eq(reprocessRuns.id, runId));
  const runRow = async (runId: number) => (await db.select().from(reprocessRuns).where(eq(reprocessRuns.id, runId)))[0];
  const stopActions = async (runId: number) =>
    db
      .select()
      .from(operatorActions)
      .where(and(eq(operatorActions.action, "stop_reprocess"), sql`${operatorActions.details}->>'runId' = ${String(runId)}`));
  let operator: SessionUser;
  beforeAll(async () => {
    operator = await createUser(
      db,
      { name: "Olga Operator", email: `operator-${randomUUID()}@test.example`, password: "long enough password" },
      { role: "operator" },
    );
  });

  it(
    "is stalled after 15 minutes without progress, on the page's view and in the command's status; each item is progress",
    { timeout: 120_000 },
    async () => {
      await upload();
      const runId = await lostRun(1);
      expect(await getReprocessRun(db, runId)).toMatchObject({ state: "queued", stalled: false });
      await lastMovedMinutesAgo(runId, 14);
      expect((await getReprocessRun(db, runId)).stalled).toBe(false);
      await lastMovedMinutesAgo(runId, 16);
      expect(await getActiveReprocessRun(db)).toMatchObject({ id: runId, state: "queued", stalled: true });
      const status = (await runAdminCommand(db, ["reprocess", "status"])) as { run: Record<string, unknown> };
      expect(status.run).toMatchObject({
        id: runId,
        state: "queued",
        stalled: true,
        last_progress_at: (await getReprocessRun(db, runId)).lastProgressAt,
      });

      // Starting is progress; so is every item counted.
      await beginReprocessRun(db, runId);
      expect(await getReprocessRun(db, runId)).toMatchObject({ state: "running", stalled: false });
      await lastMovedMinutesAgo(runId, 60);
      expect((await getReprocessRun(db, runId)).stalled).toBe(true);
      expect(await reprocessNextBatch(db, runId, { keyring })).toMatchObject({ attempted: 1 });
      const moved = await getReprocessRun(db, runId);
      expect(moved).toMatchObject({ state: "running", stalled: false });
      expect(Date.now() - Date.parse(moved.lastProgressAt)).toBeLessThan(60_000);

      // Stopped from the command line (the active run): over, so never stalled, and the reason says when it last moved.
      await lastMovedMinutesAgo(runId, 30);
      const stopped = (await runAdminCommand(db, ["reprocess", "stop"])) as Record<string, unknown>;
      expect(stopped).toMatchObject({
        id: runId,
        state: "stopped",
        stalled: false,
        last_error: expect.stringMatching(/^Stopped from the command line: no progress since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/),
      });
      const [action] = await stopActions(runId);
      expect(action).toMatchObject({
        operatorUserId: null,
        targetUserId: null,
        targetEmail: null,
        details: { runId: String(runId), via: "cli", reason: expect.stringMatching(/^no progress since /) },
      });
      await expect(runAdminCommand(db, ["reprocess", "stop"])).rejects.toMatchObject({
        code: "conflict",
        message: "No reprocessing run is in progress",
      });
    },
  );

  it("is stopped by the operator with who and why, audited, once; then a new run may start", { timeout: 60_000 }, async () => {
    const runId = await lostRun();
    await expect(startReprocessRun(db, { requestedByUserId: operator.id, via: "web" })).rejects.toMatchObject({ code: "conflict" });
    await lastMovedMinutesAgo(runId, 20);

    await expect(stopReprocessRun(db, { userId: operator.id, via: "web" }, { runId, reason: "x".repeat(301) })).rejects.toBeInstanceOf(
      ZodError,
    );
    await expect(stopReprocessRun(db, { userId: operator.id, via: "web" }, { runId: 0 })).rejects.toBeInstanceOf(ZodError);
    await expect(stopReprocessRun(db, { userId: operator.id, via: "web" }, { runId: 2_000_000_000 })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await getReprocessRun(db, runId)).toMatchObject({ state: "queued", stalled: true });

    const stopped = await stopReprocessRun(
      db,
      { userId: operator.id, via: "web" },
      { runId, reason: "  its function was lost in the deploy  " },
    );
    expect(stopped).toMatchObject({
      state: "stopped",
      stalled: false,
      lastError: `Stopped by Olga Operator (${operator.email}) on the operator page: its function was lost in the deploy`,
    });
    expect(stopped.finishedAt).not.toBeNull();
    expect(await stopActions(runId)).toEqual([
      expect.objectContaining({
        operatorUserId: operator.id,
        targetUserId: null,
        targetEmail: null,
        details: { runId: String(runId), reason: "its function was lost in the deploy", via: "web" },
      }),
    ]);
    // A second stop (another operator a moment later) is refused and writes nothing.
    await expect(stopReprocessRun(db, { userId: operator.id, via: "web" }, { runId })).rejects.toMatchObject({
      code: "conflict",
      message: `Run ${runId} is already stopped.`,
    });
    expect(await stopActions(runId)).toHaveLength(1);

    // The way is free.
    const next = await startReprocessRun(db, { requestedByUserId: operator.id, via: "web" });
    expect(next.id).toBeGreaterThan(runId);
    // Leave nothing active: another test file's drain would otherwise work it through every stored file.
    await expect(runAdminCommand(db, ["reprocess", "stop", "--run", String(next.id), "--wait"])).rejects.toThrow(/usage/);
    const out = (await runAdminCommand(db, ["reprocess", "stop", "--run", String(next.id), "--reason", "test over"])) as Record<
      string,
      unknown
    >;
    expect(out).toMatchObject({ id: next.id, state: "stopped", last_error: "Stopped from the command line: test over" });
    await expect(runAdminCommand(db, ["reprocess", "stop", "--run", String(runId)])).rejects.toMatchObject({ code: "conflict" });
  });

  it(
    "a late step of a stopped run writes nothing: not the next item of its batch, not a next batch, not finish or fail; what it did stays",
    { timeout: 180_000 },
    async () => {
      const [first, second] = [await upload(), await upload()];
      const fresh = await figures(first);
      await makeOld(first, 1);
      await makeOld(second, 1);
      const secondOld = await figures(second);
      const runId = await lostRun();
      expect(await beginReprocessRun(db, runId)).toEqual({ state: "running" });

      // The operator stops it while its function is still working: right after `first` committed.
      const stopAfterFirst = async (resultId: number) => {
        if (resultId === first) await stopReprocessRun(db, { userId: operator.id, via: "web" }, { runId, reason: "stop mid-batch" });
      };
      for (;;) if ((await reprocessNextBatch(db, runId, { keyring, afterItem: stopAfterFirst })).finished) break;
      expect(await figures(first)).toEqual(fresh);
      expect(await figures(second)).toEqual(secondOld);
      const atStop = await runRow(runId);
      expect(atStop).toMatchObject({ state: "stopped", lastResultId: first });

      // Its steps arrive late, one by one, and the dropped event itself, delivered at last, to the real function.
      expect(await reprocessNextBatch(db, runId, { keyring })).toEqual({ finished: true, attempted: 0 });
      expect(await beginReprocessRun(db, runId)).toEqual({ state: "stopped" });
      expect(await finishReprocessRun(db, runId)).toEqual({ state: "stopped" });
      await failReprocessRun(db, runId, "The run stopped: late failure");
      await sendEvent(db, { name: "reprocess/requested", data: { runId }, id: `reprocess-run-${runId}` });
      await drainEmbeddedRuns(db, { functions: [reprocessStoredFilesFunction], retryBackoff: () => 0 });
      expect(await runRow(runId)).toEqual(atStop);
      expect(await figures(second)).toEqual(secondOld);
      expect((await listReprocessFailures(db, runId)).map((f) => f.itemId)).not.toContain(second);
    },
  );

  it(
    "a training item that starts after the stop leaves the training as it was (a failed one keeps its failure)",
    { timeout: 180_000 },
    async () => {
      const older = await createProcessedTraining(db, coach, { spec: "3x250m/60s", seed: 41, keyring });
      const failed = await createProcessedTraining(db, coach, { spec: "3x250m/60s", seed: 42, keyring });
      await db.update(trainings).set({ processingCoreVersion: 1 }).where(eq(trainings.id, older.id));
      // As an older core left it: failed with its reason (today's core can read the file).
      await db
        .update(trainings)
        .set({ status: "failed", failureCode: "no_sets", failureMessage: "No work sets found.", processingCoreVersion: 1 })
        .where(eq(trainings.id, failed.id));
      const failedBefore = (await db.select().from(trainings).where(eq(trainings.id, failed.id)))[0];
      const runId = await lostRun();
      expect(await beginReprocessRun(db, runId)).toEqual({ state: "running" });
      // The training the run works just before `failed` (ours, unless another test file made one in between).
      const [{ previous }] = await db
        .select({ previous: sql<number>`max(${trainings.id})`.mapWith(Number) })
        .from(trainings)
        .where(
          and(lt(trainings.id, failed.id), inArray(trainings.status, ["ready", "failed"]), sql`${trainings.originalBlobId} is not null`),
        );
      const stopAfterPrevious = async (trainingId: number) => {
        if (trainingId === previous)
          await stopReprocessRun(db, { userId: operator.id, via: "web" }, { runId, reason: "stop among the trainings" });
      };
      for (;;) if ((await reprocessNextBatch(db, runId, { keyring, afterTraining: stopAfterPrevious })).finished) break;
      expect(await getReprocessRun(db, runId)).toMatchObject({ state: "stopped" });
      expect(
        (
          await db
            .select({ status: trainings.status, version: trainings.processingCoreVersion })
            .from(trainings)
            .where(eq(trainings.id, older.id))
        )[0],
      ).toEqual({
        status: "ready",
        version: PROCESSING_CORE_VERSION,
      });
      expect((await db.select().from(trainings).where(eq(trainings.id, failed.id)))[0]).toEqual(failedBefore);
    },
  );
});

describe("a reprocessing run across a process restart", () => {
  const workerScript = path.join(import.meta.dirname, "../../test/workers/reprocess-restart-worker.ts");
  const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "reprocess-restart-"));
  const dataDir = path.join(tempDir, "pglite");
  const logFile = path.join(tempDir, "items.log");
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    fs.rmSync(tempDir, { recursive: true, force: true });
  });

  function startWorker(env: Record<string, string>) {
    const child = spawn(process.execPath, ["--import", "tsx", workerScript], {
      env: { ...process.env, REPROCESS_TEST_DATA_DIR: dataDir, REPROCESS_TEST_LOG: logFile, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    let stdout = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    return { child, output: () => stdout };
  }
  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
    );
  const logged = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").trim().split("\n") : []);
  async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 90_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("resumes after SIGKILL where it was, and replaces each item exactly once", { timeout: 180_000 }, async () => {
    const first = startWorker({ REPROCESS_TEST_ROLE: "first", REPROCESS_TEST_COUNT: "6" });
    const started = await waitFor("the run", () => {
      const line = first
        .output()
        .split("\n")
        .find((l) => l.startsWith("{"));
      return line ? (JSON.parse(line) as { runId: number; resultIds: number[] }) : undefined;
    });
    const mine = (line: string) => started.resultIds.includes(Number(line.split(" ")[1]));
    await waitFor("three items replaced", () => (logged().filter((l) => mine(l) && l.startsWith("done ")).length === 3 ? true : undefined));
    first.child.kill("SIGKILL");
    await exited(first.child);

    const second = startWorker({
      REPROCESS_TEST_ROLE: "second",
      REPROCESS_TEST_RUN_ID: String(started.runId),
      REPROCESS_TEST_RESULT_IDS: JSON.stringify(started.resultIds),
    });
    await exited(second.child);
    expect(second.child.exitCode).toBe(0);
    const reported = JSON.parse(second.output().trim().split("\n").at(-1)!) as {
      run: { state: string; done: number; failed: number; skipped: number; total: number };
    };
    expect(reported.run.state).toBe("completed");
    expect(reported.run.done + reported.run.failed + reported.run.skipped).toBe(reported.run.total);

    // Every one of the six replaced exactly once: three by each process, none twice.
    const items = logged().filter(mine);
    expect(items.map((l) => l.split(" ")[0])).toEqual(Array(6).fill("done"));
    expect(new Set(items.map((l) => l.split(" ")[1])).size).toBe(6);
    expect(items.filter((l) => l.endsWith(" first"))).toHaveLength(3);
    expect(items.filter((l) => l.endsWith(" second"))).toHaveLength(3);

    const check = openDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
    try {
      const versions = await check.db
        .select({ version: resultDerived.processingCoreVersion })
        .from(resultDerived)
        .where(inArray(resultDerived.resultId, started.resultIds));
      expect(versions.map((v) => v.version)).toEqual(Array(6).fill(PROCESSING_CORE_VERSION));
      const failures = await check.db
        .select()
        .from(reprocessRunFailures)
        .where(and(eq(reprocessRunFailures.runId, started.runId), inArray(reprocessRunFailures.itemId, started.resultIds)));
      expect(failures).toEqual([]);
    } finally {
      await check.close();
    }
  });
});
