import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { plannedWorkouts } from "../db/schema";

/**
 * Who sees and changes a planned workout (docs/plans.md "Access"), as SQL
 * conditions on planned_workouts, like server/access/access.ts:
 * - sees: anyone who may see one of the plan's athletes (athlete_viewers:
 *   the athlete's own account, their manager, their teams' coaches); a team
 *   plan, the team's owner, coaches and athletes (through their account).
 * - changes: an athlete or crew plan, whoever may see every athlete in it;
 *   a team plan, the team's owner and coaches.
 * Anything else is the same not-found as an absent plan.
 */
export function planVisible(userId: number, plan: SQL | typeof plannedWorkouts.id = plannedWorkouts.id): SQL {
  return sql`(exists (select 1 from planned_workout_athletes pv_a where pv_a.plan_id = ${plan}
      and pv_a.athlete_id in (select pv_v.athlete_id from athlete_viewers pv_v where pv_v.user_id = ${userId}))
    or exists (select 1 from planned_workouts pv_p join teams pv_t on pv_t.id = pv_p.team_id where pv_p.id = ${plan} and (pv_t.owner_user_id = ${userId}
      or exists (select 1 from team_memberships pv_m left join athletes pv_ma on pv_ma.id = pv_m.athlete_id
        where pv_m.team_id = pv_t.id and (pv_m.user_id = ${userId} or pv_ma.user_id = ${userId})))))`;
}

export function planEditable(userId: number, plan: SQL | typeof plannedWorkouts.id = plannedWorkouts.id): SQL {
  return sql`(exists (select 1 from planned_workouts pe_p where pe_p.id = ${plan} and (
      (pe_p.team_id is null and exists (select 1 from planned_workout_athletes pe_a where pe_a.plan_id = pe_p.id)
        and not exists (select 1 from planned_workout_athletes pe_a where pe_a.plan_id = pe_p.id
          and pe_a.athlete_id not in (select pe_v.athlete_id from athlete_viewers pe_v where pe_v.user_id = ${userId})))
      or exists (select 1 from teams pe_t where pe_t.id = pe_p.team_id and (pe_t.owner_user_id = ${userId}
        or exists (select 1 from team_memberships pe_m where pe_m.team_id = pe_t.id and pe_m.role = 'coach' and pe_m.user_id = ${userId}))))))`;
}

/** The athletes a plan is for: its named athletes, or a team plan's athletes now. */
export function planPeople(plan: SQL | typeof plannedWorkouts.id = plannedWorkouts.id): SQL {
  return sql`(select pp_a.athlete_id from planned_workout_athletes pp_a where pp_a.plan_id = ${plan}
    union select pp_m.athlete_id from team_memberships pp_m join planned_workouts pp_p on pp_p.team_id = pp_m.team_id
      where pp_p.id = ${plan} and pp_m.role = 'athlete')`;
}

/** Rows of a raw query (node-postgres answers { rows }, PGlite an array-like). */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as T[];
}

/** Whether the user may plan for every one of these athletes (athlete_viewers). */
export async function mayPlanFor(db: Db, userId: number, athleteIds: number[]): Promise<boolean> {
  if (!athleteIds.length) return false;
  const rows = rowsOf<{ n: number }>(
    await db.execute(sql`select count(distinct athlete_id)::int as n from athlete_viewers
      where user_id = ${userId} and athlete_id in (${sql.join(
        athleteIds.map((id) => sql`${id}`),
        sql`, `,
      )})`),
  );
  return Number(rows[0]?.n ?? 0) === new Set(athleteIds).size;
}

/** Whether the user owns or coaches the team. */
export async function mayPlanForTeam(db: Db, userId: number, teamId: number): Promise<boolean> {
  const rows = rowsOf<{ ok: boolean }>(
    await db.execute(sql`select exists (select 1 from teams t where t.id = ${teamId} and (t.owner_user_id = ${userId}
      or exists (select 1 from team_memberships m where m.team_id = t.id and m.role = 'coach' and m.user_id = ${userId}))) as ok`),
  );
  return !!rows[0]?.ok;
}
