import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sessionOfSubject } from "../access/access";
import { athletes, results } from "../db/schema";
import { createApplication } from "../applications/applications";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { listDeviceFiles, listOwnDevices, renameDevice } from "../devices/devices";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { sessionsAboutSubject } from "../sessions/session-boundary";
import { createUser } from "../users/users";
import {
  compareRecordPositions,
  listRecordHistory,
  listRecordHistoryPage,
  recordPosition,
  type RecordPosition,
} from "./performance-records";

const keyring = loadKeyring({});
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

it("keeps each record's history per boat and distance, and registers the device with its files", async () => {
  const db = handle.db;
  const coach = await createUser(db, { name: "Coach", email: `rec-${randomUUID()}@test.example`, password: "long enough password" });
  const paddler = await createUser(db, { name: "Paddler", email: `pad-${randomUUID()}@test.example`, password: "long enough password" });
  const track = await createTrack(db, coach.id, { name: "Basin" });
  const athlete = await createAthlete(db, coach.id, { name: "Pad", subscriptionActiveUntil: "2099-01-01" });
  // The paddler's own account is this athlete.
  await db.update(athletes).set({ userId: paddler.id }).where(eq(athletes.id, athlete.id));
  const upload = async (seed: number, pace: "race" | "training", distance = 200) =>
    uploadResult(
      db,
      {
        user: coach,
        createdVia: "api",
        keyPairId: null,
        file: {
          filename: `s${seed}.svc`,
          bytes: Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: distance, seed, pace }).content, keyring)),
        },
        metadata: JSON.stringify({ distance, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athlete.id] }),
      },
      { keyring },
    );
  const slow = await upload(1, "training");
  const fast = await upload(2, "race");
  const slower = await upload(3, "training");
  const other = await upload(4, "race", 500);
  expect(fast.duration).toBeLessThan(slow.duration);

  for (const userId of [coach.id, paddler.id]) {
    const history = await listRecordHistory(db, sessionOfSubject(userId));
    const k1200 = history.filter((r) => r.distanceM === 200);
    // Uploads come in time order (seeds set the device clock): the slower third session never was a record.
    expect(k1200.map((r) => r.resultId)).not.toContain(slower.id);
    expect(k1200.find((r) => r.current)!.durationMs).toBe(Math.min(slow.duration, fast.duration, slower.duration));
    expect(history.filter((r) => r.distanceM === 500).map((r) => r.resultId)).toEqual([other.id]);
  }
  const stranger = await createUser(db, { name: "S", email: `s-${randomUUID()}@test.example`, password: "long enough password" });
  expect(await listRecordHistory(db, sessionOfSubject(stranger.id))).toEqual([]);

  // Each simulated seed is its own unit (its own serial).
  const units = await listOwnDevices(db, coach.id);
  expect(units).toHaveLength(4);
  expect(units.every((u) => u.files === 1)).toBe(true);
  expect(JSON.stringify(units)).not.toContain("SIM");
  const files = await listDeviceFiles(db, coach.id, units[0].id);
  expect(files.map((f) => f.filename)).toEqual(["s1.svc"]);
  await expect(listDeviceFiles(db, stranger.id, units[0].id)).rejects.toMatchObject({ code: "not_found" });
  await renameDevice(db, coach.id, { id: units[0].id, label: "Club K1 unit" });
  expect((await listOwnDevices(db, coach.id))[0].label).toBe("Club K1 unit");
});

it("pages through the record history in a stable order: boat class, distance, start, session", async () => {
  const db = handle.db;
  const user = await createUser(db, { name: "Pager", email: `pager-${randomUUID()}@test.example`, password: "long enough password" });
  const track = await createTrack(db, user.id, { name: "Pager basin" });
  // Stored sessions directly: each one faster than the last, so every one is a record entry.
  const insert = (vesselId: number, distanceM: number, startAt: string, durationMs: number) =>
    db
      .insert(results)
      .values({
        ownerUserId: user.id,
        trackId: track.id,
        vesselId,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date: startAt.slice(0, 10),
        timeOfDay: "10:00:00+00:00",
        startAt: new Date(startAt),
        utcOffsetMin: 0,
        distanceM,
        durationMs,
        targetDistanceM: distanceM,
      })
      .returning({ id: results.id })
      .then(([r]) => r.id);
  await insert(2, 500, "2026-01-01T10:00:00Z", 120_000);
  await insert(1, 200, "2026-01-02T10:00:00Z", 50_000);
  await insert(1, 200, "2026-01-01T10:00:00Z", 52_000);
  await insert(1, 1000, "2026-01-01T10:00:00Z", 250_000);
  await insert(1, 200, "2026-01-03T10:00:00Z", 49_000);

  const whole = await listRecordHistoryPage(db, sessionOfSubject(user.id), { after: null, take: 100 });
  const positions = whole.map(recordPosition);
  expect([...positions].sort(compareRecordPositions)).toEqual(positions);
  expect(whole.filter((e) => e.current)).toHaveLength(3);

  const walk = async (take: number) => {
    const seen: number[] = [];
    let after: RecordPosition | null = null;
    for (;;) {
      const page = await listRecordHistoryPage(db, sessionOfSubject(user.id), { after, take });
      seen.push(...page.map((e) => e.resultId));
      if (page.length < take) return seen;
      after = recordPosition(page[page.length - 1]);
    }
  };
  expect(await walk(2)).toEqual(whole.map((e) => e.resultId));
  expect(await walk(1)).toEqual(whole.map((e) => e.resultId));

  // A session inserted before the position does not shift the next page.
  const firstTwo = await listRecordHistoryPage(db, sessionOfSubject(user.id), { after: null, take: 2 });
  await insert(1, 200, "2025-12-31T10:00:00Z", 60_000);
  const next = await listRecordHistoryPage(db, sessionOfSubject(user.id), { after: recordPosition(firstTwo[1]), take: 100 });
  expect(next.map((e) => e.resultId)).toEqual(whole.slice(2).map((e) => e.resultId));
});

it("on the session surface, computes the history over the sessions the calling application created and names no other session", async () => {
  const db = handle.db;
  const user = await createUser(db, { name: "Surface", email: `surface-${randomUUID()}@test.example`, password: "long enough password" });
  const track = await createTrack(db, user.id, { name: "Surface basin" });
  const newApp = async (name: string) =>
    (
      await createApplication(db, user.id, {
        name,
        surface: "session",
        clientType: "confidential",
        redirectUris: ["https://logger.example/cb"],
        embedOrigins: [],
        scopes: ["openid", "records:read"],
      })
    ).application.id;
  const logger = await newApp("Session logger");
  const otherApp = await newApp("Other logger");
  const insert = (startAt: string, durationMs: number, applicationId: number | null) =>
    db
      .insert(results)
      .values({
        ownerUserId: user.id,
        trackId: track.id,
        vesselId: 1,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date: startAt.slice(0, 10),
        timeOfDay: "10:00:00+00:00",
        startAt: new Date(startAt),
        utcOffsetMin: 0,
        distanceM: 200,
        durationMs,
        targetDistanceM: 200,
        createdByApplicationId: applicationId,
      })
      .returning({ id: results.id })
      .then(([r]) => r.id);
  // Each one faster than the last: on the data surface all five are record entries.
  const mine = [await insert("2026-02-01T10:00:00Z", 60_000, logger), await insert("2026-02-03T10:00:00Z", 58_000, logger)];
  const others = [
    await insert("2026-02-02T10:00:00Z", 59_000, null),
    await insert("2026-02-04T10:00:00Z", 55_000, otherApp),
    await insert("2026-02-05T10:00:00Z", 50_000, null),
  ];

  const everything = await listRecordHistory(db, sessionsAboutSubject({ subjectId: user.id, surface: "data", applicationId: logger }));
  expect(everything.map((e) => e.resultId)).toEqual([mine[0], others[0], mine[1], others[1], others[2]]);
  expect(await listRecordHistory(db, sessionsAboutSubject({ subjectId: user.id, surface: "partner", applicationId: logger }))).toEqual(
    everything,
  );

  const seen = await listRecordHistory(db, sessionsAboutSubject({ subjectId: user.id, surface: "session", applicationId: logger }));
  expect(seen.map((e) => [e.resultId, e.current])).toEqual([
    [mine[0], false],
    [mine[1], true],
  ]);
  for (const id of others) expect(seen.map((e) => e.resultId)).not.toContain(id);
  // The other application sees only the session it created.
  expect(
    await listRecordHistory(db, sessionsAboutSubject({ subjectId: user.id, surface: "session", applicationId: otherApp })),
  ).toHaveLength(1);
});
