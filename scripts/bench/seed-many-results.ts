import { sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";

/**
 * Bulk rows for benchmarks: `count` processed results owned by `userId`, a
 * K1 or C1 effort every two hours from 2020 on (or every `stepMinutes` from
 * `firstStartAt`), each with one crew seat held by `athleteId`. Generated in
 * SQL so that 20,000 results take seconds, not minutes.
 */
export async function seedManyResults(
  db: Db,
  options: {
    userId: number;
    trackId: number;
    athleteId: number;
    count: number;
    strokesPerResult?: number;
    firstStartAt?: string;
    stepMinutes?: number;
  },
) {
  const { userId, trackId, athleteId, count } = options;
  const firstStartAt = options.firstStartAt ?? "2020-01-01T08:00:00Z";
  const stepMinutes = options.stepMinutes ?? 120;
  await db.execute(sql`
    insert into results (owner_user_id, track_id, vessel_id, category_id, pace_id, created_via, date, time_of_day, start_at, utc_offset_min,
      distance_m, duration_ms, target_distance_m, competition, description, status, software_version, hardware, hardware_model)
    select ${userId}, ${trackId}, case when g % 3 = 0 then 4 else 1 end, 1 + g % 7, 1 + g % 4, 'demo',
      (ts + interval '2 hours')::date, to_char(ts + interval '2 hours', 'HH24:MI:SS') || '+02:00', ts, 120,
      d, (d * 1000 / (4.2 + (g % 10) * 0.05))::int, d,
      case when g % 10 = 0 then 'Regatta ' || (g % 50) else '' end, 'bench ' || (g % 100), 'processed', '3.1.7', 'SVC Pro', 2
    from (select g, ${firstStartAt}::timestamptz + g * make_interval(mins => ${stepMinutes}) as ts, (array[200, 500, 1000])[1 + g % 3] as d
          from generate_series(1, ${count}) g) s`);
  await db.execute(sql`
    insert into result_crew (result_id, seat, athlete_id)
    select id, 1, ${athleteId} from results r where r.owner_user_id = ${userId}
      and not exists (select 1 from result_crew c where c.result_id = r.id)`);
  if (options.strokesPerResult) {
    await db.execute(sql`
      insert into result_strokes (result_id, stroke_index, catch_s, side, distance_m, filtered_speed_m_s, rate_spm, left_stroke_distance_m, right_stroke_distance_m,
        max_accel_x_m_s2, min_accel_x_m_s2, max_pitch_deg, max_roll_deg)
      select r.id, k, 30 + k * 0.5, case when k % 2 = 0 then 'left' else 'right' end, k * 2.3, 4.6, 118,
        case when k % 2 = 0 then 2.3 end, case when k % 2 = 1 then 2.3 end, 4.1, -3.2, 1.5, 6.0
      from results r cross join generate_series(0, ${options.strokesPerResult - 1}) k
      where r.owner_user_id = ${userId}`);
  }
  // One statement per call: PGlite (the e2e seed) refuses several in one.
  // session_access too: its triggers filled it, and a planner that takes it for empty walks the wrong plan.
  for (const table of ["results", "result_crew", "result_strokes", "session_access"]) await db.execute(sql.raw(`analyze ${table}`));
}
