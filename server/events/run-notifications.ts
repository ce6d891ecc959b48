import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";

/**
 * How workers hear about new runs without polling fast.
 *
 * `NOTIFY` is transactional: sent inside a transaction it is delivered only
 * when that transaction commits, and never if it rolls back. So a worker is
 * woken exactly when a run it can see exists, on every instance listening on
 * the same Postgres (and in-process with PGlite). Workers also poll slowly,
 * in case a notification is missed (e.g. while a listen connection reconnects).
 */
const CHANNEL = "job_runs_queued";

/** Tells listening workers that runs were queued, when the surrounding transaction (if any) commits. */
export async function notifyRunsQueued(db: Db): Promise<void> {
  await db.execute(sql`select pg_notify(${CHANNEL}, '')`);
}

type PostgresJsListener = {
  listen(channel: string, onNotify: (payload: string) => void): Promise<{ unlisten(): Promise<void> }>;
};

/**
 * Calls `onQueued` whenever runs are queued. Returns the function that stops
 * listening. Works on the driver behind `db`: PGlite or postgres.js (which
 * listens on a connection of its own).
 */
export async function listenForQueuedRuns(db: Db, onQueued: () => void): Promise<() => Promise<void>> {
  // drizzle keeps the driver's client on every database it creates.
  const client: unknown = (db as unknown as { $client?: unknown }).$client;
  if (client instanceof PGlite) {
    const unlisten = await client.listen(CHANNEL, onQueued);
    return () => unlisten();
  }
  if (typeof client === "function" && "listen" in client) {
    const subscription = await (client as PostgresJsListener).listen(CHANNEL, onQueued);
    return () => subscription.unlisten();
  }
  return async () => {};
}

// In-process wake-ups: the worker of this process is nudged right away by
// sendEvent. Kept on globalThis because Next.js may load this module in more
// than one bundle of the same process.
const wakersKey = Symbol.for("svc-results.job-wakers");
type GlobalWithWakers = typeof globalThis & { [wakersKey]?: Set<() => void> };

function wakers(): Set<() => void> {
  const g = globalThis as GlobalWithWakers;
  g[wakersKey] ??= new Set();
  return g[wakersKey];
}

/** Registers an in-process wake-up; returns its removal. */
export function onLocalRunsQueued(wake: () => void): () => void {
  wakers().add(wake);
  return () => wakers().delete(wake);
}

/**
 * Nudges this process's workers. Called by sendEvent before a surrounding
 * transaction commits: a worker that finds nothing yet is woken again by the
 * NOTIFY at commit; this only saves the listen round trip when there is no
 * transaction.
 */
export function nudgeLocalWorkers(): void {
  for (const wake of wakers()) wake();
}
