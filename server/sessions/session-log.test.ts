import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resultAccessible } from "../access/access";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { athletes, resultCrew, results, teamMemberships, teams } from "../db/schema";
import { createTrack } from "../tracks/tracks";
import { createUser } from "../users/users";
import { decodeLogCursor, encodeLogCursor, LOG_SORTS, parseLogQuery, readLogPage, rowsOf, type LogQuery } from "./session-log";

/**
 * The log must show exactly what the web access rule allows, in order, with
 * no row lost or repeated across pages. Each walk is compared with one plain
 * query over resultAccessible (server/access/access.ts), the rule itself.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const newUser = (name: string) =>
  createUser(handle.db, { name, email: `log-${randomUUID()}@test.example`, password: "correct horse battery" });

async function world() {
  const coach = await newUser("Coach");
  const paddler = await newUser("Paddler");
  const stranger = await newUser("Stranger");
  const track = await createTrack(handle.db, coach.id, { name: "Log basin" });
  const otherTrack = await createTrack(handle.db, paddler.id, { name: "Home river" });
  const [managed, ownRecord, coached, foreign] = await handle.db
    .insert(athletes)
    .values([
      { ownerUserId: coach.id, name: "Managed", surname: "One" },
      { ownerUserId: paddler.id, userId: paddler.id, name: "Paddler", surname: "Self" },
      { ownerUserId: paddler.id, name: "Coached", surname: "Two" },
      { ownerUserId: stranger.id, name: "Foreign", surname: "Three" },
    ])
    .returning({ id: athletes.id });
  const [team] = await handle.db.insert(teams).values({ name: "Log club", ownerUserId: coach.id }).returning({ id: teams.id });
  await handle.db.insert(teamMemberships).values([
    { teamId: team.id, role: "coach", userId: coach.id },
    { teamId: team.id, role: "athlete", athleteId: coached.id },
  ]);
  let n = 0;
  const insert = async (ownerUserId: number, trackId: number, crew: number[], extra: Partial<typeof results.$inferInsert> = {}) => {
    n += 1;
    const distanceM = [200, 500, 1000][n % 3];
    const startAt = new Date(Date.UTC(2026, 0, 1 + (n % 40), 8 + (n % 5)));
    const [row] = await handle.db
      .insert(results)
      .values({
        ownerUserId,
        trackId,
        vesselId: crew.length === 2 ? 2 : 1,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date: startAt.toISOString().slice(0, 10),
        timeOfDay: "10:00:00+00:00",
        startAt,
        utcOffsetMin: 0,
        // Equal distances and durations repeat, so ties on every sort key are broken by id.
        distanceM,
        durationMs: distanceM * (180 + (n % 4) * 10),
        targetDistanceM: distanceM,
        competition: n % 7 === 0 ? "Spring Regatta" : "",
        important: n % 5 === 0,
        ...extra,
      })
      .returning({ id: results.id });
    if (crew.length) await handle.db.insert(resultCrew).values(crew.map((athleteId, k) => ({ resultId: row.id, seat: k + 1, athleteId })));
    return row.id;
  };
  for (let k = 0; k < 30; k++) await insert(coach.id, track.id, [managed.id]);
  for (let k = 0; k < 12; k++) await insert(paddler.id, otherTrack.id, [coached.id]); // visible to the coach through the team
  for (let k = 0; k < 5; k++) await insert(paddler.id, otherTrack.id, [coached.id, managed.id]); // two accessible seats, one session
  for (let k = 0; k < 6; k++) await insert(paddler.id, otherTrack.id, [ownRecord.id]); // the paddler's own, not the coach's
  for (let k = 0; k < 4; k++) await insert(stranger.id, otherTrack.id, [foreign.id]);
  return { coach, paddler, stranger, track, managed: managed.id, coached: coached.id, foreign: foreign.id };
}

async function walk(userId: number, query: Partial<LogQuery>, pageSize = 7): Promise<number[]> {
  const seen: number[] = [];
  let q = parseLogQuery({});
  q = { ...q, ...query };
  for (let guard = 0; guard < 100; guard++) {
    const page = await readLogPage(handle.db, userId, q, pageSize);
    seen.push(...page.rows.map((r) => r.id));
    if (!page.nextCursor) return seen;
    q = { ...q, after: page.nextCursor };
  }
  throw new Error("log walk did not end");
}

const SORT_REFERENCE = {
  date: "start_at",
  distance: "distance_m",
  time: "duration_ms",
  speed: "distance_m::float8 / greatest(duration_ms, 1)",
} as const;
async function reference(userId: number, sort: keyof typeof SORT_REFERENCE, order: "asc" | "desc", extra = sql`true`): Promise<number[]> {
  const dir = sql.raw(order);
  const rows = rowsOf<{ id: number }>(
    await handle.db.execute(
      sql`select results.id from results where ${resultAccessible(userId)} and ${extra} order by ${sql.raw(SORT_REFERENCE[sort])} ${dir}, results.id ${dir}`,
    ),
  );
  return rows.map((r) => Number(r.id));
}

describe("sessions log", () => {
  it("walks every sort both ways to the last page, equal to the access rule's own ordering", async () => {
    const w = await world();
    for (const sort of LOG_SORTS) {
      for (const order of ["asc", "desc"] as const) {
        const expected = await reference(w.coach.id, sort, order);
        expect(expected.length).toBe(30 + 12 + 5);
        expect(await walk(w.coach.id, { sort, order })).toEqual(expected);
      }
    }
    // The paddler sees their own uploads (all 23), not the coach's.
    expect(await walk(w.paddler.id, {})).toEqual(await reference(w.paddler.id, "date", "desc"));
    expect((await walk(w.stranger.id, {})).length).toBe(4);
  });

  it("filters by athlete, boat class, track, distance, dates, competition text and the important flag", async () => {
    const w = await world();
    const cases: [Partial<LogQuery>, ReturnType<typeof sql>][] = [
      [{ athlete: w.coached }, sql`exists (select 1 from result_crew c where c.result_id = results.id and c.athlete_id = ${w.coached})`],
      [{ boat: 2 }, sql`results.vessel_id = 2`],
      [{ track: w.track.id }, sql`results.track_id = ${w.track.id}`],
      [{ distance: 500, sort: "time", order: "asc" }, sql`results.distance_m = 500`],
      [{ from: "2026-01-10", to: "2026-01-20" }, sql`results.date between '2026-01-10' and '2026-01-20'`],
      [{ competition: "regatta" }, sql`results.competition ilike '%regatta%'`],
      [{ important: "1", sort: "speed" }, sql`results.important`],
    ];
    for (const [filter, condition] of cases) {
      const expected = await reference(w.coach.id, filter.sort ?? "date", filter.order ?? "desc", condition);
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(await walk(w.coach.id, filter, 4), JSON.stringify(filter)).toEqual(expected);
    }
  });

  it("answers an athlete outside the user's reach as not found, and an empty filter result as an empty last page", async () => {
    const w = await world();
    await expect(readLogPage(handle.db, w.coach.id, { ...parseLogQuery({}), athlete: w.foreign })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await readLogPage(handle.db, w.coach.id, { ...parseLogQuery({}), competition: "no such regatta" })).toEqual({
      rows: [],
      nextCursor: null,
    });
  });

  it("reads the URL leniently: bad values are dropped, cursors of another sort are a first page", () => {
    expect(
      parseLogQuery({ sort: "speed", order: "asc", boat: "2", distance: "abc", from: "2026-02-30", important: "yes", athlete: ["5", "6"] }),
    ).toMatchObject({ sort: "speed", order: "asc", boat: 2, distance: undefined, from: undefined, important: undefined, athlete: 5 });
    expect(parseLogQuery({ sort: "nonsense\u0000" }).sort).toBe("date");
    const cursor = encodeLogCursor(["2026-01-01 08:00:00+00", 12]);
    expect(decodeLogCursor(cursor, "date")).toEqual(["2026-01-01 08:00:00+00", 12]);
    expect(decodeLogCursor(cursor, "distance")).toBeNull();
    expect(decodeLogCursor("not-a-cursor", "date")).toBeNull();
    expect(decodeLogCursor(encodeLogCursor([500, 99_999_999_999]), "distance")).toBeNull();
  });
});

describe("weekly volume", () => {
  it("sums sessions, distance and time per ISO week and crew athlete, over the filtered sessions", async () => {
    const w = await world();
    const { readWeeklyVolume } = await import("./weekly-volume");
    const { from, to, weeks } = await readWeeklyVolume(handle.db, w.coach.id, {
      ...parseLogQuery({}),
      from: "2026-01-01",
      to: "2026-02-28",
    });
    // Whole ISO weeks: the Monday of the week holding 1 January to the Sunday of the week holding 28 February.
    expect([from, to]).toEqual(["2025-12-29", "2026-03-01"]);
    const expected = rowsOf<{ week: string; athlete: number; n: number; d: number; t: number }>(
      await handle.db
        .execute(sql`select date_trunc('week', r.date)::date::text as week, c.athlete_id as athlete, count(*)::int as n, sum(r.distance_m)::int as d, sum(r.duration_ms)::int as t
        from results r join result_crew c on c.result_id = r.id where c.athlete_id in (${w.managed}, ${w.coached}) group by 1, 2`),
    );
    const rows = weeks.flatMap((x) => x.athletes);
    expect(rows.length).toBe(expected.length);
    for (const e of expected) {
      expect(rows.find((x) => x.weekStart === e.week && x.athleteId === Number(e.athlete))).toMatchObject({
        sessions: Number(e.n),
        distanceM: Number(e.d),
        durationMs: Number(e.t),
      });
    }
    // Every week the range names, empty ones included, newest first: 2025-12-29 (holding 1 January) to 2026-02-23.
    for (let i = 1; i < weeks.length; i++) expect(Date.parse(weeks[i - 1].weekStart) - Date.parse(weeks[i].weekStart)).toBe(7 * 86_400_000);
    expect(weeks).toHaveLength(9);
    expect([weeks[0].weekStart, weeks[8].weekStart]).toEqual(["2026-02-23", "2025-12-29"]);
    expect(weeks.every((x) => new Date(`${x.weekStart}T00:00:00Z`).getUTCDay() === 1)).toBe(true);
    expect(weeks.some((x) => x.athletes.length === 0)).toBe(true);
    const managedOnly = await readWeeklyVolume(handle.db, w.coach.id, {
      ...parseLogQuery({}),
      athlete: w.managed,
      from: "2026-01-01",
      to: "2026-02-28",
    });
    const managedRows = managedOnly.weeks.flatMap((x) => x.athletes);
    expect(new Set(managedRows.map((x) => x.athleteId))).toEqual(new Set([w.managed]));
    expect(managedRows.reduce((sum, x) => sum + x.sessions, 0)).toBe(35);
  });
});

describe("weeks of a range", () => {
  it("are the Mondays of every ISO week the range touches, newest first, at most a year of them", async () => {
    const { isoWeeksBetween } = await import("./weekly-volume");
    expect(isoWeeksBetween("2026-03-20", "2026-05-14")).toEqual([
      "2026-05-11",
      "2026-05-04",
      "2026-04-27",
      "2026-04-20",
      "2026-04-13",
      "2026-04-06",
      "2026-03-30",
      "2026-03-23",
      "2026-03-16",
    ]);
    expect(isoWeeksBetween("2026-05-11", "2026-05-17")).toEqual(["2026-05-11"]);
    expect(isoWeeksBetween("2026-05-14", "2026-03-20")).toEqual([]);
    expect(isoWeeksBetween("1900-01-01", "2026-05-14")).toHaveLength(53);
  });
});

describe("personal bests", () => {
  it("are the fastest distance effort per boat class and distance with the athlete in the crew, whoever uploaded it", async () => {
    const w = await world();
    const { listPersonalBests } = await import("../athletes/athlete-bests");
    const bests = await listPersonalBests(handle.db, w.managed);
    const expected = rowsOf<{ type: string; d: number; t: number; n: number }>(
      await handle.db
        .execute(sql`select v.type, r.distance_m as d, min(r.duration_ms)::int as t, count(*)::int as n from result_crew c join results r on r.id = c.result_id join vessels v on v.id = r.vessel_id
        where c.athlete_id = ${w.managed} group by 1, 2 order by 1, 2`),
    );
    expect(bests.map((b) => [b.boatClass, b.distanceM, b.durationMs, b.sessions])).toEqual(
      expected.map((e) => [e.type, Number(e.d), Number(e.t), Number(e.n)]),
    );
    // The K2 sessions the paddler uploaded count for the coach's athlete too.
    expect(bests.some((b) => b.boatClass === "K2")).toBe(true);
  });
});
