import { sql, type SQL } from "drizzle-orm";
import { athletes, results, teams, tracks } from "../db/schema";

/**
 * Who may see what (docs/access.md). Each function returns a SQL condition
 * on the named table, so lists, reads and the APIs all apply the same rule.
 */

/**
 * Ids of the athletes the user manages, is, or coaches in a team. Written as
 * an uncorrelated subquery so Postgres evaluates it once and hashes it,
 * instead of probing per row (GET /results over 20,000 rows: 52 ms → see
 * docs/benchmarks.md).
 */
function accessibleAthleteIds(userId: number): SQL {
  return sql`(select acc_a.id from athletes acc_a where acc_a.owner_user_id = ${userId} or acc_a.user_id = ${userId}
    union all
    select acc_m.athlete_id from team_memberships acc_c join team_memberships acc_m on acc_m.team_id = acc_c.team_id and acc_m.role = 'athlete'
    where acc_c.role = 'coach' and acc_c.user_id = ${userId})`;
}

/** Athletes the user manages, is, or coaches in a team. */
export function athleteAccessible(userId: number, athleteId: SQL | typeof athletes.id = athletes.id): SQL {
  return sql`(${athleteId} in ${accessibleAthleteIds(userId)})`;
}

/** Tracks the user owns, public tracks, and tracks shared with a team the user belongs to. */
export function trackAccessible(userId: number): SQL {
  return sql`(${tracks.ownerUserId} = ${userId} or ${tracks.isPublic} or exists (
    select 1 from track_team_shares acc_s where acc_s.track_id = ${tracks.id} and ${teamMember(userId, sql`acc_s.team_id`)}))`;
}

/** Results the user owns, or whose crew holds an athlete the user can access. */
export function resultAccessible(userId: number): SQL {
  return sql`(${results.ownerUserId} = ${userId} or ${results.id} in (
    select acc_rc.result_id from result_crew acc_rc where acc_rc.athlete_id in ${accessibleAthleteIds(userId)}))`;
}

/** Teams the user owns or belongs to (as coach, or through their own athlete record). */
export function teamAccessible(userId: number): SQL {
  return sql`(${teams.ownerUserId} = ${userId} or ${teamMember(userId, teams.id)})`;
}

function teamMember(userId: number, teamId: SQL | typeof teams.id): SQL {
  return sql`exists (select 1 from team_memberships acc_tm left join athletes acc_ta on acc_ta.id = acc_tm.athlete_id
    where acc_tm.team_id = ${teamId} and (acc_tm.user_id = ${userId} or acc_ta.user_id = ${userId}))`;
}

/**
 * Data API subject boundary: sessions the person owns or paddled in (an
 * athlete record linked to their account sits in the crew). That rule is
 * defined once, by the triggers that keep session_access (drizzle/0013), and
 * read here by the table's primary key.
 */
export function sessionOfSubject(userId: number): SQL {
  return sql`exists (select 1 from session_access sos where sos.user_id = ${userId} and sos.result_id = ${results.id})`;
}
