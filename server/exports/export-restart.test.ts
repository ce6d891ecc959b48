import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../db/client";
import { blobs, exportJobs } from "../db/schema";
import { jobRuns } from "../db/schema";
import { getRun } from "../jobs/run-queries";

/**
 * An export survives a restart mid-build: the first process is SIGKILLed
 * inside the build step; a second process builds it once more and the job
 * ends succeeded with exactly one file. PGlite folder in a temp dir, or the
 * Postgres at DATABASE_URL (then the takeover waits for the dead lease).
 */
const workerScript = path.join(import.meta.dirname, "../../test/workers/export-restart-worker.ts");
const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), "export-restart-"));
const dataDir = path.join(tempDir, "pglite");
const logFile = path.join(tempDir, "builds.log");
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  fs.rmSync(tempDir, { recursive: true, force: true });
});

function startWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", workerScript], {
    env: { ...process.env, EXPORT_TEST_DATA_DIR: dataDir, EXPORT_TEST_LOG: logFile, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  let stdout = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  return { child, output: () => stdout };
}

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
/** The builds of this test's own export (the workers may also build other test files' exports in a shared database). */
let ownUserId = -1;
const builds = () =>
  (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").trim().split("\n") : [])
    .filter((line) => line.endsWith(` user=${ownUserId}`))
    .map((line) => line.replace(/ user=\d+$/, ""));
const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));

describe("export job across a process restart", () => {
  it("finishes once after the worker is killed mid-build", { timeout: 180_000 }, async () => {
    const first = startWorker({ EXPORT_TEST_ROLE: "first" });
    const started = await waitFor("the job id", () => first.output().match(/\{"exportJobId":\d+,"publicId":"[^"]+","userId":\d+\}/)?.[0]);
    const { exportJobId, publicId } = JSON.parse(started) as { exportJobId: number; publicId: string };
    ownUserId = (JSON.parse(started) as { userId: number }).userId;
    await waitFor("the build to start", () => (builds().includes("build-started first") ? true : undefined));
    first.child.kill("SIGKILL");
    await exited(first.child);

    const second = startWorker({ EXPORT_TEST_ROLE: "second", EXPORT_TEST_JOB_ID: String(exportJobId) });
    await exited(second.child);
    expect(second.child.exitCode).toBe(0);
    expect(JSON.parse(second.output().trim().split("\n").at(-1)!)).toEqual({ state: "succeeded" });
    expect(builds()).toEqual(["build-started first", "build-started second"]);

    const handle = openDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir });
    try {
      const [job] = await handle.db.select().from(exportJobs).where(eq(exportJobs.id, exportJobId));
      expect(job).toMatchObject({ state: "succeeded", progress: 100, blobKey: `exports/${publicId}` });
      expect(
        await handle.db
          .select({ key: blobs.key })
          .from(blobs)
          .where(like(blobs.key, `exports/${publicId}%`)),
      ).toHaveLength(1);
      // One run; "mark-running" ran once (in the killed process), the build twice, recorded once.
      const runs = await handle.db
        .select({ id: jobRuns.id })
        .from(jobRuns)
        .where(and(eq(jobRuns.functionId, "build-export"), sql`${jobRuns.event}->'data'->>'exportJobId' = ${String(exportJobId)}`));
      expect(runs).toHaveLength(1);
      const run = await getRun(handle.db, runs[0].id);
      expect(run!.steps.map((step) => [step.stepId, step.attempts])).toEqual(
        expect.arrayContaining([
          ["mark-running", 1],
          ["build-and-store", 1],
        ]),
      );
    } finally {
      await handle.close();
    }
  });
});
