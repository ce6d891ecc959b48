import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athletes } from "../db/schema";
import { openTestDb } from "../db/test-db";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { getStoredAnalysis } from "./result-analysis";
import { heartRateAlongDistance, MAX_HEART_RATE_POINTS, sessionHeartRateFor } from "./session-heart-rate";
import { uploadResult } from "./upload-result";

/** The session page's heart rate: the seat-1 paddler's own account only (docs/web-app.md "Session page"). */
const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let strokeSeat: SessionUser;
let secondSeat: SessionUser;
let k2: number;

beforeAll(async () => {
  handle = await openTestDb();
  const user = (label: string) => createUser(handle.db, { name: label, email: `hr-${label}-${randomUUID()}@test.example`, password: "long enough password" });
  [coach, strokeSeat, secondSeat] = await Promise.all([user("coach"), user("stroke"), user("second")]);
  const trackId = (await createTrack(handle.db, coach.id, { name: "HR basin" })).id;
  const ana = (await createAthlete(handle.db, coach.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" })).id;
  const bea = (await createAthlete(handle.db, coach.id, { name: "Bea", subscriptionActiveUntil: "2099-01-01" })).id;
  // Both paddlers have linked their athlete records to their own accounts.
  await handle.db.update(athletes).set({ userId: strokeSeat.id }).where(eq(athletes.id, ana));
  await handle.db.update(athletes).set({ userId: secondSeat.id }).where(eq(athletes.id, bea));
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K2", distanceM: 200, seed: 4242 }).content, keyring));
  k2 = (
    await uploadResult(
      handle.db,
      { user: coach, createdVia: "web", keyPairId: null, file: { filename: "k2.svc", bytes }, metadata: JSON.stringify({ distance: 200, vessel_id: 2, track_id: trackId, category_id: 1, pace_id: 1, athletes: [ana, bea] }) },
      { keyring },
    )
  ).id;
});
afterAll(async () => {
  await handle.close();
});

describe("a session's heart rate on the web page", () => {
  it("is the seat-1 paddler's: their account gets the series and the summary's average and maximum", async () => {
    const analysis = (await getStoredAnalysis(handle.db, k2))!;
    const hr = await sessionHeartRateFor(handle.db, strokeSeat.id, k2, analysis);
    expect(hr).not.toBeNull();
    expect(hr!.avg).toBe(analysis.summary.avg_heart_rate);
    expect(hr!.max).toBe(analysis.summary.max_heart_rate);
    expect(hr!.points.length).toBeGreaterThan(10);
    expect(hr!.points.length).toBeLessThanOrEqual(MAX_HEART_RATE_POINTS + 1);
    // Along the distance, in order, within the effort, plausible beats.
    for (let i = 1; i < hr!.points.length; i++) expect(hr!.points[i].distance).toBeGreaterThanOrEqual(hr!.points[i - 1].distance);
    expect(hr!.points.at(-1)!.distance).toBeCloseTo(analysis.track.distance.at(-1)!, 0);
    expect(hr!.points.every((p) => p.bpm >= 40 && p.bpm <= 230)).toBe(true);
  });

  it("is nobody else's: the owner (coach) and the seat-2 paddler get null", async () => {
    const analysis = (await getStoredAnalysis(handle.db, k2))!;
    expect(await sessionHeartRateFor(handle.db, coach.id, k2, analysis)).toBeNull();
    expect(await sessionHeartRateFor(handle.db, secondSeat.id, k2, analysis)).toBeNull();
  });

  it("a session without readings gives null even to the seat-1 paddler", async () => {
    const analysis = (await getStoredAnalysis(handle.db, k2))!;
    const withoutHr = { ...analysis, track: { ...analysis.track, heart_rate: analysis.track.heart_rate.map(() => null) } };
    expect(await sessionHeartRateFor(handle.db, strokeSeat.id, k2, withoutHr)).toBeNull();
  });

  it("the series leaves out gaps and drop-outs (0 bpm) and thins evenly, keeping the last reading", () => {
    const distance = Array.from({ length: 2001 }, (_, i) => i);
    const heart_rate = distance.map((d) => (d % 100 === 50 ? 0 : d % 7 === 0 ? null : 120 + (d % 10)));
    const points = heartRateAlongDistance({ distance, heart_rate }, 100);
    expect(points.length).toBeLessThanOrEqual(101);
    expect(points.every((p) => p.bpm > 0)).toBe(true);
    expect(points.at(-1)).toEqual({ distance: 2000, bpm: 120 });
    expect(points.some((p) => p.distance % 7 === 0 || p.distance % 100 === 50)).toBe(false);
    expect(heartRateAlongDistance({ distance: [0, 1], heart_rate: [null, null] })).toEqual([]);
  });
});
