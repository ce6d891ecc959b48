import { randomBytes } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import {
  canonicalJson,
  deleteExpiredIdempotencyKeys,
  IdempotencyKeyReusedError,
  parseIdempotencyKey,
  requestFingerprint,
  withIdempotencyKey,
  type StoredOutcome,
} from "./idempotency";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
  await handle.db.execute(
    sql`create table if not exists idempotency_test_work (id serial primary key, scope text not null, label text not null)`,
  );
});
afterAll(async () => {
  await handle.close();
});

const newScope = () => `test:${randomBytes(6).toString("hex")}`;
const fingerprint = (body: unknown, path = "/sessions/1/exports") => requestFingerprint({ method: "POST", path, body });

/** Creates one row of test work and returns it as a resource outcome. */
async function work(db: DbHandle["db"], scope: string, label: string): Promise<StoredOutcome> {
  const rows = await db.execute<{ id: number }>(
    sql`insert into idempotency_test_work (scope, label) values (${scope}, ${label}) returning id`,
  );
  const id = (Array.isArray(rows) ? rows : (rows as unknown as { rows: { id: number }[] }).rows)[0].id;
  return { kind: "resource", type: "test", id: String(id) };
}
async function workCount(scope: string): Promise<number> {
  const rows = await handle.db.execute<{ n: number }>(sql`select count(*)::int as n from idempotency_test_work where scope = ${scope}`);
  return (Array.isArray(rows) ? rows : (rows as unknown as { rows: { n: number }[] }).rows)[0].n;
}

describe("parsing and fingerprints", () => {
  it("accepts 1 to 255 printable characters and names the header otherwise", () => {
    expect(parseIdempotencyKey(null)).toBeNull();
    expect(parseIdempotencyKey("a".repeat(255))).toBe("a".repeat(255));
    expect(parseIdempotencyKey("order 42/retry")).toBe("order 42/retry");
    for (const bad of ["", "a".repeat(256), " lead", "trail ", "nul\u0000", "é"]) {
      expect(() => parseIdempotencyKey(bad)).toThrow(/^Idempotency-Key: /);
    }
  });

  it("fingerprints ignore key order but not values, path or method", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}');
    expect(fingerprint({ format: "json", lang: "en" })).toBe(fingerprint({ lang: "en", format: "json" }));
    expect(fingerprint({ format: "json" })).not.toBe(fingerprint({ format: "pdf" }));
    expect(fingerprint({ format: "json" })).not.toBe(fingerprint({ format: "json" }, "/sessions/2/exports"));
    expect(requestFingerprint({ method: "PUT", path: "/x", body: {} })).not.toBe(
      requestFingerprint({ method: "POST", path: "/x", body: {} }),
    );
  });
});

describe("withIdempotencyKey", () => {
  it("runs the work once and replays its outcome for the same key and request", async () => {
    const scope = newScope();
    const claim = { scope, key: "k1", fingerprint: fingerprint({ format: "json" }) };
    const first = await withIdempotencyKey(handle.db, claim, (tx) => work(tx, scope, "first"));
    const second = await withIdempotencyKey(handle.db, claim, (tx) => work(tx, scope, "second"));
    expect(first.replayed).toBe(false);
    expect(second).toEqual({ replayed: true, outcome: first.outcome });
    expect(await workCount(scope)).toBe(1);
  });

  it("refuses the same key for a different request, and keeps keys apart per scope", async () => {
    const scope = newScope();
    await withIdempotencyKey(handle.db, { scope, key: "k", fingerprint: fingerprint({ format: "json" }) }, (tx) => work(tx, scope, "a"));
    await expect(
      withIdempotencyKey(handle.db, { scope, key: "k", fingerprint: fingerprint({ format: "pdf" }) }, (tx) => work(tx, scope, "b")),
    ).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    const other = newScope();
    const elsewhere = await withIdempotencyKey(handle.db, { scope: other, key: "k", fingerprint: fingerprint({ format: "pdf" }) }, (tx) =>
      work(tx, other, "c"),
    );
    expect(elsewhere.replayed).toBe(false);
    expect(await workCount(scope)).toBe(1);
  });

  it("leaves no key behind when the work fails, so a retry does the work", async () => {
    const scope = newScope();
    const claim = { scope, key: "k", fingerprint: fingerprint({}) };
    await expect(
      withIdempotencyKey(handle.db, claim, async (tx) => {
        await work(tx, scope, "doomed");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await workCount(scope)).toBe(0);
    const retried = await withIdempotencyKey(handle.db, claim, (tx) => work(tx, scope, "retry"));
    expect(retried.replayed).toBe(false);
    expect(await workCount(scope)).toBe(1);
  });

  it("treats an expired key as new and sweeps expired keys", async () => {
    const scope = newScope();
    const longAgo = new Date(Date.now() - 25 * 3600_000);
    await withIdempotencyKey(handle.db, { scope, key: "old", fingerprint: fingerprint({ v: 1 }) }, (tx) => work(tx, scope, "1"), {
      now: longAgo,
    });
    // A different body under the expired key is a new request, not a 409.
    const reused = await withIdempotencyKey(handle.db, { scope, key: "old", fingerprint: fingerprint({ v: 2 }) }, (tx) =>
      work(tx, scope, "2"),
    );
    expect(reused.replayed).toBe(false);
    await withIdempotencyKey(handle.db, { scope, key: "gone", fingerprint: fingerprint({}) }, (tx) => work(tx, scope, "3"), {
      now: longAgo,
    });
    expect(await deleteExpiredIdempotencyKeys(handle.db)).toBeGreaterThanOrEqual(1);
    const left = await handle.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.scope, scope));
    expect(left.map((r) => r.key)).toEqual(["old"]);
  });

  it("20 concurrent identical requests do the work exactly once and all get its outcome", async () => {
    // Several connections on Postgres, so the requests really race; PGlite serializes them.
    const racing = process.env.DATABASE_URL ? openDb({ databaseUrl: process.env.DATABASE_URL, maxConnections: 20 }) : handle;
    try {
      const scope = newScope();
      const claim = { scope, key: "race", fingerprint: fingerprint({ format: "json" }) };
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          withIdempotencyKey(racing.db, claim, async (tx) => {
            const outcome = await work(tx, scope, `request ${i}`);
            // Hold the transaction open a moment so the others pile up on the key.
            await tx.execute(sql`select pg_sleep(0.05)`);
            return outcome;
          }),
        ),
      );
      expect(await workCount(scope)).toBe(1);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      for (const r of results) expect(r.outcome).toEqual(results.find((first) => !first.replayed)!.outcome);
      const [{ n }] = await handle.db
        .select({ n: count() })
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, "race")));
      expect(n).toBe(1);
    } finally {
      if (racing !== handle) await racing.close();
    }
  });
});
