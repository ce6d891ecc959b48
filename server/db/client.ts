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
import { isConnectionError, pauseBeforeRetry, RECONNECT_RETRY_DELAYS_MS, retryOnFreshConnection } from "./connection-errors";
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
    ? (drizzlePostgres(resilient(driver.client), { schema }) as unknown as Db)
    : (drizzlePglite(driver.client, { schema }) as unknown as Db);
}

/**
 * Seconds before a pooled connection that closed on a socket error may
 * connect again. postgres.js counts such closes pool-wide and resets the
 * count only on a successful connection; its default (3^n / 100 s, capped at
 * 20 s) made a pool whose backends were all terminated at once wait 10–20 s
 * to reopen, and the reads queued for it with them. A short, capped wait is
 * enough not to spin against a database that is down.
 */
export function reconnectBackoffSeconds(retries: number): number {
  return Math.min(0.02 * 2 ** retries, 1);
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
      backoff: reconnectBackoffSeconds,
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
 * What the application's statements go through on postgres.js
 * (docs/architecture.md "Lost database connections" and "Round trips").
 *
 * Prepared reads. postgres.js sends an unprepared statement with parameters
 * in two round trips (Parse + Describe, wait for the parameter types, then
 * Bind + Execute) and Postgres parses and plans it every time; for the APIs'
 * small keyset pages planning costs more than executing (EXPLAIN: ~1 ms
 * against ~0.3 ms). A read (select, or a call of a function such as
 * rate_limit_hit) outside a transaction with a bounded number of parameters
 * is therefore sent as a named prepared statement: one round trip once the
 * connection has seen it, no parse, and a plan Postgres may reuse
 * (plan_cache_mode auto: custom plans for the first five runs, then the
 * generic plan only if it is not costlier). The parameter bound keeps
 * statements whose text varies with their input (bulk inserts, long IN lists)
 * out of the per-connection statement caches; connections are replaced every
 * 30 minutes, which bounds them anyway. docs/benchmarks.md "Round trips per
 * request".
 *
 * Lost connections. A dropped connection (a restarted or failed-over
 * database, a terminated backend) fails the statements in flight or queued on
 * it. What is safe to repeat is repeated on a connection the pool opens
 * afresh (retryOnFreshConnection), so no read fails for it:
 * - a read statement outside a transaction (`readStatement`: db.select(),
 *   db.execute() of a select, the relational queries);
 * - a transaction that had sent only reads when its connection died: it is
 *   run again from the start (nothing of it committed: Postgres rolls back
 *   what a dead backend had not committed);
 * - a transaction whose callback finished without writing: its result stands,
 *   whatever became of its COMMIT.
 * A transaction that wrote is never run again. When its connection dies
 * before COMMIT was sent, it did not commit: the error stands (503 with
 * Retry-After). When it dies during COMMIT, the outcome is read on a fresh
 * connection from the transaction's id (txid_status), taken just before
 * COMMIT: committed → its result is returned; aborted → the error stands.
 * A write statement outside a transaction is not retried (one that died in
 * flight may have committed); its error is answered 503.
 */
const MAX_PREPARED_PARAMETERS = 64;

/**
 * Whether a statement only reads, so that running it again changes nothing.
 * `rate_limit_hit` counts as one: a request whose count died with its
 * connection may be counted twice, which is preferred to failing it.
 */
export function readStatement(query: string): boolean {
  return /^\s*(select|with)\b/i.test(query) && !WRITES_IN_A_READ.test(query);
}
// Data-modifying CTEs and locking reads (conservatively), and the functions with effects a select may call.
const WRITES_IN_A_READ = /\b(insert|update|delete|merge|truncate)\b|\b(nextval|setval|pg_notify|sandbox_delete_blobs)\s*\(/i;
/** Statements of a transaction that neither read nor write (drizzle's `set transaction`, savepoints). */
const NEUTRAL_STATEMENT = /^\s*(set\s+transaction|savepoint|release|rollback\s+to)\b/i;

/** A read postgres.js runs when awaited, run again on a connection error; `.values()` asks for rows as arrays (drizzle). */
class RetriedRead<T> implements PromiseLike<T> {
  private asValues = false;
  private running: Promise<T> | undefined;
  constructor(private readonly send: () => postgres.PendingQuery<postgres.Row[]>) {}
  values(): this {
    this.asValues = true;
    return this;
  }
  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ) {
    this.running ??= retryOnFreshConnection(() => {
      const query = this.send();
      return (this.asValues ? query.values() : query) as unknown as PromiseLike<T>;
    });
    return this.running.then(onFulfilled, onRejected);
  }
}

type TransactionSql = postgres.TransactionSql;
interface TransactionState {
  wrote: boolean;
  /** The transaction's connection closed: nothing more may be sent through it. */
  dead: boolean;
}

/**
 * A transaction callback's outcome as postgres.js may see it. After a
 * connection error it never settles: postgres.js 3.4.9 would answer a
 * rejection with ROLLBACK (or a savepoint's ROLLBACK TO) on the connection it
 * has just closed, and a write to a closed connection throws outside any
 * promise and ends the process (porsager/postgres#1154, #1208). `begin`
 * itself rejects when the connection closes, which is what the caller sees.
 */
function guarded<T>(outcome: Promise<T>, state: TransactionState): Promise<T> {
  return outcome.catch((error: unknown) => {
    if (!isConnectionError(error)) throw error;
    state.dead = true;
    return new Promise<T>(() => {});
  });
}

/** The transaction's handle as its callback sees it: every statement sent through it is classified. */
function observed(tx: TransactionSql, state: TransactionState): TransactionSql {
  return new Proxy(tx, {
    get(target, property, receiver) {
      if (property === "unsafe")
        return (query: string, ...rest: unknown[]) => {
          if (state.dead)
            return Promise.reject(Object.assign(new Error("the transaction's connection closed"), { code: "CONNECTION_CLOSED" }));
          if (!readStatement(query) && !NEUTRAL_STATEMENT.test(query)) state.wrote = true;
          return (target.unsafe as (...args: unknown[]) => unknown)(query, ...rest);
        };
      if (property === "savepoint")
        return (...args: unknown[]) => {
          const fn = args.pop() as (sql: TransactionSql) => unknown;
          return (target.savepoint as (...args: unknown[]) => unknown)(...args, (sp: TransactionSql) =>
            guarded(
              Promise.resolve().then(() => fn(observed(sp, state))),
              state,
            ),
          );
        };
      return Reflect.get(target, property, receiver);
    },
  });
}

/** How long a transaction whose COMMIT lost its connection may still show "in progress" while its backend exits. */
const COMMIT_OUTCOME_WAIT_MS = 5_000;

/** Whether transaction `xid` committed, read on a fresh connection; null when Postgres cannot tell (too old). */
async function committed(client: postgres.Sql, xid: string): Promise<boolean | null> {
  const deadline = Date.now() + COMMIT_OUTCOME_WAIT_MS;
  for (;;) {
    const [row] = await retryOnFreshConnection(() => client.unsafe("select txid_status($1::bigint) as status", [xid]));
    const status = row?.status as string | null;
    if (status === "committed") return true;
    if (status === "aborted") return false;
    if (status !== "in progress" || Date.now() > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function resilient(client: postgres.Sql): postgres.Sql {
  const unsafe = (query: string, params?: postgres.ParameterOrJSON<never>[], queryOptions?: postgres.UnsafeQueryOptions) => {
    if (!readStatement(query)) return client.unsafe(query, params, queryOptions);
    const options = (params?.length ?? 0) <= MAX_PREPARED_PARAMETERS ? { ...queryOptions, prepare: true } : queryOptions;
    return new RetriedRead(() => client.unsafe(query, params, options));
  };
  const begin = async (...args: unknown[]) => {
    const fn = args.pop() as (tx: TransactionSql) => unknown;
    const options = (args[0] as string | undefined) ?? "";
    for (let retry = 0; ; retry++) {
      const state: TransactionState = { wrote: false, dead: false };
      let finished: { result: unknown; xid: string | null } | undefined;
      try {
        return await client
          .begin(options, (tx) =>
            guarded(
              (async () => {
                const result = await fn(observed(tx, state));
                // The transaction's id, if it wrote: after a COMMIT that lost its connection, it tells what became of it.
                const xid = state.wrote
                  ? ((await tx.unsafe("select txid_current_if_assigned()::text as xid"))[0].xid as string | null)
                  : null;
                finished = { result, xid };
                return result;
              })(),
              state,
            ),
          )
          .catch((error: unknown) => {
            state.dead = true;
            throw error;
          });
      } catch (error) {
        if (!isConnectionError(error)) throw error;
        if (finished) {
          // The callback ran to its end: only COMMIT (or the id's statement) met the dead connection.
          if (finished.xid === null || (await committed(client, finished.xid))) return finished.result;
          throw error;
        }
        if (state.wrote || retry >= RECONNECT_RETRY_DELAYS_MS.length) throw error;
        await pauseBeforeRetry(retry);
      }
    }
  };
  return new Proxy(client, {
    get: (target, property, receiver) =>
      property === "unsafe" ? unsafe : property === "begin" ? begin : Reflect.get(target, property, receiver),
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
