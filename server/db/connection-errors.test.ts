import net from "node:net";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "./client";
import { isConnectionError } from "./connection-errors";
import { rateLimitCounters, roles } from "./schema";

/**
 * Defect 12: a dropped connection must not become errors for reads. Needs a
 * real Postgres (terminating backends means nothing to PGlite): runs when
 * DATABASE_URL is set.
 */
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)("lost database connections (Postgres)", () => {
  let handle: DbHandle;
  let admin: postgres.Sql;
  // Only this handle's connections are terminated (other test files share the database): they carry their own application_name.
  const applicationName = `lost-connections-${process.pid}`;
  beforeAll(async () => {
    const url = new URL(databaseUrl!);
    url.searchParams.set("application_name", applicationName);
    handle = openDb({ databaseUrl: url.toString(), maxConnections: 4 });
    await handle.migrate();
    admin = postgres(databaseUrl!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await admin.end();
    await handle.close();
  });

  /** Terminates every backend of the handle, as a failover or a restart would. */
  const terminateAll = async () => {
    const terminated = await admin`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${applicationName}`;
    expect(terminated.length).toBeGreaterThan(0);
  };

  it("reads in flight when the backends die are retried once and succeed", async () => {
    // Every pooled connection busy with a slow read when they are terminated.
    const reads = Array.from({ length: 12 }, () =>
      handle.db
        .select({ slept: sql<string>`pg_sleep(0.3)::text`, id: roles.id })
        .from(roles)
        .limit(1),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await terminateAll();
    const settled = await Promise.allSettled(reads);
    expect(settled.filter((s) => s.status === "rejected")).toEqual([]);
    // And new reads 300 ms later find working connections.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await Promise.allSettled(Array.from({ length: 40 }, () => handle.db.select({ id: roles.id }).from(roles).limit(1)));
    expect(after.filter((s) => s.status === "rejected")).toEqual([]);
  });

  it("writes are not retried: a write in flight fails with an error the APIs recognise (503)", async () => {
    const bucket = `lost-connection-${Date.now()}`;
    const write = handle.db.execute(
      sql`insert into ${rateLimitCounters} (bucket, window_start, count) select ${bucket}, now(), 1 from pg_sleep(0.3)`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await terminateAll();
    const outcome = await write.then(
      () => null,
      (error: unknown) => error,
    );
    expect(isConnectionError(outcome)).toBe(true);
    // Not written, and not written twice by a retry.
    const [{ n }] = await admin`select count(*)::int as n from rate_limit_counters where bucket = ${bucket}`;
    expect(n).toBe(0);
  });

  it("reads through db.execute() and inside transactions are retried too; a transaction that wrote is not", async () => {
    const bucket = `lost-connection-tx-${Date.now()}`;
    // All four connections open first (a connection killed while it starts up is another case: postgres.js reconnects it).
    await Promise.all(Array.from({ length: 4 }, () => handle.db.execute(sql`select pg_sleep(0.05)`)));
    const executed = handle.db.execute(sql`select pg_sleep(0.3)::text as slept, count(*)::int as n from ${roles}`);
    const inTransaction = Array.from({ length: 2 }, () =>
      handle.db.transaction(async (tx) => {
        const [row] = await tx
          .select({ slept: sql<string>`pg_sleep(0.3)::text`, id: roles.id })
          .from(roles)
          .limit(1);
        return row.id;
      }),
    );
    const wrote = handle.db
      .transaction(async (tx) => {
        await tx.insert(rateLimitCounters).values({ bucket, windowStart: new Date(), count: 1 });
        await tx.execute(sql`select pg_sleep(0.3)`);
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await terminateAll();
    const [execute, ...reads] = await Promise.allSettled([executed, ...inTransaction]);
    expect(execute.status).toBe("fulfilled");
    expect(reads.map((r) => r.status)).toEqual(["fulfilled", "fulfilled"]);
    expect(isConnectionError(await wrote)).toBe(true);
    const [{ n }] = await admin`select count(*)::int as n from rate_limit_counters where bucket = ${bucket}`;
    expect(n).toBe(0);
  });

  /**
   * A COMMIT whose connection dies: the outcome is the transaction's, read by
   * its id on a fresh connection. A proxy between the pool and Postgres cuts
   * the connection at the COMMIT, deterministically: after forwarding it (it
   * commits, the answer is lost) or before (it never reaches the server).
   */
  describe("a COMMIT that loses its connection", () => {
    const commitCut = async (mode: "after" | "before") => {
      const target = new URL(databaseUrl!);
      const server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        let cut = false;
        upstream.on("data", (chunk) => cut || client.write(chunk));
        client.on("data", (chunk) => {
          if (cut) return;
          if (chunk.includes("commit\0")) {
            cut = true;
            if (mode === "after") upstream.write(chunk);
            // Postgres has committed (or seen the socket close) when both ends go.
            setTimeout(() => (client.destroy(), upstream.destroy()), 200);
            return;
          }
          upstream.write(chunk);
        });
        client.on("error", () => upstream.destroy());
        upstream.on("error", () => client.destroy());
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const url = new URL(databaseUrl!);
      url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
      const proxied = openDb({ databaseUrl: url.toString(), maxConnections: 1 });
      const bucket = `commit-cut-${mode}-${Date.now()}`;
      try {
        const outcome = await proxied.db
          .transaction(async (tx) => {
            await tx.insert(rateLimitCounters).values({ bucket, windowStart: new Date(), count: 1 });
            return "the transaction's result";
          })
          .then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
        const [{ n }] = await admin`select count(*)::int as n from rate_limit_counters where bucket = ${bucket}`;
        return { outcome, n };
      } finally {
        await proxied.close();
        server.close();
      }
    };

    it("committed, answer lost: the caller gets the transaction's result", async () => {
      const { outcome, n } = await commitCut("after");
      expect(n).toBe(1);
      expect(outcome).toEqual({ value: "the transaction's result" });
    });

    it("never reached the server: the caller gets the connection error (503) and nothing is written", async () => {
      const { outcome, n } = await commitCut("before");
      expect(n).toBe(0);
      expect("error" in outcome && isConnectionError(outcome.error)).toBe(true);
    });
  });

  it("recognises the driver's and the server's connection errors, also wrapped, and nothing else", () => {
    expect(isConnectionError(Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }))).toBe(
      true,
    );
    expect(
      isConnectionError(
        new Error("Failed query", { cause: Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" }) }),
      ),
    ).toBe(true);
    expect(isConnectionError(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBe(true);
    expect(isConnectionError(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isConnectionError(new Error("plain"))).toBe(false);
    expect(isConnectionError(null)).toBe(false);
  });
});
