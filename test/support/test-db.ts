import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { openDb, type DbHandle } from "../../server/db/client";

/**
 * A migrated database for integration tests: the Postgres at DATABASE_URL
 * when set (CI creates a fresh one per run), otherwise an in-memory PGlite.
 * Tests create their own users and rows, so they never depend on each other.
 */
export async function openTestDb(): Promise<DbHandle> {
  const handle = openDb({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: "memory://",
    maxConnections: 4,
  });
  await handle.migrate();
  return handle;
}

/** A fresh empty database beside `base` (same server): its URL and what drops it. */
async function createSiblingDatabase(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = new URL(base);
  const name = `${url.pathname.slice(1)}_private_${randomBytes(6).toString("hex")}`.toLowerCase();
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = postgres(base, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/**
 * A migrated database no other test file sees, for tests whose work spans
 * the whole database (a reprocessing run's scope, the runs any drain claims):
 * a fresh Postgres database beside DATABASE_URL, dropped on close, or an
 * in-memory PGlite when DATABASE_URL is unset.
 */
export async function openPrivateTestDb(): Promise<DbHandle> {
  const base = process.env.DATABASE_URL;
  if (!base) return openTestDb();
  const sibling = await createSiblingDatabase(base);
  const handle = openDb({ databaseUrl: sibling.url, maxConnections: 4 });
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      await sibling.drop();
    },
  };
}

/**
 * Points this test file (its process, the workers it spawns and every handle it opens) at a
 * fresh database of its own, for files whose work spans the whole database (the
 * embedded worker relays every committed outbox row and claims any queued run; a reprocessing
 * run covers every stored file). Returns what drops it. No-op without DATABASE_URL (PGlite
 * in memory is private already). Vitest runs each file in its own process, so the change of
 * DATABASE_URL stays within the file; the file's openTestDb() migrates it.
 */
export async function usePrivateDatabase(): Promise<() => Promise<void>> {
  const base = process.env.DATABASE_URL;
  if (!base) return async () => {};
  const sibling = await createSiblingDatabase(base);
  process.env.DATABASE_URL = sibling.url;
  return async () => {
    process.env.DATABASE_URL = base;
    await sibling.drop();
  };
}
