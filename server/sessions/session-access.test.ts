import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { athletes, resultCrew, results, sessionAccess } from "../db/schema";
import { createTrack } from "../tracks/tracks";
import { createUser } from "../users/users";
import { listSessionsPage, SESSION_SORTS, type SessionFilters } from "./list-sessions";

/**
 * session_access is kept by database triggers alone (drizzle/0013): these
 * tests change results, crews and athlete links the way the product does and
 * check whose sessions the Data API list then shows.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const newUser = () =>
  createUser(handle.db, { name: "Paddler", email: `sa-${randomUUID()}@test.example`, password: "correct horse battery" });

async function world() {
  const owner = await newUser();
  const paddler = await newUser();
  const track = await createTrack(handle.db, owner.id, { name: "Access basin" });
  const [linked, unlinked] = await handle.db
    .insert(athletes)
    .values([
      { ownerUserId: owner.id, userId: paddler.id, name: "Linked", surname: "Paddler" },
      { ownerUserId: owner.id, name: "Unlinked", surname: "Paddler" },
    ])
    .returning({ id: athletes.id });
  const insertResult = async (startAt: string, distanceM: number) => {
    const [row] = await handle.db
      .insert(results)
      .values({
        ownerUserId: owner.id,
        trackId: track.id,
        vesselId: 1,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date: startAt.slice(0, 10),
        timeOfDay: "10:00:00+00:00",
        startAt: new Date(startAt),
        utcOffsetMin: 0,
        distanceM,
        durationMs: distanceM * 200,
        targetDistanceM: distanceM,
      })
      .returning({ id: results.id });
    return row.id;
  };
  return { owner, paddler, linked: linked.id, unlinked: unlinked.id, insertResult };
}

const rowsOf = (resultId: number) =>
  handle.db
    .select({ userId: sessionAccess.userId, startAt: sessionAccess.startAt })
    .from(sessionAccess)
    .where(eq(sessionAccess.resultId, resultId));
const listFor = async (userId: number, filters: Partial<SessionFilters> = {}) =>
  (
    await listSessionsPage(
      handle.db,
      { subjectId: userId, surface: "data", applicationId: 1 },
      { sort: "date", order: "desc", ...filters },
      null,
      100,
    )
  ).map((r) => r.id);

describe("session_access", () => {
  it("holds the owner and every account whose athlete sits in the crew, as crews and links change", async () => {
    const { owner, paddler, linked, unlinked, insertResult } = await world();
    const id = await insertResult("2026-03-01T10:00:00Z", 500);
    expect((await rowsOf(id)).map((r) => r.userId)).toEqual([owner.id]);

    await handle.db.insert(resultCrew).values({ resultId: id, seat: 1, athleteId: linked });
    expect((await rowsOf(id)).map((r) => r.userId).sort()).toEqual([owner.id, paddler.id].sort());
    expect(await listFor(paddler.id)).toEqual([id]);

    // The seat changes hands: the paddler no longer sat in it.
    await handle.db
      .update(resultCrew)
      .set({ athleteId: unlinked })
      .where(and(eq(resultCrew.resultId, id), eq(resultCrew.seat, 1)));
    expect(await listFor(paddler.id)).toEqual([]);

    // The athlete in the seat gets linked to the paddler's account, then unlinked.
    await handle.db.update(athletes).set({ userId: null }).where(eq(athletes.id, linked));
    await handle.db.update(athletes).set({ userId: paddler.id }).where(eq(athletes.id, unlinked));
    expect(await listFor(paddler.id)).toEqual([id]);
    await handle.db.update(athletes).set({ userId: null }).where(eq(athletes.id, unlinked));
    expect(await listFor(paddler.id)).toEqual([]);

    // Sort keys follow the result; deleting the result removes every row.
    await handle.db
      .update(results)
      .set({ startAt: new Date("2026-03-02T08:00:00Z") })
      .where(eq(results.id, id));
    expect((await rowsOf(id))[0].startAt.toISOString()).toBe("2026-03-02T08:00:00.000Z");
    await handle.db.delete(results).where(eq(results.id, id));
    expect(await rowsOf(id)).toEqual([]);
    expect(await listFor(owner.id)).toEqual([]);
  });

  it("lists owned and paddled-in sessions once each, in every sort and order, with filters", async () => {
    const { owner, paddler, linked, insertResult } = await world();
    const a = await insertResult("2026-04-01T10:00:00Z", 200);
    const b = await insertResult("2026-04-02T10:00:00Z", 1000);
    const c = await insertResult("2026-04-03T10:00:00Z", 500);
    // The owner paddles in c too: one row per person and session, however they relate to it.
    await handle.db.update(athletes).set({ userId: null }).where(eq(athletes.userId, paddler.id));
    const [ownerAthlete] = await handle.db
      .insert(athletes)
      .values({ ownerUserId: owner.id, userId: owner.id, name: "Owner", surname: "Self" })
      .returning({ id: athletes.id });
    await handle.db.insert(resultCrew).values([
      { resultId: c, seat: 1, athleteId: ownerAthlete.id },
      { resultId: b, seat: 1, athleteId: linked },
    ]);
    await handle.db.update(athletes).set({ userId: paddler.id }).where(eq(athletes.id, linked));
    expect(await listFor(owner.id)).toEqual([c, b, a]);
    expect(await listFor(owner.id, { order: "asc" })).toEqual([a, b, c]);
    expect(await listFor(owner.id, { sort: "distance" })).toEqual([b, c, a]);
    expect(await listFor(owner.id, { distance_m: 500 })).toEqual([c]);
    expect(await listFor(paddler.id)).toEqual([b]);
    for (const sort of SESSION_SORTS) expect((await listFor(owner.id, { sort })).sort()).toEqual([a, b, c].sort());
  });
});
