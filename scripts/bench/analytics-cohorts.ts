/**
 * `npm run bench:analytics-cohorts`: the across-session analytics on 60,000
 * results (60 people × 1,000), on the local Postgres in a fresh database:
 * single-client p50/p95 of the domain functions behind
 * GET /analytics/benchmarks (over the whole table), /comparable-sessions and
 * /progression (over one person's 1,000). Each person's results carry their
 * own unit and a production key id, so that the benchmark cohort counts them.
 */
import { createAthlete } from "../../server/athletes/athletes";
import { benchmarkOf } from "../../server/analytics/benchmarks";
import { comparableSessions, progressionOf } from "../../server/analytics/cohorts";
import { openDb } from "../../server/db/client";
import { createTrack } from "../../server/tracks/tracks";
import { createUser } from "../../server/users/users";
import { sql } from "drizzle-orm";
import { createFreshDatabase, fmt, measureLatency } from "./bench-kit";
import { seedManyResults } from "./seed-many-results";

const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 60);
const PER_PERSON = Number(process.env.BENCH_RESULTS ?? 1_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);

async function main() {
  const databaseUrl = await createFreshDatabase("svc_bench_analytics");
  const handle = openDb({ databaseUrl });
  await handle.migrate();
  const db = handle.db;
  const t0 = performance.now();
  let first = { userId: 0 };
  for (let p = 0; p < PEOPLE; p++) {
    const user = await createUser(db, { name: `Bench ${p}`, email: `bench-${p}@bench.example`, password: "bench password 1" });
    const track = await createTrack(db, user.id, { name: `Basin ${p}` });
    const athlete = await createAthlete(db, user.id, { name: "Bench", surname: `Paddler ${p}`, subscriptionActiveUntil: "2099-12-31" });
    await seedManyResults(db, { userId: user.id, trackId: track.id, athleteId: athlete.id, count: PER_PERSON });
    // Recorded by the person's own unit under a production key (key id 1): what a benchmark cohort counts (docs/analytics.md).
    await db.execute(sql`
      with unit as (insert into devices (owner_user_id, hardware_model, serial) values (${user.id}, 2, ${`BENCH${p}`}) returning id)
      update results set device_id = (select id from unit), svc_key_id = 1 where owner_user_id = ${user.id}`);
    if (p === 0) first = { userId: user.id };
  }
  const [{ total }] = (await db.execute(sql`select count(*)::int as total from results`)) as unknown as { total: number }[];
  console.log(`seeded ${total} results in ${fmt((performance.now() - t0) / 1000)} s`);
  const audience = { subjectId: first.userId, surface: "data" as const, applicationId: 0 };
  const [{ id: sessionId }] = (await db.execute(
    sql`select id from results where owner_user_id = ${first.userId} and vessel_id = 1 and target_distance_m = 500 order by id limit 1`,
  )) as unknown as { id: number }[];

  const check = await benchmarkOf(db, audience, sessionId);
  if (check.kind !== "ok") throw new Error(check.reason);
  console.log(`benchmark of session ${sessionId}: ${check.people} people, faster than ${check.fasterThanPct} %`);
  const rows: [string, { p50: number; p95: number }][] = [
    [
      "GET /analytics/benchmarks (60 people, whole table)",
      await measureLatency(async () => void (await benchmarkOf(db, audience, sessionId)), REQUESTS),
    ],
    [
      "GET /analytics/comparable-sessions (limit 25)",
      await measureLatency(async () => void (await comparableSessions(db, audience, sessionId, 25)), REQUESTS),
    ],
    [
      "GET /analytics/progression (≤ 200 of ~333)",
      await measureLatency(async () => void (await progressionOf(db, audience, sessionId)), REQUESTS),
    ],
  ];
  console.log(`\n| operation (domain function, ${total} results) | p50 ms | p95 ms |\n|---|---:|---:|`);
  for (const [name, r] of rows) console.log(`| ${name} | ${fmt(r.p50)} | ${fmt(r.p95)} |`);
  await handle.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
