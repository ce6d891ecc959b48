import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { devices, results } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import type { VesselType } from "../svc/types";
import { vesselIdOf } from "../../test/support/trainings";
import { createUser, type SessionUser } from "../users/users";
import { parseSuggestionVessel, suggestUploadDistance } from "./distance-suggestion";

const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
beforeAll(async () => {
  handle = await openTestDb();
  coach = await createUser(handle.db, { name: "Coach", email: `ds-${randomUUID()}@test.example`, password: "long enough password" });
});
afterAll(async () => {
  await handle.close();
});

const fileOf = (vessel: VesselType, distanceM: number, seed: number, pace: "race" | "training" = "race") => ({
  filename: `${vessel}-${distanceM}.svc`,
  bytes: Buffer.from(encodeSvc(simulateSession({ vessel, distanceM, seed, pace, noise: "noisy" }).content, keyring)),
});

it("suggests the standard distance the crew covered between the start and the stop, and stores nothing", async () => {
  const db = handle.db;
  for (const [vessel, distanceM, pace] of [
    ["K1", 200, "race"],
    ["K2", 500, "training"],
    ["C1", 1000, "race"],
    ["K4", 1000, "training"],
  ] as const) {
    const suggestion = await suggestUploadDistance(
      db,
      { user: coach, file: fileOf(vessel, distanceM, distanceM + 5, pace), vesselId: await vesselIdOf(db, vessel) },
      keyring,
    );
    expect(suggestion.distance_m, `${vessel} ${distanceM} m`).toBe(distanceM);
    // What was covered: the effort and the few metres of easing off after the line.
    expect(suggestion.covered_m).toBeGreaterThanOrEqual(distanceM - 10);
    expect(suggestion.covered_m).toBeLessThan(distanceM * 1.08);
  }
  // Without a boat chosen yet the file is read as a K1's.
  expect((await suggestUploadDistance(db, { user: coach, file: fileOf("K2", 500, 77), vesselId: null }, keyring)).distance_m).toBe(500);
  // Nothing kept: no session and no device registered for the person.
  const [[sessions], [units]] = await Promise.all([
    db.select({ n: count() }).from(results).where(eq(results.ownerUserId, coach.id)),
    db.select({ n: count() }).from(devices).where(eq(devices.ownerUserId, coach.id)),
  ]);
  expect([sessions.n, units.n]).toEqual([0, 0]);
}, 60_000);

it("answers hostile files and forms with a clear error on their field", async () => {
  const db = handle.db;
  const refusal = (file: { filename: string | null; bytes: Buffer } | null, vesselId: number | null = null) =>
    suggestUploadDistance(db, { user: coach, file, vesselId }, keyring).then(
      () => null,
      (e: { code: string; fieldErrors: Record<string, string[]> }) => ({ code: e.code, fields: e.fieldErrors }),
    );
  const good = fileOf("K1", 200, 3);
  expect(await refusal(null)).toEqual({ code: "invalid", fields: { file: ["Choose the .svc file"] } });
  expect(await refusal({ filename: "a.txt", bytes: good.bytes })).toEqual({
    code: "invalid",
    fields: { file: ["The file name must end in .svc"] },
  });
  expect(await refusal({ filename: "junk.svc", bytes: Buffer.from("not a sensor file at all") })).toEqual({
    code: "unprocessable",
    fields: { file: ["This file is damaged, incomplete or not a session from a sensor unit"] },
  });
  expect(await refusal({ filename: "cut.svc", bytes: good.bytes.subarray(0, Math.floor(good.bytes.length / 2)) })).toMatchObject({
    code: "unprocessable",
    fields: { file: [expect.any(String)] },
  });
  expect(await refusal(good, 999_999)).toEqual({ code: "invalid", fields: { vessel_id: ["Choose one of the listed boats"] } });
  const viewer = { ...coach, canCreateSessions: false };
  await expect(suggestUploadDistance(db, { user: viewer, file: good, vesselId: null }, keyring)).rejects.toMatchObject({
    code: "forbidden",
  });
  for (const raw of ["{", "[1]", '{"vessel_id":"3"}', '{"vessel_id":-1}', '{"vessel_id":1.5}'])
    expect(() => parseSuggestionVessel(raw), raw).toThrow();
  expect(parseSuggestionVessel('{"vessel_id":2}')).toBe(2);
  expect(parseSuggestionVessel(undefined)).toBeNull();
});
