import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { resultShares, results } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { createTrack } from "../tracks/tracks";
import { createUser } from "../users/users";
import { resolveShareToken, revokeShareLink, sessionPublicLink } from "./share-links";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe("a session's public link", () => {
  it("is one link reused by every report until revoked, then a new one; others cannot reach it", async () => {
    const owner = await createUser(handle.db, {
      name: "Owner",
      email: `share-${randomUUID()}@test.example`,
      password: "long enough password",
    });
    const stranger = await createUser(handle.db, {
      name: "Stranger",
      email: `share-${randomUUID()}@test.example`,
      password: "long enough password",
    });
    const track = await createTrack(handle.db, owner.id, { name: "Share basin" });
    const [result] = await handle.db
      .insert(results)
      .values({
        ownerUserId: owner.id,
        trackId: track.id,
        vesselId: 1,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date: "2026-03-01",
        timeOfDay: "10:00:00+00:00",
        startAt: new Date("2026-03-01T10:00:00Z"),
        utcOffsetMin: 0,
        distanceM: 500,
        durationMs: 110_000,
        targetDistanceM: 500,
      })
      .returning({ id: results.id });

    const [first, second, concurrent] = await Promise.all([
      sessionPublicLink(handle.db, owner.id, result.id),
      sessionPublicLink(handle.db, owner.id, result.id),
      sessionPublicLink(handle.db, owner.id, result.id),
    ]);
    expect(second).toEqual(first);
    expect(concurrent).toEqual(first);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await resolveShareToken(handle.db, first.token)).toBe(result.id);
    const rows = await handle.db.select({ hash: resultShares.tokenHash }).from(resultShares).where(eq(resultShares.resultId, result.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].hash).not.toContain(first.token);

    await revokeShareLink(handle.db, owner.id, first.id);
    expect(await resolveShareToken(handle.db, first.token)).toBeNull();
    const renewed = await sessionPublicLink(handle.db, owner.id, result.id);
    expect(renewed.token).not.toBe(first.token);
    expect(await resolveShareToken(handle.db, renewed.token)).toBe(result.id);

    await expect(sessionPublicLink(handle.db, stranger.id, result.id)).rejects.toMatchObject({ code: "not_found" });
  });
});
