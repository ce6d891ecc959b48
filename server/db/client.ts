import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { getEnv } from "../config/env";
import { retryReadOnce } from "./connection-errors";
import * as schema from "./schema";

/** The one database type the rest of the code sees; the driver behind it is this file's business. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle is a Db too, so domain functions take either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface DbHandle {
  db: Db;
  /** The connection pool (or PGlite) under `db`, for bundles that wrap it with their own drizzle (getDb). */
  driver: Driver;
  /** Applies the migrations in drizzle/ that this database lacks. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  kind: "postgres" | "pglite";
}

export interface DbOptions {
  /** postgres:// URL; when absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder; "memory://" for an in-memory database (tests). */
  dataDir?: string;
  /** Max connections for postgres.js. */
  maxConnections?: number;
  /** Called for each statement sent (postgres.js only): benchmarks count round trips per request with it. */
  onStatement?: (query: string) => void;
}

type Driver = { kind: "postgres"; client: postgres.Sql } | { kind: "pglite"; client: PGlite };

/** Drizzle, as loaded by this module's bundle, over a driver. */
function drizzleOver(driver: Driver): Db {
  return driver.kind === "postgres"
    ? (drizzlePostgres(retryingReads(driver.client), { schema }) as unknown as Db)
    : (drizzlePglite(driver.client, { schema }) as unknown as Db);
}

const migrationsFolder = path.join(process.cwd(), "drizzle");
// Any constant works; it only has to be the same in every instance.
const MIGRATION_LOCK_KEY = 7_361_002;

export function openDb(options: DbOptions): DbHandle {
  if (options.databaseUrl) {
    const client = postgres(options.databaseUrl, {
      max: options.maxConnections ?? 10,
      onnotice: () => {},
      // Our queries are short OLTP reads; Postgres' JIT compiles them for
      // ~230 ms when the planner's estimates run high (measured on GET /results).
      connection: { jit: "off" },
      // Idle connections are closed after a minute, and every connection is
      // replaced after at most 30 minutes, so that a socket a proxy or a
      // failover silently dropped does not wait in the pool for a request.
      idle_timeout: 60,
      max_lifetime: 30 * 60,
      ...(options.onStatement ? { debug: (_connection: number, query: string) => options.onStatement!(query) } : {}),
    });
    const driver: Driver = { kind: "postgres", client };
    const db = drizzleOver(driver);
    return {
      db,
      driver,
      kind: "postgres",
      async migrate() {
        // Several instances may start at once: one migrates, the others wait.
        // The lock is held on one reserved connection while the pool migrates.
        const lockConnection = await client.reserve();
        try {
          await lockConnection`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
          await migratePostgres(db as Parameters<typeof migratePostgres>[0], { migrationsFolder });
        } finally {
          await lockConnection`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`.catch(() => {});
          lockConnection.release();
        }
      },
      close: () => client.end({ timeout: 5 }),
    };
  }
  const dataDir = options.dataDir ?? getEnv().dataDir;
  if (!dataDir.startsWith("memory://")) fs.mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(dataDir);
  const driver: Driver = { kind: "pglite", client };
  const db = drizzleOver(driver);
  return {
    db,
    driver,
    kind: "pglite",
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder }),
    close: () => client.close(),
  };
}

/**
 * What the application's statements go through on postgres.js (not inside
 * transactions, which get their own connection handle):
 *
 * Prepared reads. postgres.js sends an unprepared statement with parameters
 * in two round trips (Parse + Describe, wait for the parameter types, then
 * Bind + Execute) and Postgres parses and plans it every time; for the APIs'
 * small keyset pages planning costs more than executing (EXPLAIN: ~1 ms
 * against ~0.3 ms). A read (select, or a call of a function such as
 * rate_limit_hit) with a bounded number of parameters is therefore sent as a
 * named prepared statement: one round trip once the connection has seen it,
 * no parse, and a plan Postgres may reuse (plan_cache_mode auto: custom plans
 * for the first five runs, then the generic plan only if it is not costlier).
 * The parameter bound keeps statements whose text varies with their input
 * (bulk inserts, long IN lists) out of the per-connection statement caches;
 * connections are replaced every 30 minutes, which bounds them anyway.
 * docs/benchmarks.md "Round trips per request".
 *
 * Retried reads. A dropped connection (a restarted or failed-over database, a
 * terminated backend) fails the statements in flight or queued on it. Reads
 * are retried once, on a connection the pool opens afresh: the statements
 * drizzle builds with db.select() outside a transaction (they begin with
 * "select" and are read through `.values()`). Writes, db.execute() (which may
 * call a function that writes, like rate_limit_hit) and transactions are never
 * retried: they fail, and the APIs answer 503 with Retry-After.
 */
const MAX_PREPARED_PARAMETERS = 64;
function retryingReads(client: postgres.Sql): postgres.Sql {
  const unsafe = (query: string, params?: postgres.ParameterOrJSON<never>[], queryOptions?: postgres.UnsafeQueryOptions) => {
    const read = /^\s*select\b/i.test(query);
    const options = read && (params?.length ?? 0) <= MAX_PREPARED_PARAMETERS ? { ...queryOptions, prepare: true } : queryOptions;
    const pending = client.unsafe(query, params, options);
    if (!read) return pending;
    const values = pending.values.bind(pending);
    // postgres.js runs a statement only when it is awaited, so the first attempt is the original object.
    pending.values = () =>
      retryReadOnce(values, () => client.unsafe(query, params, options).values()) as unknown as ReturnType<typeof values>;
    return pending;
  };
  return new Proxy(client, {
    get: (target, property, receiver) => (property === "unsafe" ? unsafe : Reflect.get(target, property, receiver)),
  });
}

// The app's handle lives on globalThis: Next.js may load this module in more
// than one bundle, and two PGlite instances on one folder would corrupt it.
const globalKey = Symbol.for("svc-results.db");
type GlobalWithDb = typeof globalThis & { [globalKey]?: DbHandle };

export function getDbHandle(): DbHandle {
  const g = globalThis as GlobalWithDb;
  if (!g[globalKey]) {
    const env = getEnv();
    g[globalKey] = openDb({ databaseUrl: env.DATABASE_URL, dataDir: env.dataDir });
  }
  return g[globalKey]!;
}

/**
 * The application's database, through this bundle's own drizzle. Next.js
 * bundles drizzle-orm once per module graph (instrumentation, route handlers,
 * pages), each with its own classes. Drizzle tells columns, tables and SQL
 * apart with `instanceof`, falling back to a walk up the prototype chain when
 * that fails: a drizzle from another bundle than the schema it is given
 * answered correctly but spent about a tenth of a request's CPU in that walk
 * (docs/benchmarks.md). The pool stays one per process; only the thin drizzle
 * wrapper is per bundle.
 */
const dbOfThisBundle = new WeakMap<DbHandle, Db>();
export function localDb(handle: DbHandle): Db {
  let db = dbOfThisBundle.get(handle);
  if (!db) {
    db = drizzleOver(handle.driver);
    dbOfThisBundle.set(handle, db);
  }
  return db;
}

export function getDb(): Db {
  return localDb(getDbHandle());
}

export async function pingDb(db: Db): Promise<boolean> {
  await db.execute(sql`select 1`);
  return true;
}
