import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { openTestDb, usePrivateDatabase } from "../../test/support/test-db";
import { athletes, exportJobs, resultCrew, results, trainingSets, trainings } from "../db/schema";
import { listWebExports } from "../exports/export-list";
import { readCalendar } from "../sessions/calendar";
import { parseLogQuery, readLogPage } from "../sessions/session-log";
import { createTrack } from "../tracks/tracks";
import { createUser } from "../users/users";
import { HOME_WEEKS, readHomeSummary } from "./home-summary";

/**
 * The home's aggregates, the calendar's day buckets and the exports list,
 * each checked against the log the person reads (readLogPage) or the rows
 * themselves, on real Postgres.
 */
let handle: DbHandle;
// A database of its own: its work spans the whole database (test/support/test-db.ts usePrivateDatabase).
let dropPrivateDatabase: () => Promise<void> = async () => {};
beforeAll(async () => {
  dropPrivateDatabase = await usePrivateDatabase();
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
  await dropPrivateDatabase();
});

// A Wednesday: this week runs Monday 2026-11-23 to Sunday 2026-11-29.
const today = new Date("2026-11-25T12:00:00Z");
const newUser = (name: string, role?: "coach" | "athlete") =>
  createUser(handle.db, { name, email: `home-${randomUUID()}@test.example`, password: "correct horse battery" }, role ? { role } : {});

async function world() {
  const coach = await newUser("Coach", "coach");
  const paddlerUser = await newUser("Paddler", "athlete");
  const stranger = await newUser("Stranger");
  const track = await createTrack(handle.db, coach.id, { name: "Home basin" });
  const strangerTrack = await createTrack(handle.db, stranger.id, { name: "Elsewhere" });
  const [ana, bea, foreign] = await handle.db
    .insert(athletes)
    .values([
      { ownerUserId: coach.id, userId: paddlerUser.id, name: "Ana", surname: "Uno", weightKg: 61 },
      { ownerUserId: coach.id, name: "Bea", surname: "Dos", weightKg: 66 },
      { ownerUserId: stranger.id, name: "Far", surname: "Away" },
    ])
    .returning({ id: athletes.id });
  const session = async (
    ownerUserId: number,
    trackId: number,
    date: string,
    crew: number[],
    distanceM: number,
    extra: Partial<typeof results.$inferInsert> = {},
  ) => {
    const startAt = new Date(`${date}T08:00:00Z`);
    const [row] = await handle.db
      .insert(results)
      .values({
        ownerUserId,
        trackId,
        vesselId: crew.length === 2 ? 2 : 1,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date,
        timeOfDay: "09:00:00+01:00",
        startAt,
        utcOffsetMin: 60,
        distanceM,
        durationMs: distanceM * 220,
        targetDistanceM: distanceM,
        ...extra,
      })
      .returning({ id: results.id });
    await handle.db.insert(resultCrew).values(crew.map((athleteId, k) => ({ resultId: row.id, seat: k + 1, athleteId })));
    return row.id;
  };
  const training = async (date: string, athleteId: number, sets: [number, number][], status: "ready" | "failed" = "ready") => {
    const [row] = await handle.db
      .insert(trainings)
      .values({
        ownerUserId: coach.id,
        athleteId,
        vesselId: 1,
        trackId: track.id,
        title: `${sets.length} sets`,
        createdVia: "demo",
        status,
        date,
        startAt: new Date(`${date}T16:00:00Z`),
        utcOffsetMin: 60,
        timeOfDay: "17:00:00+01:00",
        distanceM: 3000,
        durationMs: 1_200_000,
        workSetCount: sets.length,
      })
      .returning({ id: trainings.id });
    if (sets.length) {
      await handle.db.insert(trainingSets).values(
        sets.flatMap(([distanceM, durationMs], k) => [
          {
            trainingId: row.id,
            position: 2 * k,
            kind: "work" as const,
            startS: k * 200,
            endS: k * 200 + durationMs / 1000,
            distanceM,
            durationMs,
            strokeCount: 40,
          },
          {
            trainingId: row.id,
            position: 2 * k + 1,
            kind: "rest" as const,
            startS: k * 200 + durationMs / 1000,
            endS: k * 200 + 190,
            distanceM: 50,
            durationMs: 60_000,
            strokeCount: 0,
          },
        ]),
      );
    }
    return row.id;
  };
  // This week: Monday K1 (Ana), Monday K2 (Ana, Bea), Tuesday K1 (Bea) 1000 m; a training on Tuesday for Ana.
  await session(coach.id, track.id, "2026-11-23", [ana.id], 500);
  await session(coach.id, track.id, "2026-11-23", [ana.id, bea.id], 1000);
  const beaTuesday = await session(coach.id, track.id, "2026-11-24", [bea.id], 1000);
  await training("2026-11-24", ana.id, [
    [250, 60_000],
    [250, 61_000],
    [250, 59_000],
  ]);
  // Earlier weeks, a faster best and a failed one.
  await session(coach.id, track.id, "2026-11-10", [ana.id], 500, { durationMs: 100_000 });
  await session(coach.id, track.id, "2026-11-03", [ana.id], 500, { durationMs: 90_000 });
  const failed = await session(coach.id, track.id, "2026-11-18", [bea.id], 200, { status: "failed" });
  await training("2026-11-12", bea.id, [[500, 120_000]], "failed");
  // Not the coach's: another person's session must not count.
  await session(stranger.id, strangerTrack.id, "2026-11-23", [foreign.id], 1000);
  return { coach, paddlerUser, stranger, ana: ana.id, bea: bea.id, beaTuesday, failed };
}

describe("the home summary", () => {
  it("sums each week's sessions as the log shows them, per athlete this week, with bests and what is waiting", async () => {
    const w = await world();
    const home = await readHomeSummary(handle.db, w.coach.id, today);
    expect(home.weekStart).toBe("2026-11-23");
    expect(home.weeks).toHaveLength(HOME_WEEKS);
    expect(home.weeks.at(-1)!.weekStart).toBe("2026-11-23");

    // Each week's session distance and count equal the log's rows for that week.
    for (const week of home.weeks) {
      const to = new Date(Date.parse(`${week.weekStart}T00:00:00Z`) + 6 * 86_400_000).toISOString().slice(0, 10);
      const { rows } = await readLogPage(handle.db, w.coach.id, parseLogQuery({ from: week.weekStart, to }), 500);
      expect(week.sessionDistanceM, week.weekStart).toBe(rows.reduce((sum, r) => sum + r.distanceM, 0));
      expect(week.sessions, week.weekStart).toBe(rows.length);
    }
    const thisWeek = home.weeks.at(-1)!;
    expect(thisWeek).toMatchObject({ sessions: 3, trainings: 1, sessionDistanceM: 2500, distanceM: 2500 + 3000, workMs: 180_000 });
    expect(thisWeek.durationMs).toBe(2500 * 220 + 1_200_000);

    // Per athlete: a K2 counts for both paddlers.
    expect(home.thisWeek).toEqual([
      {
        athleteId: w.ana,
        athleteName: "Ana Uno",
        sessions: 2,
        trainings: 1,
        distanceM: 1500 + 3000,
        durationMs: 1500 * 220 + 1_200_000,
        workMs: 180_000,
      },
      { athleteId: w.bea, athleteName: "Bea Dos", sessions: 2, trainings: 0, distanceM: 2000, durationMs: 2000 * 220, workMs: 0 },
    ]);

    // Bests per crew: Ana's K1 500 m best is the 90 s of 3 November, not this week's slower one.
    const anaK1 = home.bests.find((b) => b.boatClass === "K1" && b.distanceM === 500);
    expect(anaK1).toMatchObject({ durationMs: 90_000, date: "2026-11-03", crew: "Ana Uno" });
    expect(home.bests.find((b) => b.boatClass === "K2")).toMatchObject({ crew: "Ana Uno, Bea Dos", distanceM: 1000 });
    expect(home.bests.some((b) => b.crew.includes("Far Away"))).toBe(false);

    expect(home.waiting.failedSessions.map((s) => s.id)).toEqual([w.failed]);
    expect(home.waiting.failedTrainings).toHaveLength(1);

    // Health never reaches the home: no weight, no heart rate in what the page gets.
    expect(JSON.stringify(home)).not.toMatch(/weight|heart|61|66/i);
  });

  it("shows an athlete only their own sessions and trainings", async () => {
    const w = await world();
    const home = await readHomeSummary(handle.db, w.paddlerUser.id, today);
    expect(home.thisWeek.map((a) => a.athleteName)).toEqual(["Ana Uno"]);
    expect(home.weeks.at(-1)).toMatchObject({ sessions: 2, trainings: 1, sessionDistanceM: 1500 });
    // Failures and exports are the owner's to act on: the coach's, not the athlete's.
    expect(home.waiting.failedSessions).toEqual([]);
  });

  it("lists pending web exports only", async () => {
    const w = await world();
    const job = (state: string, extra: Partial<typeof exportJobs.$inferInsert> = {}) =>
      ({
        publicId: `exp_${randomUUID().replaceAll("-", "").slice(0, 22)}`,
        subjectUserId: w.coach.id,
        sourceKind: "session",
        sourceId: w.beaTuesday,
        format: "pdf",
        athlete: 1,
        splits: 4,
        lang: "en",
        mode: "full",
        healthAllowed: true,
        state,
        ...extra,
      }) as typeof exportJobs.$inferInsert;
    await handle.db.insert(exportJobs).values([job("queued"), job("running"), job("succeeded")]);
    const home = await readHomeSummary(handle.db, w.coach.id, today);
    expect(home.waiting.pendingExports.map((e) => e.state).sort()).toEqual(["queued", "running"]);
  });
});

describe("the log's week view and home", () => {
  it("show the same volume for the same week, trainings included, over whole weeks from a Monday", async () => {
    const w = await world();
    const { readWeeklyVolume, DEFAULT_WEEKS } = await import("../sessions/weekly-volume");
    for (const person of [w.coach, w.paddlerUser]) {
      const home = await readHomeSummary(handle.db, person.id, today);
      const view = await readWeeklyVolume(handle.db, person.id, parseLogQuery({ view: "week" }));
      // Without a range: whole ISO weeks up to the week of the newest session, from a Monday to a Sunday.
      expect([view.from, view.to]).toEqual(["2026-10-05", "2026-11-29"]);
      expect(new Date(`${view.from}T00:00:00Z`).getUTCDay()).toBe(1);
      expect(view.weeks).toHaveLength(DEFAULT_WEEKS);
      const week = view.weeks.find((x) => x.weekStart === home.weekStart)!;
      // Each athlete's row equals home's "This week" row, and the week's total home's week totals.
      expect(week.athletes.map(({ weekStart: _w, sessionDistanceM: _s, ...a }) => a)).toEqual(home.thisWeek);
      const { weekStart: _w, ...homeTotal } = home.weeks.at(-1)!;
      expect(week.total).toEqual(homeTotal);
      for (const past of view.weeks) {
        const homeWeek = home.weeks.find((x) => x.weekStart === past.weekStart);
        if (homeWeek) expect(past.total.distanceM, past.weekStart).toBe(homeWeek.distanceM);
      }
    }
    // Ana's week: her two sessions (1500 m) and her training (3000 m), not the sessions alone.
    const ana = await readWeeklyVolume(
      handle.db,
      w.coach.id,
      parseLogQuery({ view: "week", athlete: String(w.ana), from: "2026-11-25", to: "2026-11-26" }),
    );
    expect([ana.from, ana.to]).toEqual(["2026-11-23", "2026-11-29"]);
    expect(ana.weeks[0].athletes).toMatchObject([{ athleteId: w.ana, sessions: 2, trainings: 1, distanceM: 4500, workMs: 180_000 }]);
    expect(ana.weeks[0].total).toMatchObject({ sessions: 2, trainings: 1, distanceM: 4500 });
    // A filter a training has no value for (the boat class) leaves trainings out.
    const k2 = await readWeeklyVolume(
      handle.db,
      w.coach.id,
      parseLogQuery({ view: "week", boat: "2", from: "2026-11-23", to: "2026-11-29" }),
    );
    expect(k2.weeks[0].total).toMatchObject({ sessions: 1, trainings: 0, distanceM: 1000 });
  });
});

describe("the calendar", () => {
  it("buckets sessions and trainings by local day; a day's session distance equals the log's for that day", async () => {
    const w = await world();
    const month = await readCalendar(handle.db, w.coach.id, parseLogQuery({ view: "calendar", month: "2026-11" }), today);
    expect(month).toMatchObject({ month: "2026-11", previous: "2026-10", next: "2026-12" });
    expect(month.days).toHaveLength(30);
    for (const day of month.days) {
      const { rows } = await readLogPage(handle.db, w.coach.id, parseLogQuery({ from: day.date, to: day.date }), 500);
      expect(day.sessions.map((s) => s.id).sort(), day.date).toEqual(rows.map((r) => r.id).sort());
      expect(day.distanceM, day.date).toBe(
        rows.reduce((sum, r) => sum + r.distanceM, 0) + day.trainings.reduce((sum, t) => sum + t.distanceM, 0),
      );
    }
    const tuesday = month.days.find((d) => d.date === "2026-11-24")!;
    expect(tuesday.trainings).toHaveLength(1);
    expect(tuesday.trainings[0].workSets).toEqual([
      { distanceM: 250, durationMs: 60_000 },
      { distanceM: 250, durationMs: 61_000 },
      { distanceM: 250, durationMs: 59_000 },
    ]);
    expect(tuesday.distanceM).toBe(1000 + 3000);
    // The athlete filter applies to both.
    const bea = await readCalendar(
      handle.db,
      w.coach.id,
      parseLogQuery({ view: "calendar", month: "2026-11", athlete: String(w.bea) }),
      today,
    );
    expect(bea.days.find((d) => d.date === "2026-11-24")).toMatchObject({ distanceM: 1000, trainings: [] });
    expect(bea.days.find((d) => d.date === "2026-11-23")!.sessions).toHaveLength(1);
  });

  it("opens on the month of the newest session, and a bad month falls back to it", async () => {
    const w = await world();
    expect((await readCalendar(handle.db, w.coach.id, parseLogQuery({ view: "calendar" }), today)).month).toBe("2026-11");
    expect((await readCalendar(handle.db, w.coach.id, parseLogQuery({ view: "calendar", month: "2026-13" }), today)).month).toBe("2026-11");
    const empty = await readCalendar(handle.db, w.coach.id, parseLogQuery({ view: "calendar", month: "2025-02" }), today);
    expect(empty.days).toHaveLength(28);
    expect(empty.days.every((d) => d.distanceM === 0 && !d.sessions.length)).toBe(true);
  });
});

describe("the exports list", () => {
  it("lists the person's web exports newest first, with state, source and expiry; never another person's or an application's", async () => {
    const w = await world();
    const base = {
      sourceKind: "session",
      sourceId: w.beaTuesday,
      athlete: 1,
      splits: 4,
      lang: "en",
      mode: "full",
      healthAllowed: true,
    } as const;
    const id = () => `exp_${randomUUID().replaceAll("-", "").slice(0, 22)}`;
    const now = new Date();
    const [older, done, expired] = [id(), id(), id()];
    await handle.db.insert(exportJobs).values([
      {
        ...base,
        publicId: older,
        subjectUserId: w.coach.id,
        format: "pdf",
        state: "failed",
        error: "boom",
        createdAt: new Date(now.getTime() - 3_600_000),
      },
      {
        ...base,
        publicId: done,
        subjectUserId: w.coach.id,
        format: "json",
        state: "succeeded",
        byteSize: 1234,
        expiresAt: new Date(now.getTime() + 3_600_000),
        createdAt: new Date(now.getTime() - 60_000),
      },
      {
        ...base,
        publicId: expired,
        subjectUserId: w.coach.id,
        format: "fit",
        state: "succeeded",
        expiresAt: new Date(now.getTime() - 1000),
        createdAt: new Date(now.getTime() - 120_000),
      },
      { ...base, publicId: id(), subjectUserId: w.stranger.id, format: "pdf", state: "queued" },
    ]);
    const list = await listWebExports(handle.db, w.coach.id, now);
    expect(list.map((e) => e.publicId)).toEqual([done, expired, older]);
    expect(list[0]).toMatchObject({
      state: "succeeded",
      format: "json",
      byteSize: 1234,
      sourceKind: "session",
      sourceLabel: "2026-11-24 · K1 1000 m",
    });
    expect(list[1].state).toBe("expired");
    expect(list[2]).toMatchObject({ state: "failed", error: "boom" });
    expect(await listWebExports(handle.db, w.paddlerUser.id, now)).toEqual([]);
  });
});
