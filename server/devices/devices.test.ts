import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { createAthlete } from "../athletes/athletes";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { getOwnDevice, listDeviceFilesPage, listOwnDeviceStatuses, type DeviceFilePosition } from "./devices";

const keyring = loadKeyring({});
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const SERIAL = `UNIT${randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()}`;

async function uploadFrom(user: SessionUser, serial: string, seed: number, trackId: number, athleteId: number) {
  const simulation = simulateSession({ vessel: "K1", distanceM: 200, seed });
  simulation.content.header.deviceSerial = serial;
  return uploadResult(
    handle.db,
    {
      user,
      createdVia: "api",
      keyPairId: null,
      file: { filename: `unit-${seed}.svc`, bytes: Buffer.from(encodeSvc(simulation.content, keyring)) },
      metadata: JSON.stringify({ distance: 200, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] }),
    },
    { keyring },
  );
}

it("device status and file manifest: own units only, keyset pages, never the serial", async () => {
  const db = handle.db;
  const owner = await createUser(db, { name: "Unit owner", email: `unit-${randomUUID()}@test.example`, password: "long enough password" });
  const stranger = await createUser(db, {
    name: "Stranger",
    email: `stranger-${randomUUID()}@test.example`,
    password: "long enough password",
  });
  const track = await createTrack(db, owner.id, { name: "Unit basin" });
  const athlete = await createAthlete(db, owner.id, { name: "Pad", subscriptionActiveUntil: "2099-01-01" });
  const uploads = [];
  for (const seed of [11, 12, 13]) uploads.push(await uploadFrom(owner, SERIAL, seed, track.id, athlete.id));
  await uploadFrom(owner, `${SERIAL.slice(0, 15)}X`, 14, track.id, athlete.id);

  const units = await listOwnDeviceStatuses(db, owner.id, { afterId: null, take: 10 });
  expect(units).toHaveLength(2);
  const unit = units.find((u) => u.fileCount === 3)!;
  expect(unit).toMatchObject({ hardwareModel: 2, firmware: "3.1.7" });
  expect(unit.lastSessionDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(JSON.stringify(units)).not.toContain(SERIAL.slice(0, 15));
  // Keyset on id: one unit per page.
  const first = await listOwnDeviceStatuses(db, owner.id, { afterId: null, take: 1 });
  const second = await listOwnDeviceStatuses(db, owner.id, { afterId: first[0].id, take: 1 });
  expect([...first, ...second].map((u) => u.id)).toEqual(units.map((u) => u.id));

  expect(await listOwnDeviceStatuses(db, stranger.id, { afterId: null, take: 10 })).toEqual([]);
  await expect(getOwnDevice(db, stranger.id, unit.id)).rejects.toMatchObject({ code: "not_found" });
  await expect(listDeviceFilesPage(db, stranger.id, unit.id, { after: null, take: 10 })).rejects.toMatchObject({ code: "not_found" });

  // Newest upload first, two pages through the exact-text position.
  const all = await listDeviceFilesPage(db, owner.id, unit.id, { after: null, take: 10 });
  expect(all.map((f) => f.resultId)).toEqual(uploads.map((u) => u.id).reverse());
  expect(all.map((f) => f.filename)).toEqual(["unit-13.svc", "unit-12.svc", "unit-11.svc"]);
  expect(all.every((f) => f.byteSize > 0 && /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);
  const page1 = await listDeviceFilesPage(db, owner.id, unit.id, { after: null, take: 2 });
  const last = page1[page1.length - 1];
  const position: DeviceFilePosition = [last.uploadedAtText, last.resultId];
  const page2 = await listDeviceFilesPage(db, owner.id, unit.id, { after: position, take: 2 });
  expect([...page1, ...page2].map((f) => f.resultId)).toEqual(all.map((f) => f.resultId));
  expect(JSON.stringify(all)).not.toContain(SERIAL.slice(0, 15));
});
