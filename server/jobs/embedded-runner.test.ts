import { randomUUID } from "node:crypto";
import { NonRetriableError } from "inngest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inngest } from "../../inngest/client";
import type { Db, DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { drainEmbeddedRuns, EmbeddedWorker } from "./embedded-runner";
import { executeFunction } from "./execute-function";
import { claimNextRun, LeaseLostError, recordStep } from "./run-store";
import { getRun, listRunsForEvent } from "./run-queries";
import { queueRunsDirectly, type JobEvent } from "./queue-runs";

// Test-only functions, each on its own event. Every step execution is logged
// as "<run id>:<step>" so tests can count executions per run.
const executions: string[] = [];
const countOf = (runId: string, step: string) => executions.filter((entry) => entry === `${runId}:${step}`).length;
let dbSeenByFunction: Db | undefined;

const twoSteps = inngest.createFunction(
  { id: "test-two-steps", triggers: [{ event: "test/two-steps" }], retries: 0 },
  async ({ event, step, runId, db }) => {
    const first = await step.run("first", () => {
      executions.push(`${runId}:first`);
      return { doubled: (event.data.n as number) * 2 };
    });
    const second = await step.run("second", () => {
      executions.push(`${runId}:second`);
      dbSeenByFunction = db;
      return first.doubled + 1;
    });
    return { second };
  },
);

/** Step two fails on its first attempt, then succeeds: the retry must replay step one from memory. */
const flakySecondStep = inngest.createFunction(
  { id: "test-flaky-second", triggers: [{ event: "test/flaky-second" }], retries: 2 },
  async ({ step, runId, attempt }) => {
    await step.run("first", () => {
      executions.push(`${runId}:first`);
      return "one";
    });
    return step.run("second", () => {
      executions.push(`${runId}:second`);
      if (attempt === 0) throw new Error("transient");
      return "two";
    });
  },
);

const alwaysFailing = inngest.createFunction(
  { id: "test-always-failing", triggers: [{ event: "test/always-failing" }], retries: 2 },
  async ({ step, runId }) => {
    await step.run("doomed", () => {
      executions.push(`${runId}:doomed`);
      throw new Error("boom");
    });
  },
);

const failingBody = inngest.createFunction(
  { id: "test-failing-body", triggers: [{ event: "test/failing-body" }], retries: 1 },
  async ({ runId }) => {
    executions.push(`${runId}:body`);
    throw new Error("body broke");
  },
);

const nonRetriable = inngest.createFunction(
  { id: "test-non-retriable", triggers: [{ event: "test/non-retriable" }], retries: 5 },
  async ({ step, runId }) => {
    await step.run("refuse", () => {
      executions.push(`${runId}:refuse`);
      throw new NonRetriableError("result 7 does not exist");
    });
  },
);

const sleeper = inngest.createFunction({ id: "test-sleeper", triggers: [{ event: "test/sleeper" }] }, async ({ step, runId }) => {
  const before = await step.run("before", () => Date.now());
  await step.sleep("nap", "1s");
  const after = await step.run("after", () => {
    executions.push(`${runId}:after`);
    return Date.now();
  });
  return { sleptMs: after - before };
});

const parallel = inngest.createFunction({ id: "test-parallel", triggers: [{ event: "test/parallel" }] }, async ({ step, runId }) => {
  const [a, b] = await Promise.all([
    step.run("a", () => (executions.push(`${runId}:a`), "A")),
    step.run("b", () => (executions.push(`${runId}:b`), "B")),
  ]);
  return a + b;
});

const waitsForEvent = inngest.createFunction({ id: "test-waits-for-event", triggers: [{ event: "test/waits" }] }, async ({ step }) => {
  await step.waitForEvent("approval", { event: "test/approved", timeout: "1h" });
});

/** Each step notes whether another execution of the same run is in progress: it never may be. */
const inProgress = new Set<string>();
let overlaps = 0;
const slowSteps = inngest.createFunction({ id: "test-slow-steps", triggers: [{ event: "test/slow-steps" }] }, async ({ step, runId }) => {
  for (const name of ["one", "two"]) {
    await step.run(name, async () => {
      if (inProgress.has(runId)) overlaps += 1;
      inProgress.add(runId);
      executions.push(`${runId}:${name}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inProgress.delete(runId);
    });
  }
});

/** Output and error carry U+0000, which jsonb cannot store. */
const nulBytes = inngest.createFunction({ id: "test-nul-bytes", triggers: [{ event: "test/nul-bytes" }], retries: 0 }, async ({ step }) => {
  await step.run("echo", () => ({ name: "crew\u0000name" }));
  await step.run("refuse", () => {
    throw new NonRetriableError("bad name \u0000 in upload");
  });
});

const functions = [
  nulBytes,
  twoSteps,
  flakySecondStep,
  alwaysFailing,
  failingBody,
  nonRetriable,
  sleeper,
  parallel,
  waitsForEvent,
  slowSteps,
];
const quickRetries = { functions, retryBackoff: () => 1, logger: { info() {}, warn() {}, error() {} } };

let handle: DbHandle;
let db: Db;
beforeAll(async () => {
  handle = await openTestDb();
  db = handle.db;
});
afterAll(async () => {
  await handle.close();
});

async function send(name: string, data: Record<string, unknown> = {}, id?: string): Promise<string> {
  const event: JobEvent = { name, data, id };
  const { runIds } = await queueRunsDirectly(db, event, functions);
  expect(runIds).toHaveLength(1);
  return runIds[0];
}

describe("embedded runner", () => {
  it("runs a two-step function to completion, each step once, with ctx.db", async () => {
    const runId = await send("test/two-steps", { n: 20 });
    expect((await getRun(db, runId))!.status).toBe("queued");
    await drainEmbeddedRuns(db, quickRetries);
    const run = (await getRun(db, runId))!;
    expect(run).toMatchObject({ status: "completed", output: { second: 41 }, error: null, functionId: "test-two-steps" });
    expect(run.steps.map((step) => [step.stepId, step.outcome, step.attempts])).toEqual([
      ["first", "completed", 1],
      ["second", "completed", 1],
    ]);
    expect([countOf(runId, "first"), countOf(runId, "second")]).toEqual([1, 1]);
    // ctx.db is the database the runner works on, not the app's.
    expect(dbSeenByFunction).toBe(db);
  });

  it("replays memoized steps on a retry instead of running them again", async () => {
    const runId = await send("test/flaky-second");
    await drainEmbeddedRuns(db, quickRetries);
    const run = (await getRun(db, runId))!;
    expect(run).toMatchObject({ status: "completed", output: "two" });
    expect(run.steps.map((step) => [step.stepId, step.attempts])).toEqual([
      ["first", 1],
      ["second", 2],
    ]);
    expect([countOf(runId, "first"), countOf(runId, "second")]).toEqual([1, 2]);
  });

  it("resumes a run whose worker died after a step, without running that step again", async () => {
    const runId = await send("test/two-steps", { n: 1 });
    // A worker claims the run with a short lease, finishes step one, then "dies".
    const run = (await claimNextRun(db, { workerId: "doomed-worker", functionIds: ["test-two-steps"], leaseMs: 200 }))!;
    expect(run.id).toBe(runId);
    const outcome = await executeFunction({ fn: twoSteps, runId, event: run.event, attempt: 0, steps: [], db });
    expect(outcome.type).toBe("step-finished");
    if (outcome.type !== "step-finished") return;
    await recordStep(db, { runId, workerId: "doomed-worker" }, { ...outcome.step, attempts: 1 }, 200);
    // While its lease holds, nobody else may take the run.
    expect(await claimNextRun(db, { workerId: "other", functionIds: ["test-two-steps"], leaseMs: 1000 })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 250));
    await drainEmbeddedRuns(db, quickRetries);
    expect(await getRun(db, runId)).toMatchObject({ status: "completed", output: { second: 3 } });
    expect([countOf(runId, "first"), countOf(runId, "second")]).toEqual([1, 1]);
    // The dead worker can no longer write anything for it.
    await expect(recordStep(db, { runId, workerId: "doomed-worker" }, { ...outcome.step, attempts: 1 }, 200)).rejects.toBeInstanceOf(
      LeaseLostError,
    );
  });

  it("retries a failing step up to the function's retries, then records the failure", async () => {
    const runId = await send("test/always-failing");
    await drainEmbeddedRuns(db, quickRetries);
    const run = (await getRun(db, runId))!;
    expect(countOf(runId, "doomed")).toBe(3);
    expect(run.status).toBe("failed");
    expect(run.error).toMatchObject({ message: "boom" });
    expect(run.finishedAt).toBeInstanceOf(Date);
    expect(run.steps).toMatchObject([{ stepId: "doomed", outcome: "failed", attempts: 3, error: { message: "boom" } }]);
  });

  it("retries an error thrown outside steps, then records the failure", async () => {
    const runId = await send("test/failing-body");
    await drainEmbeddedRuns(db, quickRetries);
    expect(countOf(runId, "body")).toBe(2);
    expect(await getRun(db, runId)).toMatchObject({ status: "failed", error: { message: "body broke" } });
  });

  it("stores outputs and errors quoting NUL characters (as U+FFFD) instead of leaving the run stuck", async () => {
    const runId = await send("test/nul-bytes");
    await drainEmbeddedRuns(db, quickRetries);
    const run = (await getRun(db, runId))!;
    expect(run).toMatchObject({ status: "failed", error: { message: "bad name \uFFFD in upload" } });
    expect(run.steps.map((step) => [step.stepId, step.outcome])).toEqual([
      ["echo", "completed"],
      ["refuse", "failed"],
    ]);
  });

  it("does not retry a NonRetriableError", async () => {
    const runId = await send("test/non-retriable");
    await drainEmbeddedRuns(db, quickRetries);
    expect(countOf(runId, "refuse")).toBe(1);
    expect(await getRun(db, runId)).toMatchObject({ status: "failed", error: { message: "result 7 does not exist" } });
  });

  it("fails a function that uses a step the runner does not support, saying which", async () => {
    const runId = await send("test/waits");
    await drainEmbeddedRuns(db, quickRetries);
    const run = (await getRun(db, runId))!;
    expect(run.status).toBe("failed");
    expect(run.error?.message).toContain("step.waitForEvent");
  });

  it("runs parallel steps once each", async () => {
    const runId = await send("test/parallel");
    await drainEmbeddedRuns(db, quickRetries);
    expect(await getRun(db, runId)).toMatchObject({ status: "completed", output: "AB" });
    expect([countOf(runId, "a"), countOf(runId, "b")]).toEqual([1, 1]);
  });

  it("sleeps without holding a worker and wakes when the sleep ends", async () => {
    const runId = await send("test/sleeper");
    await drainEmbeddedRuns(db, quickRetries);
    const run = (await getRun(db, runId))!;
    expect(run.status).toBe("completed");
    expect((run.output as { sleptMs: number }).sleptMs).toBeGreaterThanOrEqual(950);
    expect(run.steps.map((step) => [step.stepId, step.kind])).toEqual([
      ["before", "run"],
      ["nap", "sleep"],
      ["after", "run"],
    ]);
    expect(countOf(runId, "after")).toBe(1);
  });

  it("never lets two workers execute the same run at once", async () => {
    const runIds = await Promise.all(Array.from({ length: 8 }, () => send("test/slow-steps")));
    const claims = await Promise.all([drainEmbeddedRuns(db, quickRetries), drainEmbeddedRuns(db, quickRetries)]);
    // Each run claimed once (more only if the database holds other runs of these functions).
    expect(claims[0] + claims[1]).toBeGreaterThanOrEqual(8);
    // Both really worked (the steps await, so the two interleave).
    expect(Math.min(...claims)).toBeGreaterThan(0);
    expect(overlaps).toBe(0);
    for (const runId of runIds) {
      expect((await getRun(db, runId))!.status).toBe("completed");
      expect([countOf(runId, "one"), countOf(runId, "two")]).toEqual([1, 1]);
    }
  });

  it("queues nothing when the transaction that sent the event rolls back", async () => {
    let eventId = "";
    await expect(
      db.transaction(async (tx) => {
        ({ eventId } = await queueRunsDirectly(tx, { name: "test/two-steps", data: { n: 1 } }, functions));
        expect(await listRunsForEvent(tx, eventId)).toHaveLength(1);
        throw new Error("upload failed");
      }),
    ).rejects.toThrow("upload failed");
    expect(await listRunsForEvent(db, eventId)).toEqual([]);
  });

  it("starts each function once per event id", async () => {
    // Unique per test run: a Postgres at DATABASE_URL may hold earlier runs.
    const eventId = `result-${randomUUID()}-stored`;
    const runId = await send("test/two-steps", { n: 2 }, eventId);
    const again = await queueRunsDirectly(db, { name: "test/two-steps", data: { n: 2 }, id: eventId }, functions);
    expect(again).toEqual({ eventId, runIds: [] });
    expect((await listRunsForEvent(db, eventId)).map((run) => run.id)).toEqual([runId]);
    await drainEmbeddedRuns(db, quickRetries);
  });

  it("is woken by a committed event at once, not by its slow poll", async () => {
    const worker = new EmbeddedWorker({ ...quickRetries, db, pollIntervalMs: 60_000 });
    await worker.start();
    try {
      const { runIds } = await db.transaction((tx) => queueRunsDirectly(tx, { name: "test/two-steps", data: { n: 5 } }, functions));
      // Well under the 60 s poll, with room for a busy CI machine running every test file at once.
      const deadline = Date.now() + 20_000;
      while ((await getRun(db, runIds[0]))!.status !== "completed" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await getRun(db, runIds[0])).toMatchObject({ status: "completed", output: { second: 11 } });
    } finally {
      await worker.stop();
    }
  });

  it("runs a chosen subset of the app's functions by id, and refuses an id the app does not have", () => {
    expect(() => new EmbeddedWorker({ db, functionIds: ["reprocess-stored-files"] })).not.toThrow();
    expect(() => new EmbeddedWorker({ db, functionIds: ["reprocess-stored-files", "no-such-function"] })).toThrow(/no-such-function/);
  });

  it("answers null for unknown or malformed run ids", async () => {
    expect(await getRun(db, "not-a-uuid")).toBeNull();
    expect(await getRun(db, "00000000-0000-4000-8000-000000000000")).toBeNull();
  });
});
