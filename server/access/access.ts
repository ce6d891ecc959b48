import { sql, type SQL } from "drizzle-orm";
import { athletes, results, teams, tracks } from "../db/schema";

/**
 * Who may see what (docs/access.md). Each function returns a SQL condition
 * on the named table, so lists, reads and the APIs all apply the same rule.
 */

/**
 * Athletes the user manages, is, or coaches in a team. The rule is defined
 * once, in the database (the view athlete_viewers, drizzle/0015), which the
 * results' access list is built from too.
 */
export function athleteAccessible(userId: number, athleteId: SQL | typeof athletes.id = athletes.id): SQL {
  return sql`(${athleteId} in (select acc_v.athlete_id from athlete_viewers acc_v where acc_v.user_id = ${userId}))`;
}

/** Tracks the user owns, public tracks, and tracks shared with a team the user belongs to. */
export function trackAccessible(userId: number): SQL {
  return sql`(${tracks.ownerUserId} = ${userId} or ${tracks.isPublic} or exists (
    select 1 from track_team_shares acc_s where acc_s.track_id = ${tracks.id} and ${teamMember(userId, sql`acc_s.team_id`)}))`;
}

/**
 * Results the user owns, or whose crew holds an athlete the user can access.
 * Defined once, by the triggers that keep session_access (drizzle/0013 and
 * 0015), and read here by the table's primary key.
 */
export function resultAccessible(userId: number): SQL {
  return sql`exists (select 1 from session_access acc_sa where acc_sa.user_id = ${userId} and acc_sa.result_id = ${results.id})`;
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
  return sql`exists (select 1 from session_access sos where sos.user_id = ${userId} and sos.result_id = ${results.id} and sos.subject)`;
}
