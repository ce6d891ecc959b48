import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { healthLactate, healthWeights, results } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { createTrack } from "../tracks/tracks";
import { createUser } from "../users/users";
import { listShareableLactate, listShareableWeights, type WeightPosition } from "./shareable-health";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const newUser = (name: string) =>
  createUser(handle.db, { name, email: `${name}-${randomUUID()}@test.example`, password: "long enough password" });

/** Follows the keyset to the end, inserting `between` after the first page. */
async function allWeightPages(userId: number, take: number, between?: () => Promise<void>) {
  const seen: number[] = [];
  let after: WeightPosition | null = null;
  for (let page = 0; page < 50; page++) {
    const rows = await listShareableWeights(handle.db, userId, { after, take });
    seen.push(...rows.map((r) => r.id));
    if (rows.length < take) break;
    const last = rows[rows.length - 1];
    after = [last.measuredOn, last.id];
    if (page === 0 && between) await between();
  }
  return seen;
}

it("weights: newest first, own manual and device rows only, stable pages while rows are inserted", async () => {
  const db = handle.db;
  const person = await newUser("weigher");
  const other = await newUser("other");
  const insert = (userId: number, measuredOn: string, provenance: "manual" | "device" | "external", weightKg = 70) =>
    db
      .insert(healthWeights)
      .values({ userId, measuredOn, weightKg, provenance, externalSource: provenance === "external" ? "Some provider" : null })
      .returning({ id: healthWeights.id })
      .then(([r]) => r.id);

  const manual = [
    await insert(person.id, "2026-01-03", "manual"),
    await insert(person.id, "2026-01-01", "manual"),
    await insert(person.id, "2026-01-03", "manual"),
  ];
  const device = await insert(person.id, "2026-01-02", "device");
  const external = [await insert(person.id, "2026-01-04", "external", 99), await insert(person.id, "2026-01-02", "external", 99)];
  await insert(other.id, "2026-01-05", "manual");

  const all = await listShareableWeights(db, person.id, { after: null, take: 100 });
  // Same day: the later id first.
  expect(all.map((r) => r.id)).toEqual([manual[2], manual[0], device, manual[1]]);
  expect(all.every((r) => r.provenance === "manual" || r.provenance === "device")).toBe(true);
  expect(all.map((r) => r.id)).not.toContain(external[0]);

  // Pages of 2: a newer row and an older row inserted after the first page.
  // The newer one sorts before the position (not seen, as a keyset promises); the older one is seen once; nothing repeats or goes missing.
  let older = 0;
  const paged = await allWeightPages(person.id, 2, async () => {
    await insert(person.id, "2026-02-01", "manual");
    older = await insert(person.id, "2025-12-31", "manual");
    await insert(person.id, "2025-12-30", "external");
  });
  expect(paged).toEqual([...all.map((r) => r.id), older]);
  expect(new Set(paged).size).toBe(paged.length);

  // Only external rows: nothing at all.
  const onlyExternal = await newUser("external-only");
  await insert(onlyExternal.id, "2026-01-01", "external");
  expect(await listShareableWeights(db, onlyExternal.id, { after: null, take: 50 })).toEqual([]);
});

it("lactate: the person's own readings of one session in time order, never external or another crew member's", async () => {
  const db = handle.db;
  const person = await newUser("lactate");
  const crewmate = await newUser("crewmate");
  const track = await createTrack(db, person.id, { name: "Lactate basin" });
  const session = async () => {
    const [row] = await db
      .insert(results)
      .values({
        ownerUserId: person.id,
        trackId: track.id,
        vesselId: 2,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date: "2026-03-01",
        timeOfDay: "10:00:00+01:00",
        startAt: new Date("2026-03-01T09:00:00Z"),
        utcOffsetMin: 60,
        distanceM: 1000,
        durationMs: 240_000,
        targetDistanceM: 1000,
      })
      .returning({ id: results.id });
    return row.id;
  };
  const sessionId = await session();
  const otherSession = await session();
  const reading = (userId: number, resultId: number, at: string, provenance: "manual" | "device" | "external") =>
    db
      .insert(healthLactate)
      .values({ userId, resultId, measuredAt: new Date(at), lactateMmolL: 4.2, provenance, note: "" })
      .returning({ id: healthLactate.id })
      .then(([r]) => r.id);

  const after = await reading(person.id, sessionId, "2026-03-01T09:10:00.123Z", "manual");
  const before = await reading(person.id, sessionId, "2026-03-01T08:55:00Z", "manual");
  const sameInstant = await reading(person.id, sessionId, "2026-03-01T09:10:00.123Z", "device");
  await reading(person.id, sessionId, "2026-03-01T09:00:00Z", "external");
  await reading(crewmate.id, sessionId, "2026-03-01T09:05:00Z", "manual");
  await reading(person.id, otherSession, "2026-03-01T09:05:00Z", "manual");

  const all = await listShareableLactate(db, person.id, { sessionId }, { after: null, take: 50 });
  expect(all.map((r) => r.id)).toEqual([before, after, sameInstant]);

  // Page by page through the exact-text position (milliseconds survive the round trip).
  const first = await listShareableLactate(db, person.id, { sessionId }, { after: null, take: 2 });
  const last = first[first.length - 1];
  const second = await listShareableLactate(db, person.id, { sessionId }, { after: [last.measuredAtText, last.id], take: 2 });
  expect([...first, ...second].map((r) => r.id)).toEqual([before, after, sameInstant]);

  // Without a session: every own shareable reading, in time order.
  const everything = await listShareableLactate(db, person.id, {}, { after: null, take: 50 });
  expect(everything.map((r) => r.resultId)).toEqual([sessionId, otherSession, sessionId, sessionId]);
  expect(everything.map((r) => r.provenance)).toEqual(["manual", "manual", "manual", "device"]);

  // The crewmate sees only their own reading of the same session.
  expect((await listShareableLactate(db, crewmate.id, { sessionId }, { after: null, take: 50 })).map((r) => r.provenance)).toEqual([
    "manual",
  ]);
});
