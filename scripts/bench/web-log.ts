/**
 * `npm run bench:web-log`: the data of the web app's sessions log (readLogPage:
 * one statement, the keyset page of session_access joined to the rows'
 * details; a second one checks an athlete filter) for a coach who sees 20,000
 * sessions: 16,000 they uploaded and 4,000 uploaded by a paddler of their team. p50/p95 over 200 runs of
 * the first and the last page of several sorts and filters, through the app's
 * own database client. Needs the local Postgres; creates its own database. No
 * server: this measures the query.
 */
import { sql } from "drizzle-orm";
import { openDb } from "../../server/db/client";
import { createAthlete } from "../../server/athletes/athletes";
import { createTrack } from "../../server/tracks/tracks";
import { createUser } from "../../server/users/users";
import { parseLogQuery, readLogPage, type LogQuery } from "../../server/sessions/session-log";
import { createFreshDatabase, fmt, measureLatency } from "./bench-kit";
import { seedManyResults } from "./seed-many-results";

const OWNED = Number(process.env.BENCH_OWNED ?? 16_000);
const OF_TEAM = Number(process.env.BENCH_TEAM ?? 4_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);

async function main() {
  const databaseUrl = await createFreshDatabase("svc_bench_web_log");
  const handle = openDb({ databaseUrl });
  await handle.migrate();
  const coach = await createUser(handle.db, { name: "Bench Coach", email: "coach@bench.example", password: "bench password 1" });
  const paddler = await createUser(handle.db, { name: "Bench Paddler", email: "paddler@bench.example", password: "bench password 1" });
  const track = await createTrack(handle.db, coach.id, { name: "Bench basin" });
  const river = await createTrack(handle.db, paddler.id, { name: "Bench river" });
  const managed = await createAthlete(handle.db, coach.id, { name: "Managed", surname: "Athlete" });
  const coached = await createAthlete(handle.db, paddler.id, { name: "Coached", surname: "Athlete" });
  // Other athletes of the coach, so the accessible set is a club's, not one.
  for (let k = 0; k < 30; k++) await createAthlete(handle.db, coach.id, { name: `Club ${k}`, surname: "Athlete" });
  await handle.db.execute(sql`with t as (insert into teams (name, owner_user_id) values ('Bench club', ${coach.id}) returning id)
    insert into team_memberships (team_id, role, user_id, athlete_id) select id, 'coach', ${coach.id}::int, null::int from t union all select id, 'athlete', null::int, ${coached.id}::int from t`);
  const t0 = performance.now();
  await seedManyResults(handle.db, { userId: coach.id, trackId: track.id, athleteId: managed.id, count: OWNED });
  await seedManyResults(handle.db, {
    userId: paddler.id,
    trackId: river.id,
    athleteId: coached.id,
    count: OF_TEAM,
    firstStartAt: "2020-01-01T09:00:00Z",
    stepMinutes: 600,
  });
  await handle.db.execute(sql`update results set important = true where id % 37 = 0`);
  // What autovacuum would have done by the time a coach has 20,000 sessions: statistics and the visibility map.
  for (const table of ["results", "result_crew", "session_access"]) await handle.db.execute(sql.raw(`vacuum (analyze) ${table}`));
  console.log(`seeded ${OWNED + OF_TEAM} sessions in ${fmt((performance.now() - t0) / 1000)} s`);
  await handle.close();

  // The app's own client (server/db/client.ts): its connection settings and prepared reads.
  const app = openDb({ databaseUrl, maxConnections: 4 });
  const db = app.db;
  const variants: Record<string, Partial<LogQuery>> = {
    "date, newest first": {},
    "distance, longest first": { sort: "distance" },
    "speed, fastest first": { sort: "speed" },
    "time, shortest first": { sort: "time", order: "asc" },
    "athlete (team paddler)": { athlete: coached.id },
    "boat class K1 + 2021": { boat: 1, from: "2021-01-01", to: "2021-12-31" },
    "competition text": { competition: "regatta 1" },
    "important only": { important: "1" },
  };
  const rows: string[] = [];
  try {
    for (const [label, variant] of Object.entries(variants)) {
      const q: LogQuery = { ...parseLogQuery({}), ...variant };
      // Walk to the last page once, counting pages; then time the first and the last.
      let cursor: string | undefined;
      let lastCursor: string | undefined;
      let pages = 0;
      let count = 0;
      const walkStart = performance.now();
      do {
        const page = await readLogPage(db, coach.id, { ...q, after: cursor });
        pages += 1;
        count += page.rows.length;
        lastCursor = cursor;
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      const walkSeconds = (performance.now() - walkStart) / 1000;
      const first = await measureLatency(async () => void (await readLogPage(db, coach.id, q)), RUNS);
      const last = await measureLatency(async () => void (await readLogPage(db, coach.id, { ...q, after: lastCursor })), RUNS);
      rows.push(
        `| ${label} | ${count} | ${pages} | ${fmt(first.p50, 2)} | ${fmt(first.p95, 2)} | ${fmt(last.p50, 2)} | ${fmt(last.p95, 2)} | ${fmt(walkSeconds, 1)} |`,
      );
      console.log(rows.at(-1));
    }
  } finally {
    await app.close();
  }
  console.log(`
| log query | sessions | pages (25 each) | first page p50 ms | first page p95 ms | last page p50 ms | last page p95 ms | whole walk s |
|---|---|---|---|---|---|---|---|
${rows.join("\n")}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
