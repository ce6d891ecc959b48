/**
 * A worker process for export-restart.test.ts, which SIGKILLs it in the
 * middle of an export build and starts another one.
 *
 * EXPORT_TEST_ROLE=first: creates a person and a session, queues a json
 * export, prints `{"exportJobId","publicId","userId"}` and works on it with the real
 * `build-export` function, whose build blocks forever (until the kill).
 * EXPORT_TEST_ROLE=second: works until that job (EXPORT_TEST_JOB_ID) is
 * succeeded or failed, prints `{"state"}` and exits.
 *
 * Both append every build start to EXPORT_TEST_LOG. The database is the
 * PGlite folder EXPORT_TEST_DATA_DIR, or the Postgres at DATABASE_URL.
 */
import fs from "node:fs";
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { buildExportFunction } from "../../inngest/functions/build-export";
import { createAthlete } from "../../server/athletes/athletes";
import { openDb } from "../../server/db/client";
import { exportJobs } from "../../server/db/schema";
import { EmbeddedWorker } from "../../server/jobs/embedded-runner";
import { uploadResult } from "../../server/results/upload-result";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { simulateSession } from "../../server/svc/simulator/simulate";
import { createTrack } from "../../server/tracks/tracks";
import { createUser } from "../../server/users/users";
import { exportBuilder, requestExport } from "../../server/exports/export-jobs";

const role = process.env.EXPORT_TEST_ROLE;
const note = (line: string) => fs.appendFileSync(process.env.EXPORT_TEST_LOG!, `${line}\n`);

async function main(): Promise<void> {
  const handle = openDb({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: process.env.EXPORT_TEST_DATA_DIR,
    maxConnections: 3,
  });
  await handle.migrate();
  const realBuild = exportBuilder.build;
  exportBuilder.build = async (...args) => {
    // Tagged with the job's person: other test files share the database, and this worker may build their exports too.
    note(`build-started ${role} user=${args[2].userId}`);
    // The first process never gets past this: it is killed here.
    if (role === "first") await new Promise(() => {});
    return realBuild(...args);
  };
  const worker = new EmbeddedWorker({
    db: handle.db,
    functions: [buildExportFunction],
    leaseMs: 1_000,
    pollIntervalMs: 200,
    exclusiveDatabase: handle.kind === "pglite",
    logger: { info() {}, warn: console.warn, error: console.error },
  });
  if (role === "first") {
    const keyring = loadKeyring({});
    const user = await createUser(handle.db, {
      name: "Coach",
      email: `coach-${randomUUID()}@test.example`,
      password: "long enough password",
    });
    const track = await createTrack(handle.db, user.id, { name: "Basin" });
    const athlete = await createAthlete(handle.db, user.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" });
    const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: 5 }).content, keyring));
    const metadata = JSON.stringify({
      distance: 200,
      vessel_id: 1,
      track_id: track.id,
      category_id: 1,
      pace_id: 1,
      athletes: [athlete.id],
    });
    const session = await uploadResult(
      handle.db,
      { user, createdVia: "web", keyPairId: null, file: { filename: "k1.svc", bytes }, metadata },
      { keyring },
    );
    const { job } = await requestExport(handle.db, {
      requester: { subjectUserId: user.id, applicationId: null },
      source: { kind: "session", sessionId: session.id },
      options: { format: "json", athlete: 1, splits: 4, lang: "en", mode: "full", healthAllowed: true },
      idempotency: null,
    });
    process.stdout.write(`${JSON.stringify({ exportJobId: job.id, publicId: job.publicId, userId: user.id })}\n`);
    await worker.start();
    return; // Kept alive by the blocked build until killed.
  }
  const exportJobId = Number(process.env.EXPORT_TEST_JOB_ID);
  await worker.start();
  for (;;) {
    const [job] = await handle.db.select({ state: exportJobs.state }).from(exportJobs).where(eq(exportJobs.id, exportJobId));
    if (job.state === "succeeded" || job.state === "failed") {
      process.stdout.write(`${JSON.stringify({ state: job.state })}\n`);
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
