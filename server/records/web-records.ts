import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rowsOf } from "../sessions/session-log";

/**
 * The web records page (docs/web-app.md "Records"): bests per athlete, per
 * crew, and a leaderboard per team, boat class and distance. A best mixes
 * nothing: an athlete's K1 500 m and their K2 500 m are two bests, and a K2
 * crew is its two paddlers, whichever seat each sat in. The Data API's
 * /records keeps its own grouping (server/records/performance-records.ts).
 *
 * Sessions are those the viewer may see on the web (session_access); only
 * processed distance efforts count. Ties go to the earlier effort, as on the
 * athlete page (server/athletes/athlete-bests.ts), so both show one session.
 */
export interface BestEffort {
  resultId: number;
  boatClass: string;
  distanceM: number;
  durationMs: number;
  date: string;
  /** The crew in seat order, as on the session page. */
  crew: string[];
}

export interface AthleteBests {
  athleteId: number;
  name: string;
  bests: (BestEffort & { sessions: number })[];
}

export interface CrewBests {
  /** Stable key of the crew: boat class and its paddlers, seat order ignored. */
  key: string;
  boatClass: string;
  crew: string[];
  bests: (BestEffort & { sessions: number })[];
}

export interface Leaderboard {
  teamId: number;
  teamName: string;
  boards: { boatClass: string; distanceM: number; entries: (BestEffort & { rank: number; crewKey: string })[] }[];
}

export interface WebRecords {
  athletes: AthleteBests[];
  crews: CrewBests[];
  leaderboards: Leaderboard[];
}

interface EffortRow {
  resultId: number;
  boatClass: string;
  crewSize: number;
  distanceM: number;
  durationMs: number;
  date: string;
  seats: { athleteId: number | null; name: string }[];
}

const faster = (a: EffortRow, b: EffortRow) => a.durationMs < b.durationMs;

const crewKeyOf = (e: EffortRow) =>
  `${e.boatClass}|${e.seats
    .map((s) => (s.athleteId !== null ? `a${s.athleteId}` : `x${s.name.toLowerCase()}`))
    .sort()
    .join(",")}`;

const best = (e: EffortRow): BestEffort => ({
  resultId: e.resultId,
  boatClass: e.boatClass,
  distanceM: e.distanceM,
  durationMs: e.durationMs,
  date: e.date,
  crew: e.seats.map((s) => s.name),
});

const byBoatAndDistance = (a: { boatClass: string; distanceM: number }, b: { boatClass: string; distanceM: number }) =>
  a.boatClass < b.boatClass ? -1 : a.boatClass > b.boatClass ? 1 : a.distanceM - b.distanceM;

/** Per group key, then per boat class and distance: the fastest effort (rows come earliest first, so a tie keeps the earlier) and the count. */
function bestsBy(
  rows: EffortRow[],
  groupsOf: (e: EffortRow) => string[],
): Map<string, Map<string, { effort: EffortRow; sessions: number }>> {
  const groups = new Map<string, Map<string, { effort: EffortRow; sessions: number }>>();
  for (const row of rows) {
    for (const group of groupsOf(row)) {
      const perEvent = groups.get(group) ?? new Map<string, { effort: EffortRow; sessions: number }>();
      groups.set(group, perEvent);
      const event = `${row.boatClass}|${row.distanceM}`;
      const current = perEvent.get(event);
      if (!current) perEvent.set(event, { effort: row, sessions: 1 });
      else {
        current.sessions++;
        if (faster(row, current.effort)) current.effort = row;
      }
    }
  }
  return groups;
}

export async function loadWebRecords(db: Db, userId: number): Promise<WebRecords> {
  const [effortRows, athleteRows, memberRows] = await Promise.all([
    db.execute(sql`
      select r.id as "resultId", v.type as "boatClass", v.npeople as "crewSize", r.distance_m as "distanceM", r.duration_ms as "durationMs", r.date::text as "date",
        coalesce((select json_agg(json_build_object('athleteId', rc.athlete_id,
            'name', coalesce(trim(a.name || ' ' || a.surname), trim(rc.external_name || ' ' || coalesce(rc.external_surname, '')))) order by rc.seat)
          from result_crew rc left join athletes a on a.id = rc.athlete_id where rc.result_id = r.id), '[]'::json) as seats
      from results r join vessels v on v.id = r.vessel_id
      where r.target_distance_m is not null and r.status = 'processed'
        and exists (select 1 from session_access sa where sa.user_id = ${userId} and sa.result_id = r.id)
      order by r.start_at, r.id`),
    db.execute(sql`
      select a.id, trim(a.name || ' ' || a.surname) as name from athletes a
      where a.id in (select av.athlete_id from athlete_viewers av where av.user_id = ${userId})
      order by a.surname, a.name, a.id`),
    // Teams the viewer owns or belongs to, with their athletes.
    db.execute(sql`
      select t.id as "teamId", t.name as "teamName", tm.athlete_id as "athleteId" from teams t join team_memberships tm on tm.team_id = t.id and tm.role = 'athlete'
      where t.owner_user_id = ${userId} or exists (select 1 from team_memberships me left join athletes ma on ma.id = me.athlete_id
        where me.team_id = t.id and (me.user_id = ${userId} or ma.user_id = ${userId}))
      order by t.name, t.id`),
  ]);
  const efforts = rowsOf<EffortRow>(effortRows).map((r) => ({
    ...r,
    resultId: Number(r.resultId),
    crewSize: Number(r.crewSize),
    distanceM: Number(r.distanceM),
    durationMs: Number(r.durationMs),
  }));
  const visibleAthletes = rowsOf<{ id: number; name: string }>(athleteRows).map((a) => ({ id: Number(a.id), name: a.name }));

  const perAthlete = bestsBy(efforts, (e) => e.seats.flatMap((s) => (s.athleteId !== null ? [String(s.athleteId)] : [])));
  const athletesOut: AthleteBests[] = visibleAthletes.flatMap((a) => {
    const events = perAthlete.get(String(a.id));
    if (!events) return [];
    return [
      {
        athleteId: a.id,
        name: a.name,
        bests: [...events.values()].map(({ effort, sessions }) => ({ ...best(effort), sessions })).sort(byBoatAndDistance),
      },
    ];
  });

  // Crews are the boats of two or more; a single's bests are its athlete's.
  const perCrew = bestsBy(
    efforts.filter((e) => e.crewSize > 1),
    (e) => [crewKeyOf(e)],
  );
  const crews: CrewBests[] = [...perCrew.entries()]
    .map(([key, events]) => {
      const list = [...events.values()].map(({ effort, sessions }) => ({ ...best(effort), sessions })).sort(byBoatAndDistance);
      return { key, boatClass: list[0].boatClass, crew: list[0].crew, bests: list };
    })
    .sort((a, b) => (a.boatClass < b.boatClass ? -1 : a.boatClass > b.boatClass ? 1 : a.crew.join(", ").localeCompare(b.crew.join(", "))));

  // Leaderboard entries are boats: the athlete in a single, the crew in a crew boat; a boat enters a team's board when one of its paddlers is in the team.
  const perBoat = bestsBy(efforts, (e) => [crewKeyOf(e)]);
  const teams = new Map<number, { name: string; athletes: Set<number> }>();
  for (const m of rowsOf<{ teamId: number; teamName: string; athleteId: number }>(memberRows)) {
    const team = teams.get(Number(m.teamId)) ?? { name: m.teamName, athletes: new Set<number>() };
    team.athletes.add(Number(m.athleteId));
    teams.set(Number(m.teamId), team);
  }
  const leaderboards: Leaderboard[] = [];
  for (const [teamId, team] of teams) {
    const boards = new Map<string, { boatClass: string; distanceM: number; entries: (BestEffort & { rank: number; crewKey: string })[] }>();
    for (const [crewKey, events] of perBoat) {
      for (const { effort } of events.values()) {
        if (!effort.seats.some((s) => s.athleteId !== null && team.athletes.has(s.athleteId))) continue;
        const event = `${effort.boatClass}|${effort.distanceM}`;
        const board = boards.get(event) ?? { boatClass: effort.boatClass, distanceM: effort.distanceM, entries: [] };
        board.entries.push({ ...best(effort), rank: 0, crewKey });
        boards.set(event, board);
      }
    }
    if (!boards.size) continue;
    const order = new Map(efforts.map((e, i) => [e.resultId, i]));
    const sorted = [...boards.values()].sort(byBoatAndDistance);
    for (const board of sorted) {
      board.entries.sort((a, b) => a.durationMs - b.durationMs || order.get(a.resultId)! - order.get(b.resultId)!);
      board.entries.forEach(
        (entry, i) => (entry.rank = i > 0 && board.entries[i - 1].durationMs === entry.durationMs ? board.entries[i - 1].rank : i + 1),
      );
    }
    leaderboards.push({ teamId, teamName: team.name, boards: sorted });
  }
  return { athletes: athletesOut, crews, leaderboards };
}
