import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../db/client";
import { getRun } from "./run-queries";

/**
 * A real process restart in the middle of a run: the first worker process
 * records step 1, is SIGKILLed inside step 2, and a second process finishes
 * the run. Uses a PGlite folder in a temp dir, or the Postgres at
 * DATABASE_URL when set (then the takeover waits for the dead lease).
 */
const workerScript = path.join(import.meta.dirname, "../../test/workers/jobs-restart-worker.ts");
const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "jobs-restart-"));
const dataDir = path.join(tempDir, "pglite");
const logFile = path.join(tempDir, "steps.log");
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  fs.rmSync(tempDir, { recursive: true, force: true });
});

function startWorker(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  // node --import tsx, not the tsx CLI: the CLI runs the script in a child
  // process of its own, which a SIGKILL to the CLI would leave running.
  const child = spawn(process.execPath, ["--import", "tsx", workerScript], {
    env: { ...process.env, JOBS_TEST_DATA_DIR: dataDir, JOBS_TEST_LOG: logFile, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  let stdout = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  return { child, output: () => stdout };
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const loggedSteps = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").trim().split("\n") : []);
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));

describe("embedded runner across a process restart", () => {
  it("resumes a run after SIGKILL without repeating its completed step", { timeout: 120_000 }, async () => {
    const first = startWorker({ JOBS_TEST_ROLE: "first" });
    const runId = await waitFor("the run id", () => first.output().match(/"runId":"([^"]+)"/)?.[1]);
    // Step 2 starts only after step 1's result is committed.
    await waitFor("step 2 to start", () => (loggedSteps().includes("step-2-started first") ? true : undefined));
    first.child.kill("SIGKILL");
    await exited(first.child);
    expect(first.child.signalCode).toBe("SIGKILL");

    const second = startWorker({ JOBS_TEST_ROLE: "second", JOBS_TEST_RUN_ID: runId });
    await exited(second.child);
    expect(second.child.exitCode).toBe(0);

    expect(loggedSteps()).toEqual(["step-1", "step-2-started first", "step-2-started second", "step-2-finished"]);
    const reported = JSON.parse(second.output().trim().split("\n").at(-1)!) as {
      run: { status: string; output: { startedBy: number; finishedBy: number } };
    };
    expect(reported.run.status).toBe("completed");
    // Step 1's memoized result came from the killed process.
    expect(reported.run.output.startedBy).toBe(first.child.pid);
    expect(reported.run.output.finishedBy).toBe(second.child.pid);

    // Read back from the database itself, now that no worker has it open.
    const handle = openDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
    try {
      const run = await getRun(handle.db, runId);
      expect(run).toMatchObject({ status: "completed", error: null });
      expect(run!.steps.map((step) => [step.stepId, step.attempts])).toEqual([
        ["step-1", 1],
        ["step-2", 1],
      ]);
    } finally {
      await handle.close();
    }
  });
});
