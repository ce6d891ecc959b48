import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDb } from "../../test/support/test-db";
import { vesselIdOf } from "../../test/support/trainings";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athleteLoads } from "../db/schema";
import { deleteResult } from "../results/delete-result";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import type { SvcContent } from "../svc/types";
import { createTrack } from "../tracks/tracks";
import { createUser, getSessionUser, type SessionUser } from "../users/users";

/**
 * A load's reference is the athlete's best 500 m of the 90 days before the effort (docs/load.md), so the
 * stored loads must not depend on the order the files arrive in: a fast effort uploaded after slower, later
 * ones raises their reference, and deleting it gives the reference back.
 */
const keyring = loadKeyring({});
const DAY_MS = 86_400_000;
const START = Date.parse("2026-10-05T08:00:00Z");
let handle: DbHandle;
let k1 = 0;

// Three K1 500 m efforts ten days apart: the first at race pace, the next two steady.
const efforts = [
  { day: 0, pace: "race" as const, seed: 9601 },
  { day: 10, pace: "training" as const, seed: 9602 },
  { day: 20, pace: "training" as const, seed: 9603 },
];
const fileOf = (e: (typeof efforts)[number]) => {
  const content: SvcContent = simulateSession({ vessel: "K1", distanceM: 500, seed: e.seed, pace: e.pace }).content;
  return Buffer.from(encodeSvc({ ...content, header: { ...content.header, startUnixMs: START + e.day * DAY_MS } }, keyring));
};

async function coachWithAthlete(): Promise<{ user: SessionUser; athleteId: number; trackId: number }> {
  const created = await createUser(handle.db, {
    name: "Coach",
    email: `load-order-${randomUUID()}@test.example`,
    password: "correct horse battery",
  });
  const user = (await getSessionUser(handle.db, created.id))!;
  const athleteId = (await createAthlete(handle.db, user.id, { name: "Ola", subscriptionActiveUntil: "2099-01-01" })).id;
  const trackId = (await createTrack(handle.db, user.id, { name: "Basin" })).id;
  return { user, athleteId, trackId };
}

const upload = async (who: { user: SessionUser; athleteId: number; trackId: number }, e: (typeof efforts)[number]) =>
  (
    await uploadResult(
      handle.db,
      {
        user: who.user,
        createdVia: "web",
        keyPairId: null,
        file: { filename: `k1-${e.seed}.svc`, bytes: fileOf(e) },
        metadata: JSON.stringify({
          distance: 500,
          vessel_id: k1,
          track_id: who.trackId,
          category_id: 1,
          pace_id: 1,
          athletes: [who.athleteId],
        }),
      },
      { keyring },
    )
  ).id;

/** The athlete's stored loads by effort day: everything a page or the squad sums. */
async function loadsOf(athleteId: number) {
  const rows = await handle.db
    .select({
      startAt: athleteLoads.startAt,
      speedLoad: athleteLoads.speedLoad,
      zoneSeconds: athleteLoads.zoneSeconds,
      referenceSpeedMS: athleteLoads.referenceSpeedMS,
      best500SpeedMS: athleteLoads.best500SpeedMS,
    })
    .from(athleteLoads)
    .where(eq(athleteLoads.athleteId, athleteId))
    .orderBy(asc(athleteLoads.startAt));
  return rows.map(({ startAt, ...figures }) => ({ day: Math.round((startAt.getTime() - START) / DAY_MS), ...figures }));
}

beforeAll(async () => {
  handle = await openTestDb();
  k1 = await vesselIdOf(handle.db, "K1");
}, 60_000);
afterAll(async () => {
  await handle.close();
});

describe("stored training load and the order of uploads", () => {
  it("is the same whether the fast effort arrives first or last, and deleting it restores the later loads exactly", async () => {
    const inOrder = await coachWithAthlete();
    for (const e of efforts) await upload(inOrder, e);

    const outOfOrder = await coachWithAthlete();
    await upload(outOfOrder, efforts[1]);
    await upload(outOfOrder, efforts[2]);
    const withoutFast = await loadsOf(outOfOrder.athleteId);
    const fastId = await upload(outOfOrder, efforts[0]);

    const expected = await loadsOf(inOrder.athleteId);
    expect(expected.map((l) => l.day)).toEqual([0, 10, 20]);
    // The race-pace effort sets the later efforts' reference: their loads are not what they were alone.
    expect(expected[1].referenceSpeedMS).toBe(expected[0].best500SpeedMS);
    expect(expected[2].referenceSpeedMS).toBe(expected[0].best500SpeedMS);
    expect(withoutFast[0].referenceSpeedMS).not.toBe(expected[1].referenceSpeedMS);
    expect(await loadsOf(outOfOrder.athleteId)).toEqual(expected);

    // Deleting the fast effort gives the later efforts back the figures they had without it, field for field.
    await deleteResult(handle.db, outOfOrder.user, fastId);
    expect(await loadsOf(outOfOrder.athleteId)).toEqual(withoutFast);
  }, 60_000);
});
