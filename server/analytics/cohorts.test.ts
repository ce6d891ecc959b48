import { randomInt, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionOfSubject } from "../access/access";
import { createAthlete } from "../athletes/athletes";
import type { Db, DbHandle } from "../db/client";
import { athletes, resultCrew, results } from "../db/schema";
import { openTestDb } from "../../test/support/test-db";
import { listRecordHistory } from "../records/performance-records";
import type { SessionAudience } from "../sessions/session-boundary";
import { createTrack } from "../tracks/tracks";
import { createUser } from "../users/users";
import { comparableSessions, personalBests, progressionOf } from "./cohorts";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const person = (db: Db, name: string) =>
  createUser(db, { name, email: `${name}-${randomUUID()}@test.example`, password: "long enough password" });
const data = (subjectId: number): SessionAudience => ({ subjectId, surface: "data", applicationId: 0 });

/** A processed distance effort, written directly (what the analyses read is the results row and its crew). */
async function effort(
  db: Db,
  o: { owner: number; track: number; vesselId?: number; distance: number; durationMs: number; startAt: string; crew?: number[] },
) {
  const [row] = await db
    .insert(results)
    .values({
      ownerUserId: o.owner,
      trackId: o.track,
      vesselId: o.vesselId ?? 1,
      categoryId: 1,
      paceId: 1,
      createdVia: "demo",
      date: o.startAt.slice(0, 10),
      timeOfDay: "10:00:00+00:00",
      startAt: new Date(o.startAt),
      utcOffsetMin: 0,
      distanceM: o.distance,
      durationMs: o.durationMs,
      targetDistanceM: o.distance,
    })
    .returning({ id: results.id });
  for (const [i, athleteId] of (o.crew ?? []).entries()) await db.insert(resultCrew).values({ resultId: row.id, seat: i + 1, athleteId });
  return row.id;
}

describe("comparable sessions", () => {
  it("ranks the same track and athlete first, then the closest in time; never another boat, distance or person's session", async () => {
    const db = handle.db;
    const coach = await person(db, "coach");
    const stranger = await person(db, "stranger");
    const home = await createTrack(db, coach.id, { name: "Home" });
    const away = await createTrack(db, coach.id, { name: "Away" });
    const eva = await createAthlete(db, coach.id, { name: "Eva", subscriptionActiveUntil: "2099-01-01" });
    const ida = await createAthlete(db, coach.id, { name: "Ida", subscriptionActiveUntil: "2099-01-01" });
    const distance = 2000 + randomInt(50_000);
    const e = (track: number, startAt: string, crew: number[], extra: Partial<Parameters<typeof effort>[1]> = {}) =>
      effort(db, { owner: coach.id, track, distance, durationMs: 120_000, startAt, crew, ...extra });
    const reference = await e(home.id, "2026-05-10T10:00:00Z", [eva.id]);
    const both = await e(home.id, "2026-01-01T10:00:00Z", [eva.id]);
    const trackOnlyNear = await e(home.id, "2026-05-09T10:00:00Z", [ida.id]);
    const athleteOnlyFar = await e(away.id, "2025-01-01T10:00:00Z", [eva.id]);
    const neither = await e(away.id, "2026-05-11T10:00:00Z", [ida.id]);
    await e(home.id, "2026-05-10T11:00:00Z", [eva.id], { vesselId: 2 }); // another boat class
    await e(home.id, "2026-05-10T12:00:00Z", [eva.id], { distance: distance + 1 }); // another distance
    const strangerTrack = await createTrack(db, stranger.id, { name: "Theirs" });
    await effort(db, { owner: stranger.id, track: strangerTrack.id, distance, durationMs: 100_000, startAt: "2026-05-10T10:30:00Z" });

    const { sessions } = await comparableSessions(db, data(coach.id), reference, 25);
    expect(sessions.map((s) => s.sessionId)).toEqual([both, trackOnlyNear, athleteOnlyFar, neither]);
    expect(sessions[0]).toMatchObject({ sameTrack: true, sameAthlete: true, deltaMs: 0 });
    expect((await comparableSessions(db, data(coach.id), reference, 2)).sessions).toHaveLength(2);
    await expect(comparableSessions(db, data(stranger.id), reference, 5)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("progression", () => {
  it("follows the athlete across owners' sessions in time order, with the trend and the best", async () => {
    const db = handle.db;
    const coach = await person(db, "prog-coach");
    const paddler = await person(db, "prog-paddler");
    const track = await createTrack(db, coach.id, { name: "Basin" });
    const me = await createAthlete(db, coach.id, { name: "Own", subscriptionActiveUntil: "2099-01-01" });
    await db.update(athletes).set({ userId: paddler.id }).where(eq(athletes.id, me.id));
    const distance = 2000 + randomInt(50_000);
    const times = [130_000, 127_000, 126_000, 124_000];
    const ids = [];
    for (const [i, durationMs] of times.entries())
      ids.push(
        await effort(db, { owner: coach.id, track: track.id, distance, durationMs, startAt: `2026-0${i + 1}-15T10:00:00Z`, crew: [me.id] }),
      );
    const p = await progressionOf(db, { subjectId: paddler.id, surface: "partner", applicationId: 0 }, ids[1]);
    expect(p.athlete).toEqual({ id: me.id, name: expect.stringContaining("Own") });
    expect(p.sessions.map((s) => s.sessionId)).toEqual(ids);
    expect(p.sessions.filter((s) => s.isReference).map((s) => s.sessionId)).toEqual([ids[1]]);
    expect(p.bestDurationMs).toBe(124_000);
    expect(p.latestVsBestPct).toBe(0);
    // About 2 s faster a month.
    expect(p.trendSPer30Days!).toBeLessThan(-1.5);
    expect(p.trendSPer30Days!).toBeGreaterThan(-2.5);
  });
});

describe("personal bests", () => {
  it("are exactly the standing records of the record history", async () => {
    const db = handle.db;
    const user = await person(db, "pb");
    const track = await createTrack(db, user.id, { name: "PB basin" });
    await effort(db, { owner: user.id, track: track.id, distance: 200, durationMs: 50_000, startAt: "2026-01-01T10:00:00Z" });
    const best = await effort(db, { owner: user.id, track: track.id, distance: 200, durationMs: 48_000, startAt: "2026-01-02T10:00:00Z" });
    await effort(db, { owner: user.id, track: track.id, distance: 200, durationMs: 49_000, startAt: "2026-01-03T10:00:00Z" });
    const k2 = await effort(db, {
      owner: user.id,
      track: track.id,
      distance: 200,
      durationMs: 45_000,
      startAt: "2026-01-03T10:00:00Z",
      vesselId: 2,
    });
    const pbs = await personalBests(db, data(user.id));
    expect(pbs.map((p) => p.resultId).sort()).toEqual([best, k2].sort());
    expect(pbs).toEqual((await listRecordHistory(db, sessionOfSubject(user.id))).filter((r) => r.current));
  });
});
