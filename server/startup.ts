import { getEnv } from "./config/env";
import { getDbHandle } from "./db/client";
import type { OutboxSink } from "./events/outbox";

/**
 * What the server start needs from above it: the relay's sink for a real Inngest server
 * (inngest/outbox-sink.ts), loaded only when that runner is configured. instrumentation.ts hands it
 * in, so nothing under server/ but the embedded runner imports inngest/ (docs/architecture.md).
 */
export type StartAdapters = { loadInngestOutboxSink: () => Promise<OutboxSink> };

/** Server start: fail fast on bad configuration, then bring the database schema up to date. */
export async function startServer(adapters: StartAdapters): Promise<void> {
  let env;
  try {
    env = getEnv();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  if (env.ALLOW_HTTP_LOOPBACK) {
    // Only the socket's own address may decide that an upload never left the machine.
    const { installPeerAddressStamp } = await import("./net/peer-address");
    installPeerAddressStamp();
    console.log("ALLOW_HTTP_LOOPBACK=1: results API uploads over plain HTTP are accepted from this machine (loopback addresses) only");
  }
  if (env.WEBHOOK_ALLOW_LOOPBACK)
    console.log("WEBHOOK_ALLOW_LOOPBACK=1: webhook endpoints on this machine (http://localhost, http://127.0.0.1) are accepted");
  const handle = getDbHandle();
  await handle.migrate();
  console.log(`database ready (${handle.kind === "postgres" ? "Postgres" : `PGlite in ${env.dataDir}`})`);
  await startBackgroundJobs(env.jobsRunner, handle, adapters);
}

/**
 * Without an Inngest server, this instance runs the background functions
 * itself (docs/jobs.md). Not while `next build` loads the app: a build must
 * not pick up queued runs, nor be kept alive by a worker.
 */
async function startBackgroundJobs(
  runner: "inngest" | "embedded",
  handle: ReturnType<typeof getDbHandle>,
  adapters: StartAdapters,
): Promise<void> {
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  if (runner === "inngest") {
    // Events reach Inngest through the outbox; every instance relays (SKIP LOCKED keeps them apart).
    const [{ startOutboxRelay }, inngestOutboxSink, { sweepExpiredState }] = await Promise.all([
      import("./events/outbox"),
      adapters.loadInngestOutboxSink(),
      import("./jobs/housekeeping"),
    ]);
    await startOutboxRelay(handle.db, inngestOutboxSink, { housekeeping: sweepExpiredState });
    console.log("background jobs: Inngest server configured, functions served at /api/inngest; outbox relay in this process");
    return;
  }
  const { startEmbeddedWorker } = await import("./jobs/embedded-runner");
  await startEmbeddedWorker({ handle });
  console.log("background jobs: embedded runner in this process");
}
