/**
 * A worker process for embedded-runner.restart.test.ts, which kills it with
 * SIGKILL in the middle of a run and starts another one.
 *
 * JOBS_TEST_ROLE=first: queues a run of `test-restart`, prints `{"runId"}`
 * and works on it; its second step blocks forever (until the kill).
 * JOBS_TEST_ROLE=second: works until that run (JOBS_TEST_RUN_ID) is final,
 * then prints `{"run"}` and exits.
 *
 * Both append every step execution to JOBS_TEST_LOG, the one record that
 * survives the kill outside the database. The database is the PGlite folder
 * JOBS_TEST_DATA_DIR, or the Postgres at DATABASE_URL when set.
 */
import fs from "node:fs";
import { inngest } from "../../inngest/client";
import { openDb } from "../../server/db/client";
import { EmbeddedWorker } from "../../server/jobs/embedded-runner";
import { getRun } from "../../server/jobs/run-queries";
import { queueRunsDirectly } from "../../server/jobs/queue-runs";

const role = process.env.JOBS_TEST_ROLE;
const logFile = process.env.JOBS_TEST_LOG!;
const note = (line: string) => fs.appendFileSync(logFile, `${line}\n`);

const restartable = inngest.createFunction({ id: "test-restart", triggers: [{ event: "test/restart" }] }, async ({ step }) => {
  const first = await step.run("step-1", () => {
    note("step-1");
    return { startedBy: process.pid };
  });
  const second = await step.run("step-2", async () => {
    note(`step-2-started ${role}`);
    // The first process never gets past this: it is killed here.
    if (role === "first") await new Promise(() => {});
    note("step-2-finished");
    return { finishedBy: process.pid };
  });
  return { ...first, ...second };
});
const functions = [restartable];

async function main(): Promise<void> {
  const handle = openDb({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir: process.env.JOBS_TEST_DATA_DIR, maxConnections: 3 });
  await handle.migrate();
  const worker = new EmbeddedWorker({
    db: handle.db,
    functions,
    // Short so the second process takes over soon on a shared Postgres; a
    // PGlite folder is exclusive, so its orphaned run is resumed at once.
    leaseMs: 1_000,
    pollIntervalMs: 200,
    exclusiveDatabase: handle.kind === "pglite",
    logger: { info() {}, warn: console.warn, error: console.error },
  });
  if (role === "first") {
    const { runIds } = await queueRunsDirectly(handle.db, { name: "test/restart", data: {} }, functions);
    process.stdout.write(`${JSON.stringify({ runId: runIds[0] })}\n`);
    await worker.start();
    return; // Kept alive by the blocked step until killed.
  }
  const runId = process.env.JOBS_TEST_RUN_ID!;
  await worker.start();
  for (;;) {
    const run = await getRun(handle.db, runId);
    if (run && (run.status === "completed" || run.status === "failed")) {
      process.stdout.write(`${JSON.stringify({ run })}\n`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await worker.stop();
  await handle.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
