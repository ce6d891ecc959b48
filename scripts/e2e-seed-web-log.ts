import { eq, sql } from "drizzle-orm";
import type { Db } from "../server/db/client";
import { users } from "../server/db/schema";
import { createAthlete } from "../server/athletes/athletes";
import { createTrack } from "../server/tracks/tracks";
import { createUser } from "../server/users/users";
import { WEB_LOG_WORLD } from "../e2e/web-log-world";
import { seedManyResults } from "./bench/seed-many-results";

/**
 * The sessions log's e2e world (e2e/web-log.spec.ts): a coach with 60
 * sessions they uploaded and a team paddler with 12 of their own, enough
 * for several pages. Idempotent: skipped when the coach exists.
 */
export async function seedWebLogWorld(db: Db) {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, WEB_LOG_WORLD.coach.email));
  if (existing) return;
  const coach = await createUser(db, WEB_LOG_WORLD.coach, { role: "coach" });
  const paddler = await createUser(db, WEB_LOG_WORLD.paddler, { role: "athlete" });
  const basin = await createTrack(db, coach.id, { name: WEB_LOG_WORLD.coachTrack });
  const river = await createTrack(db, paddler.id, { name: "Paddler river" });
  const managed = await createAthlete(db, coach.id, { name: WEB_LOG_WORLD.managedAthlete, surname: "Log" });
  const coached = await createAthlete(db, paddler.id, { name: WEB_LOG_WORLD.coachedAthlete, surname: "Log" });
  await db.execute(sql`with t as (insert into teams (name, owner_user_id) values ('Log club', ${coach.id}) returning id)
    insert into team_memberships (team_id, role, user_id, athlete_id) select id, 'coach', ${coach.id}::int, null::int from t union all select id, 'athlete', null::int, ${coached.id}::int from t`);
  await seedManyResults(db, {
    userId: coach.id,
    trackId: basin.id,
    athleteId: managed.id,
    count: WEB_LOG_WORLD.coachSessions,
    firstStartAt: "2026-01-05T07:00:00Z",
    stepMinutes: 12 * 60,
  });
  await seedManyResults(db, {
    userId: paddler.id,
    trackId: river.id,
    athleteId: coached.id,
    count: WEB_LOG_WORLD.paddlerSessions,
    firstStartAt: "2026-01-05T15:00:00Z",
    stepMinutes: 24 * 60,
  });
}
