import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "./client";
import { openTestDb } from "../../test/support/test-db";
import { listReferenceData } from "../reference/reference";
import { consumeRateLimit } from "../rate-limit/rate-limit";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe("migrations", () => {
  it("are idempotent and install the reference tables", async () => {
    await handle.migrate();
    const { vessels, categories, paces } = await listReferenceData(handle.db);
    expect(vessels.filter((v) => v.supported).map((v) => `${v.type}:${v.npeople}`)).toEqual([
      "K1:1",
      "K2:2",
      "K4:4",
      "C1:1",
      "C2:2",
      "C4:4",
    ]);
    expect(categories.length).toBeGreaterThanOrEqual(5);
    expect(paces.map((p) => p.name)).toContain("Race");
  });

  it("enforce the crew seat rule in the database", async () => {
    const result = await handle.db.execute(sql`select conname from pg_constraint where conname = 'result_crew_seat_chk'`);
    expect(Array.isArray(result) ? result.length : (result as { rows: unknown[] }).rows.length).toBe(1);
  });
});

describe("rate limits", () => {
  it("count per bucket and window, atomically under concurrency", async () => {
    const bucket = `test:${Math.random()}`;
    const now = new Date("2026-05-01T12:00:10Z");
    const policy = { limit: 5, windowSeconds: 60 };
    const decisions = await Promise.all(Array.from({ length: 8 }, () => consumeRateLimit(handle.db, bucket, policy, now)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(decisions.find((d) => !d.allowed)!.resetSeconds).toBe(50);
    const nextWindow = await consumeRateLimit(handle.db, bucket, policy, new Date("2026-05-01T12:01:00Z"));
    expect(nextWindow).toMatchObject({ allowed: true, remaining: 4 });
  });
});
