import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDb } from "../../test/support/test-db";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athletes } from "../db/schema";
import { createUser, type SessionUser } from "../users/users";
import { athleteZoneSettings } from "./store-load";
import { resetAthleteZones, setAthleteZones, zonesFromBounds } from "./zone-settings";
import { DEFAULT_SPEED_ZONES } from "./zones";

/** The zone editor's writes (docs/load.md "Pages"): the manager only; reset gives the defaults back. */
let handle: DbHandle;
let coach: SessionUser;
let linked: SessionUser;
let stranger: SessionUser;
let athleteId: number;

beforeAll(async () => {
  handle = await openTestDb();
  const user = (label: string) =>
    createUser(handle.db, { name: label, email: `zones-${label}-${randomUUID()}@test.example`, password: "long enough password" });
  [coach, linked, stranger] = await Promise.all([user("coach"), user("linked"), user("stranger")]);
  athleteId = (await createAthlete(handle.db, coach.id, { name: "Zoe", subscriptionActiveUntil: "2099-01-01" })).id;
  await handle.db.update(athletes).set({ userId: linked.id }).where(eq(athletes.id, athleteId));
});
afterAll(async () => {
  await handle.close();
});

describe("zone settings", () => {
  it("the manager saves bounds as zones and resets them to the defaults", async () => {
    await setAthleteZones(handle.db, coach.id, { athleteId, lowerPct: [60, 75, 85, 92, 99] });
    const saved = await athleteZoneSettings(handle.db, athleteId);
    expect(saved.custom).toBe(true);
    expect(saved.zones).toEqual(zonesFromBounds([60, 75, 85, 92, 99]));
    expect(saved.zones.map((z) => [z.fromPct, z.toPct])).toEqual([
      [0, 60],
      [60, 75],
      [75, 85],
      [85, 92],
      [92, 99],
      [99, null],
    ]);
    await resetAthleteZones(handle.db, coach.id, athleteId);
    const reset = await athleteZoneSettings(handle.db, athleteId);
    expect(reset.custom).toBe(false);
    expect(reset.zones).toEqual(DEFAULT_SPEED_ZONES);
    expect(zonesFromBounds([70, 80, 87, 93, 100])).toEqual(DEFAULT_SPEED_ZONES);
  });
  it("refuses bounds that do not rise, someone who only sees the athlete, and a stranger (not found)", async () => {
    await expect(setAthleteZones(handle.db, coach.id, { athleteId, lowerPct: [70, 70, 87, 93, 100] })).rejects.toThrow();
    await expect(setAthleteZones(handle.db, linked.id, { athleteId, lowerPct: [60, 75, 85, 92, 99] })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(resetAthleteZones(handle.db, stranger.id, athleteId)).rejects.toMatchObject({ code: "not_found" });
  });
});
