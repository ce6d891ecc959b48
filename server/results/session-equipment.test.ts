import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { resultCrew, results } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { createOwnPaddle, createOwnVessel, deleteOwnVessel } from "../equipment/equipment";
import { createTrack } from "../tracks/tracks";
import { createUser } from "../users/users";
import { readSessionEquipment, setSessionEquipment } from "./session-equipment";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const newUser = () =>
  createUser(handle.db, { name: "Paddler", email: `eq-${randomUUID()}@test.example`, password: "correct horse battery" });

/** A processed K1 session row owned by `ownerId` (what an upload stores, without the file). */
async function newSession(ownerId: number, vesselId = 1) {
  const track = await createTrack(handle.db, ownerId, { name: "Basin" });
  const [row] = await handle.db
    .insert(results)
    .values({
      ownerUserId: ownerId,
      trackId: track.id,
      vesselId,
      categoryId: 1,
      paceId: 1,
      createdVia: "web",
      date: "2026-03-01",
      timeOfDay: "09:00:00+01:00",
      startAt: new Date("2026-03-01T08:00:00Z"),
      utcOffsetMin: 60,
      distanceM: 500,
      durationMs: 110_000,
      targetDistanceM: 500,
    })
    .returning({ id: results.id });
  return row.id;
}
const ownBoat = (ownerId: number, name = "Nelo K1") => createOwnVessel(handle.db, ownerId, { name, vesselTypeId: 1 });
const ownPaddle = (ownerId: number, name = "Braca wing") => createOwnPaddle(handle.db, ownerId, { name, kind: "kayak" });
const stored = async (resultId: number) =>
  (
    await handle.db
      .select({ vesselId: results.equipmentVesselId, paddleId: results.equipmentPaddleId })
      .from(results)
      .where(eq(results.id, resultId))
  )[0];

describe("session equipment", () => {
  it("records the owner's boat and paddle, changes them, and clears them with null", async () => {
    const owner = await newUser();
    const session = await newSession(owner.id);
    const [boat, spareBoat, paddle] = [await ownBoat(owner.id), await ownBoat(owner.id, "Spare"), await ownPaddle(owner.id)];
    expect(await readSessionEquipment(handle.db, owner.id, session)).toEqual({ vesselId: null, paddleId: null });

    expect(await setSessionEquipment(handle.db, owner.id, session, { vesselId: boat.id, paddleId: paddle.id })).toEqual({
      vesselId: boat.id,
      paddleId: paddle.id,
    });
    expect(await readSessionEquipment(handle.db, owner.id, session)).toEqual({ vesselId: boat.id, paddleId: paddle.id });

    await setSessionEquipment(handle.db, owner.id, session, { vesselId: spareBoat.id, paddleId: null });
    expect(await stored(session)).toEqual({ vesselId: spareBoat.id, paddleId: null });

    // Deleting the boat on the equipment page leaves the session without one.
    await deleteOwnVessel(handle.db, owner.id, spareBoat.id);
    expect(await stored(session)).toEqual({ vesselId: null, paddleId: null });
  });

  it("refuses another user's boat or paddle as a field error, like a missing one, and keeps what was recorded", async () => {
    const owner = await newUser();
    const other = await newUser();
    const session = await newSession(owner.id);
    const [boat, paddle] = [await ownBoat(owner.id), await ownPaddle(owner.id)];
    const [othersBoat, othersPaddle] = [await ownBoat(other.id), await ownPaddle(other.id)];
    await setSessionEquipment(handle.db, owner.id, session, { vesselId: boat.id, paddleId: paddle.id });

    await expect(setSessionEquipment(handle.db, owner.id, session, { vesselId: othersBoat.id, paddleId: paddle.id })).rejects.toMatchObject(
      {
        code: "invalid",
        fieldErrors: { vesselId: ["Choose one of your boats"] },
      },
    );
    const both = await setSessionEquipment(handle.db, owner.id, session, { vesselId: 2_000_000_000, paddleId: othersPaddle.id }).catch(
      (e: unknown) => e,
    );
    expect(both).toMatchObject({
      code: "invalid",
      fieldErrors: { vesselId: ["Choose one of your boats"], paddleId: ["Choose one of your paddles"] },
    });
    expect(await stored(session)).toEqual({ vesselId: boat.id, paddleId: paddle.id });
  });

  it("lets only the owner set it: a coach who sees the session is forbidden, a stranger gets not-found", async () => {
    const owner = await newUser();
    const coach = await newUser();
    const stranger = await newUser();
    const session = await newSession(owner.id);
    // The coach manages an athlete in the crew, so the session is visible to them.
    const athlete = await createAthlete(handle.db, coach.id, { name: "Crew", subscriptionActiveUntil: "2099-01-01" });
    await handle.db.insert(resultCrew).values({ resultId: session, seat: 1, athleteId: athlete.id });
    const coachBoat = await ownBoat(coach.id);

    await expect(setSessionEquipment(handle.db, coach.id, session, { vesselId: coachBoat.id, paddleId: null })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(readSessionEquipment(handle.db, coach.id, session)).rejects.toMatchObject({ code: "forbidden" });
    await expect(setSessionEquipment(handle.db, stranger.id, session, { vesselId: null, paddleId: null })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(setSessionEquipment(handle.db, owner.id, 2_000_000_000, { vesselId: null, paddleId: null })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await stored(session)).toEqual({ vesselId: null, paddleId: null });
  });

  it("refuses equipment that does not fit the session's boat class: a K2 boat or a canoe paddle on a K1", async () => {
    const owner = await newUser();
    const session = await newSession(owner.id);
    const k2Boat = await createOwnVessel(handle.db, owner.id, { name: "Nelo K2", vesselTypeId: 2 });
    const canoePaddle = await createOwnPaddle(handle.db, owner.id, { name: "Canoe blade", kind: "canoe" });
    const refused = await setSessionEquipment(handle.db, owner.id, session, { vesselId: k2Boat.id, paddleId: canoePaddle.id }).catch(
      (e) => e,
    );
    expect(refused).toMatchObject({
      code: "invalid",
      fieldErrors: {
        vesselId: ["This boat is not a K1; choose a K1 boat"],
        paddleId: ["A canoe paddle does not fit a K1; choose a kayak paddle"],
      },
    });
    expect(await stored(session)).toEqual({ vesselId: null, paddleId: null });
    const fits = await setSessionEquipment(handle.db, owner.id, session, {
      vesselId: (await ownBoat(owner.id)).id,
      paddleId: (await ownPaddle(owner.id)).id,
    });
    expect(fits.vesselId).not.toBeNull();
  });

  it("refuses a kayak paddle on a C2 and takes a canoe paddle and a C2 boat", async () => {
    const owner = await newUser();
    const c2Session = await newSession(owner.id, 5);
    const kayakPaddle = await createOwnPaddle(handle.db, owner.id, { name: "Kayak wing", kind: "kayak" });
    const refused = await setSessionEquipment(handle.db, owner.id, c2Session, { vesselId: null, paddleId: kayakPaddle.id }).catch((e) => e);
    expect(refused).toMatchObject({
      code: "invalid",
      fieldErrors: { paddleId: ["A kayak paddle does not fit a C2; choose a canoe paddle"] },
    });
    expect(await stored(c2Session)).toEqual({ vesselId: null, paddleId: null });
    const c2Boat = await createOwnVessel(handle.db, owner.id, { name: "Club C2", vesselTypeId: 5 });
    const canoePaddle = await createOwnPaddle(handle.db, owner.id, { name: "Canoe blade", kind: "canoe" });
    expect(await setSessionEquipment(handle.db, owner.id, c2Session, { vesselId: c2Boat.id, paddleId: canoePaddle.id })).toEqual({
      vesselId: c2Boat.id,
      paddleId: canoePaddle.id,
    });
  });
});
