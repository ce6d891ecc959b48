import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athletes, resultDerived } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { createUser, type SessionUser } from "../users/users";
import { getStoredAnalysis } from "../results/result-analysis";
import { uploadResult } from "../results/upload-result";
import { heartRateAlongDistance, loadViewerSession, MAX_HEART_RATE_POINTS } from "./viewer-session";

/** The session page's heart rate: the seat-1 paddler's own account only (docs/access.md "Health data in every view"). */
const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let strokeSeat: SessionUser;
let secondSeat: SessionUser;
let k2: number;

beforeAll(async () => {
  handle = await openTestDb();
  const user = (label: string) =>
    createUser(handle.db, { name: label, email: `hr-${label}-${randomUUID()}@test.example`, password: "long enough password" });
  [coach, strokeSeat, secondSeat] = await Promise.all([user("coach"), user("stroke"), user("second")]);
  const trackId = (await createTrack(handle.db, coach.id, { name: "HR basin" })).id;
  const ana = (await createAthlete(handle.db, coach.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" })).id;
  const bea = (await createAthlete(handle.db, coach.id, { name: "Bea", subscriptionActiveUntil: "2099-01-01" })).id;
  // Both paddlers have linked their athlete records to their own accounts.
  await handle.db.update(athletes).set({ userId: strokeSeat.id }).where(eq(athletes.id, ana));
  await handle.db.update(athletes).set({ userId: secondSeat.id }).where(eq(athletes.id, bea));
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K4", distanceM: 200, seed: 4242 }).content, keyring));
  k2 = (
    await uploadResult(
      handle.db,
      {
        user: coach,
        createdVia: "web",
        keyPairId: null,
        file: { filename: "k2.svc", bytes },
        metadata: JSON.stringify({
          distance: 200,
          vessel_id: 3,
          track_id: trackId,
          category_id: 1,
          pace_id: 1,
          athletes: [ana, bea, { name: "Xena", surname: "Typed", weight: 83.1234 }, { name: "Yves", surname: "Untyped" }],
        }),
      },
      { keyring },
    )
  ).id;
});
afterAll(async () => {
  await handle.close();
});

describe("a session's heart rate on the web page", () => {
  it("is the seat-1 paddler's: their account gets the series, the summary's average and maximum and the coverage", async () => {
    const analysis = (await getStoredAnalysis(handle.db, k2))!;
    const hr = (await loadViewerSession(handle.db, strokeSeat.id, k2)).ownHeartRate;
    expect(hr).not.toBeNull();
    expect(hr!.avg).toBe(analysis.summary.avg_heart_rate);
    expect(hr!.max).toBe(analysis.summary.max_heart_rate);
    expect(hr!.coverage).toBe(analysis.dataQuality.heart_rate_coverage);
    expect(hr!.points.length).toBeGreaterThan(10);
    expect(hr!.points.length).toBeLessThanOrEqual(MAX_HEART_RATE_POINTS + 1);
    // Along the distance, in order, within the effort, plausible beats.
    for (let i = 1; i < hr!.points.length; i++) expect(hr!.points[i].distance).toBeGreaterThanOrEqual(hr!.points[i - 1].distance);
    expect(hr!.points.at(-1)!.distance).toBeCloseTo(analysis.track.distance.at(-1)!, 0);
    expect(hr!.points.every((p) => p.bpm >= 40 && p.bpm <= 230)).toBe(true);
  });

  it("is nobody else's: the owner (coach) and the seat-2 paddler get a session with no heart-rate value anywhere in it", async () => {
    const analysis = (await getStoredAnalysis(handle.db, k2))!;
    const bpm = new RegExp(`\\b(${analysis.summary.avg_heart_rate}|${analysis.summary.max_heart_rate})\\b`);
    for (const viewer of [coach, secondSeat]) {
      const view = await loadViewerSession(handle.db, viewer.id, k2);
      expect(view.ownHeartRate).toBeNull();
      expect(view.analysis).not.toBeNull();
      // No health field at all: not the summary's, not the track's readings, not the coverage.
      const text = JSON.stringify({ ...view, ownHeartRate: undefined });
      expect(text.match(/.{40}heart.{40}/i)?.[0]).toBeUndefined();
      expect(JSON.stringify(view.analysis!.summary).match(bpm)?.[0]).toBeUndefined();
    }
  });

  it("a typed external paddler's weight reaches only the session's owner, who typed it", async () => {
    const owner = await loadViewerSession(handle.db, coach.id, k2);
    expect(owner.typedWeights).toEqual({ 3: 83.1234, 4: null });
    for (const viewer of [strokeSeat, secondSeat]) {
      const view = await loadViewerSession(handle.db, viewer.id, k2);
      expect(view.typedWeights).toBeNull();
      expect(JSON.stringify(view).includes("83.1234")).toBe(false);
    }
  });

  it("a session without readings gives no heart rate even to the seat-1 paddler", async () => {
    const [row] = await handle.db.select({ track: resultDerived.track }).from(resultDerived).where(eq(resultDerived.resultId, k2));
    const track = row.track as { heart_rate: (number | null)[] };
    await handle.db
      .update(resultDerived)
      .set({ track: { ...track, heart_rate: track.heart_rate.map(() => null) } })
      .where(eq(resultDerived.resultId, k2));
    try {
      expect((await loadViewerSession(handle.db, strokeSeat.id, k2)).ownHeartRate).toBeNull();
    } finally {
      await handle.db.update(resultDerived).set({ track }).where(eq(resultDerived.resultId, k2));
    }
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
