import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDb } from "../../test/support/test-db";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athleteLoads, athletes, trainings } from "../db/schema";
import { setHeartRateShare } from "../health/heart-rate-share";
import { createUser, type SessionUser } from "../users/users";
import { athleteLoadView, effortLoads, parseSquadSort, seasonStart, squadLoad } from "./load-reads";
import { addDays, fitnessSeries } from "./model";

/** The load pages' reads (docs/load.md "Pages"): stored loads summed, the athlete page's access, heart-rate load only where readable. */
const TODAY = "2026-03-11"; // a Wednesday: this week began on Monday 2026-03-09
let handle: DbHandle;
let coach: SessionUser;
let athleteUser: SessionUser;
let stranger: SessionUser;
let ana: number;
let bea: number;
let firstTraining: number;

/** One stored load on a date, as processing writes it (a training as its source). */
async function load(athleteId: number, ownerUserId: number, date: string, speedLoad: number, heartRateLoad: number | null) {
  const [t] = await handle.db.insert(trainings).values({ ownerUserId, vesselId: 1, createdVia: "web" }).returning({ id: trainings.id });
  await handle.db.insert(athleteLoads).values({
    athleteId,
    trainingId: t.id,
    vesselId: 1,
    date,
    startAt: new Date(`${date}T08:00:00Z`),
    durationS: 3600,
    zoneSeconds: [3600, 0, 0, 0, 0, 0],
    speedLoad,
    heartRateLoad,
  });
  return t.id;
}

beforeAll(async () => {
  handle = await openTestDb();
  const user = (label: string) =>
    createUser(handle.db, { name: label, email: `load-${label}-${randomUUID()}@test.example`, password: "long enough password" });
  [coach, athleteUser, stranger] = await Promise.all([user("coach"), user("athlete"), user("stranger")]);
  ana = (await createAthlete(handle.db, coach.id, { name: "Ana", surname: "Load", subscriptionActiveUntil: "2099-01-01" })).id;
  bea = (await createAthlete(handle.db, coach.id, { name: "Bea", surname: "Load", subscriptionActiveUntil: "2099-01-01" })).id;
  await handle.db.update(athletes).set({ userId: athleteUser.id }).where(eq(athletes.id, ana));
  firstTraining = await load(ana, coach.id, "2026-03-09", 100, 40); // this week
  await load(ana, coach.id, "2026-03-11", 50.5, 20); // this week, today
  await load(ana, coach.id, "2026-03-02", 80, null); // last week
  await load(ana, coach.id, "2026-02-10", 120, 30); // four weeks before this one
  await load(ana, coach.id, "2026-03-12", 999, 999); // tomorrow: not yet counted
  await load(bea, coach.id, "2026-03-10", 30, null);
});
afterAll(async () => {
  await handle.close();
});

describe("athleteLoadView", () => {
  it("sums the stored loads per ISO week and draws fitness, fatigue and form from the daily sums", async () => {
    const view = await athleteLoadView(handle.db, coach.id, ana, TODAY);
    expect(view.weeks).toHaveLength(16);
    expect(view.weeks[0].weekStart).toBe(seasonStart(TODAY));
    expect(view.weeks.at(-1)).toMatchObject({ weekStart: "2026-03-09", speedLoad: 150.5, efforts: 2 });
    expect(view.weeks.at(-2)).toMatchObject({ weekStart: "2026-03-02", speedLoad: 80, efforts: 1 });
    expect(view.weeks.reduce((s, w) => s + w.speedLoad, 0)).toBe(350.5);
    expect(view.series.at(-1)!.date).toBe(TODAY);
    const daily = new Map([
      ["2026-02-10", 120],
      ["2026-03-02", 80],
      ["2026-03-09", 100],
      ["2026-03-11", 50.5],
    ]);
    expect(view.today).toEqual(fitnessSeries(daily, addDays(seasonStart(TODAY), -126), TODAY).at(-1));
    expect(view.today.form).toBeCloseTo(view.today.fitness - view.today.fatigue, 0);
  });
  it("hides heart-rate load from a coach until the athlete shares it; the athlete always sees their own", async () => {
    const own = await athleteLoadView(handle.db, athleteUser.id, ana, TODAY);
    expect(own.heartRateVisible).toBe(true);
    expect(own.weeks.at(-1)!.heartRateLoad).toBe(60);
    const hidden = await athleteLoadView(handle.db, coach.id, ana, TODAY);
    expect(hidden.heartRateVisible).toBe(false);
    expect(hidden.weeks.every((w) => !("heartRateLoad" in w))).toBe(true);
    expect((await effortLoads(handle.db, coach.id, { trainingId: firstTraining }))[0]).toEqual({
      athleteId: ana,
      name: "Ana Load",
      speedLoad: 100,
    });
    await setHeartRateShare(handle.db, athleteUser.id, true);
    try {
      const shared = await athleteLoadView(handle.db, coach.id, ana, TODAY);
      expect(shared.weeks.at(-1)!.heartRateLoad).toBe(60);
      expect((await effortLoads(handle.db, coach.id, { trainingId: firstTraining }))[0].heartRateLoad).toBe(40);
    } finally {
      await setHeartRateShare(handle.db, athleteUser.id, false);
    }
    expect((await athleteLoadView(handle.db, coach.id, ana, TODAY)).heartRateVisible).toBe(false);
  });
  it("answers not found for an athlete the person may not see, as for one that does not exist", async () => {
    await expect(athleteLoadView(handle.db, stranger.id, ana, TODAY)).rejects.toMatchObject({ code: "not_found" });
    await expect(athleteLoadView(handle.db, stranger.id, 2_000_000_000, TODAY)).rejects.toMatchObject({ code: "not_found" });
    expect(await effortLoads(handle.db, stranger.id, { trainingId: firstTraining })).toEqual([]);
  });
});

describe("squadLoad", () => {
  it("one row per athlete the coach sees: this week, the four complete weeks' mean, form today", async () => {
    const rows = await squadLoad(handle.db, coach.id, TODAY);
    expect(rows.map((r) => r.name)).toEqual(["Ana Load", "Bea Load"]);
    expect(rows[0]).toMatchObject({ athleteId: ana, weekLoad: 150.5, fourWeekAverage: 50 });
    expect(rows[0].form).toBe((await athleteLoadView(handle.db, coach.id, ana, TODAY)).today.form);
    expect(rows[1]).toMatchObject({ athleteId: bea, weekLoad: 30, fourWeekAverage: 0 });
    expect(await squadLoad(handle.db, stranger.id, TODAY)).toEqual([]);
    // The athlete's own record is not a squad of theirs.
    expect(await squadLoad(handle.db, athleteUser.id, TODAY)).toEqual([]);
  });
  it("sorts by a column, either way", async () => {
    const names = async (raw: string) => (await squadLoad(handle.db, coach.id, TODAY, parseSquadSort(raw))).map((r) => r.name);
    expect(await names("week")).toEqual(["Bea Load", "Ana Load"]);
    expect(await names("-week")).toEqual(["Ana Load", "Bea Load"]);
    expect(await names("-name")).toEqual(["Bea Load", "Ana Load"]);
    expect(parseSquadSort("nonsense")).toEqual({ key: "name", descending: false });
  });
});
