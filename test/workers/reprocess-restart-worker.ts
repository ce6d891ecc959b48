/**
 * A worker process for reprocess-runs.test.ts ("a restart resumes"), which
 * SIGKILLs it in the middle of a reprocessing run and starts another one.
 *
 * REPROCESS_TEST_ROLE=first: uploads REPROCESS_TEST_COUNT simulated
 * sessions, marks them as made by core 1, starts a run with batches of 2,
 * prints `{"runId", "resultIds"}` and works on it with the real function;
 * after the third of its results is replaced it blocks (until the kill).
 * REPROCESS_TEST_ROLE=second: works until that run is final, then prints
 * `{"run"}` and exits.
 *
 * Both append `<outcome> <resultId> <role>` to REPROCESS_TEST_LOG after each
 * item's transaction commits: the record that survives the kill.
 */
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { inArray } from "drizzle-orm";
import { makeReprocessStoredFilesFunction } from "../../inngest/functions/reprocess-stored-files";
import { openDb } from "../../server/db/client";
import { resultDerived } from "../../server/db/schema";
import { EmbeddedWorker } from "../../server/jobs/embedded-runner";
import { uploadResult } from "../../server/results/upload-result";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { simulateSession } from "../../server/svc/simulator/simulate";
import { createTrack } from "../../server/tracks/tracks";
import { createUser } from "../../server/users/users";
import { getReprocessRun, isActiveReprocessState, startReprocessRun } from "../../server/reprocess/reprocess-runs";

const role = process.env.REPROCESS_TEST_ROLE!;
const logFile = process.env.REPROCESS_TEST_LOG!;
const keyring = loadKeyring({});

async function main(): Promise<void> {
  const handle = openDb({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.REPROCESS_TEST_DATA_DIR,
    maxConnections: 3,
  });
  await handle.migrate();
  const db = handle.db;
  let mine = new Set<number>(JSON.parse(process.env.REPROCESS_TEST_RESULT_IDS ?? "[]") as number[]);
  let replaced = 0;
  const fn = makeReprocessStoredFilesFunction({
    keyring,
    afterItem: async (resultId, outcome) => {
      fs.appendFileSync(logFile, `${outcome} ${resultId} ${role}\n`);
      if (role === "first" && mine.has(resultId) && outcome === "done" && ++replaced === 3) await new Promise(() => {});
    },
  });
  const worker = new EmbeddedWorker({
    db,
    functions: [fn],
    leaseMs: 1_000,
    pollIntervalMs: 200,
    exclusiveDatabase: handle.kind === "pglite",
    logger: { info() {}, warn: console.warn, error: console.error },
  });
  if (role === "first") {
    const user = await createUser(
      db,
      { name: "Restart", email: `restart-${randomUUID()}@test.example`, password: "long enough password" },
      { unlimitedExternals: true },
    );
    const track = await createTrack(db, user.id, { name: "Restart basin" });
    const ids: number[] = [];
    for (let i = 0; i < Number(process.env.REPROCESS_TEST_COUNT ?? 6); i++) {
      const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: 900 + i }).content, keyring));
      const metadata = JSON.stringify({
        distance: 200,
        vessel_id: 1,
        track_id: track.id,
        category_id: 1,
        pace_id: 1,
        athletes: [{ name: "Guest", surname: "Paddler" }],
      });
      ids.push(
        (
          await uploadResult(
            db,
            { user, createdVia: "web", keyPairId: null, file: { filename: `s${i}.svc`, bytes }, metadata },
            { keyring },
          )
        ).id,
      );
    }
    await db.update(resultDerived).set({ processingCoreVersion: 1 }).where(inArray(resultDerived.resultId, ids));
    mine = new Set(ids);
    const run = await startReprocessRun(db, { requestedByUserId: null, via: "cli", batchSize: 2 });
    process.stdout.write(`${JSON.stringify({ runId: run.id, resultIds: ids })}\n`);
    await worker.start();
    return; // Kept alive by the blocked item until killed.
  }
  const runId = Number(process.env.REPROCESS_TEST_RUN_ID);
  await worker.start();
  for (;;) {
    const run = await getReprocessRun(db, runId);
    if (!isActiveReprocessState(run.state)) {
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
