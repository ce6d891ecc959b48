import { randomUUID } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { athletes, resultCrew, results, sessionAccess, teamMemberships, teams } from "../db/schema";
import { addAthlete, addCoach, createTeam, removeMember } from "../teams/teams";
import { createTrack } from "../tracks/tracks";
import { createUser } from "../users/users";
import { ZResultFilters } from "../http/results-api/contract";
import { listResultsPage } from "./query-results";

/**
 * The results API's wider rule ("the owner, and everyone who may see an
 * athlete of the crew": manager, linked account, team coaches) lives in
 * session_access, kept by triggers (drizzle/0015). After every write path
 * that can change it, the table must equal the rule computed from scratch
 * here, independently of the triggers, the way access.ts used to compute it.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const newUser = (label: string) =>
  createUser(handle.db, { name: label, email: `ra-${label}-${randomUUID()}@test.example`, password: "correct horse battery" });

/** Who may see each of `resultIds`, from the base tables: [userId, resultId, subject]. */
async function ruleFromScratch(resultIds: number[]) {
  const rows = await handle.db.execute<{ user_id: number; result_id: number; subject: boolean }>(sql`
    select u.id as user_id, r.id as result_id,
      (r.owner_user_id = u.id or exists (select 1 from result_crew rc join athletes a on a.id = rc.athlete_id where rc.result_id = r.id and a.user_id = u.id)) as subject
    from results r cross join users u
    where r.id in (${sql.join(resultIds, sql`, `)})
      and (r.owner_user_id = u.id or exists (
        select 1 from result_crew rc join athletes a on a.id = rc.athlete_id
        where rc.result_id = r.id and (a.owner_user_id = u.id or a.user_id = u.id or exists (
          select 1 from team_memberships m join team_memberships c on c.team_id = m.team_id and c.role = 'coach'
          where m.role = 'athlete' and m.athlete_id = a.id and c.user_id = u.id))))`);
  const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: { user_id: number; result_id: number; subject: boolean }[] }).rows;
  return list.map((r) => [Number(r.user_id), Number(r.result_id), r.subject] as const).sort(byTuple);
}

const byTuple = (a: readonly [number, number, boolean], b: readonly [number, number, boolean]) => a[0] - b[0] || a[1] - b[1];

async function table(resultIds: number[]) {
  const rows = await handle.db
    .select({ userId: sessionAccess.userId, resultId: sessionAccess.resultId, subject: sessionAccess.subject })
    .from(sessionAccess)
    .where(inArray(sessionAccess.resultId, resultIds));
  return rows.map((r) => [r.userId, r.resultId, r.subject] as const).sort(byTuple);
}

async function world() {
  const manager = await newUser("manager");
  const coach = await newUser("coach");
  const paddler = await newUser("paddler");
  const stranger = await newUser("stranger");
  const track = await createTrack(handle.db, manager.id, { name: "Rule basin" });
  const [a1, a2] = await handle.db
    .insert(athletes)
    .values([
      { ownerUserId: manager.id, name: "First", surname: "Athlete" },
      { ownerUserId: manager.id, name: "Second", surname: "Athlete" },
    ])
    .returning({ id: athletes.id });
  const insertResult = async (ownerUserId: number, startAt: string, crew: number[]) => {
    const [row] = await handle.db
      .insert(results)
      .values({
        ownerUserId,
        trackId: track.id,
        vesselId: 1,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date: startAt.slice(0, 10),
        timeOfDay: "10:00:00+00:00",
        startAt: new Date(startAt),
        utcOffsetMin: 0,
        distanceM: 500,
        durationMs: 100_000,
        targetDistanceM: 500,
      })
      .returning({ id: results.id });
    if (crew.length) await handle.db.insert(resultCrew).values(crew.map((athleteId, i) => ({ resultId: row.id, seat: i + 1, athleteId })));
    return row.id;
  };
  return { manager, coach, paddler, stranger, a1: a1.id, a2: a2.id, insertResult };
}

const visibleTo = async (userId: number) =>
  (await listResultsPage(handle.db, userId, ZResultFilters.parse({ sort: "date", order: "asc" }), 100, 0)).rows.map((r) => r.id);

describe("session_access under the results API's wider rule", () => {
  it("follows every write path: crews, links, managers, coaches joining and leaving teams, team deletion", async () => {
    const { manager, coach, paddler, stranger, a1, a2, insertResult } = await world();
    const r1 = await insertResult(manager.id, "2026-04-01T10:00:00Z", [a1]);
    const r2 = await insertResult(stranger.id, "2026-04-02T10:00:00Z", [a2]);
    const r3 = await insertResult(stranger.id, "2026-04-03T10:00:00Z", []);
    const ids = [r1, r2, r3];
    const check = async () => expect(await table(ids)).toEqual(await ruleFromScratch(ids));

    await check();
    expect(await visibleTo(manager.id)).toEqual([r1, r2]); // r2: the stranger's session, with the manager's athlete aboard
    expect(await visibleTo(coach.id)).toEqual([]);

    // A team: its creator (the manager) coaches it; a coach is added by email; athletes join.
    const team = await createTeam(handle.db, manager.id, { name: "Rule crew" });
    await addCoach(handle.db, manager.id, { teamId: team.id, email: (await emailOf(coach.id))! });
    await check();
    expect(await visibleTo(coach.id)).toEqual([]);
    await addAthlete(handle.db, manager.id, { teamId: team.id, athleteId: a1 });
    await check();
    expect(await visibleTo(coach.id)).toEqual([r1]);
    await addAthlete(handle.db, manager.id, { teamId: team.id, athleteId: a2 });
    expect(await visibleTo(coach.id)).toEqual([r1, r2]);
    await check();

    // The athlete record is linked to the paddler's account: their sessions become the paddler's own.
    await handle.db.update(athletes).set({ userId: paddler.id }).where(eq(athletes.id, a2));
    await check();
    expect(await visibleTo(paddler.id)).toEqual([r2]);

    // Crew changes: a seat added to r3, a seat changing hands, a seat removed.
    await handle.db.insert(resultCrew).values({ resultId: r3, seat: 1, athleteId: a1 });
    await check();
    expect(await visibleTo(coach.id)).toEqual([r1, r2, r3]);
    await handle.db
      .update(resultCrew)
      .set({ athleteId: a2 })
      .where(and(eq(resultCrew.resultId, r3), eq(resultCrew.seat, 1)));
    await check();
    await handle.db.delete(resultCrew).where(eq(resultCrew.resultId, r3));
    await check();
    expect(await visibleTo(coach.id)).toEqual([r1, r2]);

    // The coach leaves the team; an athlete leaves; the record changes manager.
    const coachMembership = await membershipOf(team.id, { userId: coach.id });
    await removeMember(handle.db, manager.id, team.id, coachMembership);
    await check();
    expect(await visibleTo(coach.id)).toEqual([]);
    await addCoach(handle.db, manager.id, { teamId: team.id, email: (await emailOf(coach.id))! });
    await removeMember(handle.db, manager.id, team.id, await membershipOf(team.id, { athleteId: a2 }));
    await check();
    expect(await visibleTo(coach.id)).toEqual([r1]);
    await handle.db.update(athletes).set({ ownerUserId: stranger.id }).where(eq(athletes.id, a1));
    await check();
    expect(await visibleTo(stranger.id)).toEqual([r1, r2, r3]);

    // Deleting the team (its memberships cascade) takes the coach's access with it.
    await handle.db.delete(teams).where(eq(teams.id, team.id));
    await check();
    expect(await visibleTo(coach.id)).toEqual([]);

    // Unlinking, and deleting a result.
    await handle.db.update(athletes).set({ userId: null }).where(eq(athletes.id, a2));
    await check();
    await handle.db.delete(results).where(eq(results.id, r2));
    await check();
    expect(await visibleTo(paddler.id)).toEqual([]);
  });

  it("pages and counts exactly, in every sort and order, with filters", async () => {
    const { manager, a1, insertResult } = await world();
    const ids: number[] = [];
    for (let day = 1; day <= 25; day++)
      ids.push(await insertResult(manager.id, `2026-05-${String(day).padStart(2, "0")}T10:00:00Z`, day % 2 ? [a1] : []));
    const page = (query: Record<string, string>, perPage: number, offset: number) =>
      listResultsPage(handle.db, manager.id, ZResultFilters.parse(query), perPage, offset);
    const first = await page({ sort: "date", order: "desc" }, 10, 0);
    expect(first.total).toBe(25);
    expect(first.rows.map((r) => r.id)).toEqual([...ids].reverse().slice(0, 10));
    const last = await page({ sort: "date", order: "desc" }, 10, 20);
    expect(last.rows.map((r) => r.id)).toEqual([...ids].reverse().slice(20));
    const filtered = await page({ sort: "creation_date", order: "asc", athlete_id: String(a1), start_date: "2026-05-10" }, 100, 0);
    expect(filtered.total).toBe(8); // odd days 11..25
    expect(filtered.rows.map((r) => r.id)).toEqual(ids.filter((_, i) => (i + 1) % 2 === 1 && i + 1 >= 10));
    const bounded = await page({ sort: "date", order: "asc", start_date: "2026-05-10", end_date: "2026-05-12" }, 100, 0);
    expect(bounded.rows.map((r) => r.id)).toEqual(ids.slice(9, 12));
    expect(bounded.total).toBe(3);

    // Date filters use the local date: a start late on 31 May UTC is 1 June at +12:00 (the index range must not cut it off).
    const [late] = await handle.db
      .insert(results)
      .values({
        ownerUserId: manager.id,
        trackId: (await handle.db.select({ id: results.trackId }).from(results).where(eq(results.id, ids[0])))[0].id,
        vesselId: 1,
        categoryId: 1,
        paceId: 1,
        createdVia: "demo",
        date: "2026-06-01",
        timeOfDay: "08:00:00+12:00",
        startAt: new Date("2026-05-31T20:00:00Z"),
        utcOffsetMin: 720,
        distanceM: 500,
        durationMs: 100_000,
        targetDistanceM: 500,
      })
      .returning({ id: results.id });
    expect((await page({ sort: "date", order: "asc", start_date: "2026-06-01" }, 100, 0)).rows.map((r) => r.id)).toEqual([late.id]);
    expect((await page({ sort: "date", order: "asc", start_datetime: "2026-06-01T07:59" }, 100, 0)).rows.map((r) => r.id)).toEqual([
      late.id,
    ]);
    expect(
      (await page({ sort: "date", order: "asc", end_date: "2026-05-31", start_date: "2026-05-25" }, 100, 0)).rows.map((r) => r.id),
    ).toEqual([ids[24]]);
  });
});

async function emailOf(userId: number) {
  const rows = await handle.db.execute<{ email: string }>(sql`select email from users where id = ${userId}`);
  const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: { email: string }[] }).rows;
  return list[0]?.email;
}

async function membershipOf(teamId: number, member: { userId?: number; athleteId?: number }) {
  const [row] = await handle.db
    .select({ id: teamMemberships.id })
    .from(teamMemberships)
    .where(
      and(
        eq(teamMemberships.teamId, teamId),
        member.userId ? eq(teamMemberships.userId, member.userId) : eq(teamMemberships.athleteId, member.athleteId!),
      ),
    );
  return row.id;
}
