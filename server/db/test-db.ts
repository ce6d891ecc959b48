import { openDb, type DbHandle } from "./client";

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
