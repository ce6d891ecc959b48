import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client";
import { openTestDb } from "../../../test/support/test-db";
import { createUser } from "../../users/users";
import { CURSOR_LIFETIME_MS } from "./cursor";
import { DataApiError } from "./errors";
import type { KeysetPosition } from "../../contract/keyset";
import { keysetPage, type PagingContext } from "./pagination";

/**
 * keysetPage against a real database (the cursor secret lives there), with
 * an injected clock: cursors expire after exactly 24 hours, and a cursor is
 * refused on another list, other filters or for another person.
 */
let handle: DbHandle;
let subjectId: number;
beforeAll(async () => {
  handle = await openTestDb();
  subjectId = (
    await createUser(handle.db, { name: "Pager", email: `pager-${randomUUID()}@test.example`, password: "correct horse battery" })
  ).id;
});
afterAll(async () => {
  await handle.close();
});

const rows = Array.from({ length: 7 }, (_, i) => ({ id: i + 1 }));
const fetchAfter = async (after: KeysetPosition | null, take: number) =>
  rows.filter((r) => after === null || r.id > Number(after[0])).slice(0, take);
const position = (r: { id: number }): KeysetPosition => [r.id];
const t0 = new Date("2026-06-01T10:00:00Z");
const ctxAt = (now: Date, url = "https://results.example/api/v1/sessions?sort=date", subject = subjectId): PagingContext => ({
  db: handle.db,
  url: new URL(url),
  subjectId: subject,
  applicationId: 1,
  now,
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataApiError);
  expect((error as DataApiError).error).toBe("invalid_request");
  return (error as DataApiError).description;
}

describe("keysetPage", () => {
  it("walks every row once, in order, and ends with a null cursor", async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await keysetPage(ctxAt(t0), { limit: 3, cursor }, fetchAfter, position);
      seen.push(...page.rows.map((r) => r.id));
      cursor = page.meta.next_cursor ?? undefined;
      expect(page.meta.limit).toBe(3);
    } while (cursor);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("accepts a cursor until 24 hours after it was issued, and refuses it from then on", async () => {
    const first = await keysetPage(ctxAt(t0), { limit: 2 }, fetchAfter, position);
    const cursor = first.meta.next_cursor!;
    const justBefore = await keysetPage(ctxAt(new Date(t0.getTime() + CURSOR_LIFETIME_MS - 1)), { limit: 2, cursor }, fetchAfter, position);
    expect(justBefore.rows.map((r) => r.id)).toEqual([3, 4]);
    expect(
      await refusal(keysetPage(ctxAt(new Date(t0.getTime() + CURSOR_LIFETIME_MS)), { limit: 2, cursor }, fetchAfter, position)),
    ).toMatch(/expired/);
  });

  it("refuses a cursor on another list, with other filters, for another person, or altered", async () => {
    const cursor = (await keysetPage(ctxAt(t0), { limit: 2 }, fetchAfter, position)).meta.next_cursor!;
    expect(
      await refusal(keysetPage(ctxAt(t0, "https://results.example/api/v1/tracks?sort=date"), { limit: 2, cursor }, fetchAfter, position)),
    ).toMatch(/another list/);
    expect(
      await refusal(
        keysetPage(ctxAt(t0, "https://results.example/api/v1/sessions?sort=distance"), { limit: 2, cursor }, fetchAfter, position),
      ),
    ).toMatch(/another list/);
    expect(await refusal(keysetPage(ctxAt(t0, undefined, subjectId + 1), { limit: 2, cursor }, fetchAfter, position))).toMatch(
      /another account/,
    );
    expect(
      await refusal(
        keysetPage(ctxAt(t0), { limit: 2, cursor: cursor.replace(/.$/, (c) => (c === "A" ? "B" : "A")) }, fetchAfter, position),
      ),
    ).toMatch(/altered/);
    // The page size is not part of the list: a client may change it between pages.
    const url = "https://results.example/api/v1/sessions?sort=date&limit=5";
    expect((await keysetPage(ctxAt(t0, url), { limit: 5, cursor }, fetchAfter, position)).rows.map((r) => r.id)).toEqual([3, 4, 5, 6, 7]);
  });
});
