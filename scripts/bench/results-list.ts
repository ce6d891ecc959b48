/**
 * `npm run bench:results-list`: GET /results for a user with 20,000 results,
 * with filters and sorts: single-client p50/p95, throughput under 16
 * concurrent clients (autocannon), and the same SQL run directly through
 * postgres.js, as a ratio. Needs a built app (npm run build) and the local
 * Postgres; creates and drops its own database.
 */
import fs from "node:fs";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { sql } from "drizzle-orm";
import { openDb, type Db } from "../../server/db/client";
import * as schema from "../../server/db/schema";
import { createKeyPair } from "../../server/keys/key-pairs";
import { ZResultsQuery } from "../../server/http/results-api/contract";
import { offsetOf } from "../../server/http/results-api/pagination";
import { resultsPageQueries } from "../../server/results/query-results";
import { createAthlete } from "../../server/athletes/athletes";
import { createTrack } from "../../server/tracks/tracks";
import { createUser } from "../../server/users/users";
import {
  autocannonRun,
  benchPort,
  createFreshDatabase,
  fmt,
  measureLatency,
  measureThroughput,
  startServer,
  stopServer,
} from "./bench-kit";
import { seedManyResults } from "./seed-many-results";

const COUNT = Number(process.env.BENCH_RESULTS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PORT = benchPort(3911);

const VARIANTS: Record<string, string> = {
  "default (date desc)": "",
  "sort=dist&order=asc": "sort=dist&order=asc",
  "vessel + date range": "vessel_id=1&start_date=2021-01-01&end_date=2021-12-31",
  "competition partial, sort=time": "competition=regatta&sort=time",
  "athlete_id + page 200": "athlete_id=ATHLETE&page=200",
};

async function main() {
  const databaseUrl = await createFreshDatabase("svc_bench_results");
  const handle = openDb({ databaseUrl });
  await handle.migrate();
  const user = await createUser(handle.db, { name: "Bench Coach", email: "bench@bench.example", password: "bench password 1" });
  const track = await createTrack(handle.db, user.id, { name: "Bench basin" });
  const athlete = await createAthlete(handle.db, user.id, { name: "Bench", surname: "Athlete", subscriptionActiveUntil: "2099-12-31" });
  const t0 = performance.now();
  await seedManyResults(handle.db, { userId: user.id, trackId: track.id, athleteId: athlete.id, count: COUNT });
  console.log(`seeded ${COUNT} results in ${fmt((performance.now() - t0) / 1000)} s`);
  const { keyPair, secretKey } = await createKeyPair(handle.db, user.id, { name: "bench" });
  // What autovacuum does after bulk inserts (Postgres ≥ 13 vacuums insert-only tables): the visibility map lets the total be an index-only count.
  await handle.db.execute(sql`vacuum (analyze) session_access`);
  await handle.close();

  const server = await startServer(databaseUrl, PORT);
  // Same connection settings as the app's client (server/db/client.ts).
  const direct = postgres(databaseUrl, { max: 16, onnotice: () => {}, connection: { jit: "off" } });
  const directDb = drizzle(direct, { schema }) as unknown as Db;
  const headers = { authorization: `Bearer ${keyPair.publicKey}.${secretKey}` };
  const rows: string[] = [];
  try {
    for (const [label, rawQuery] of Object.entries(VARIANTS)) {
      const query = rawQuery.replace("ATHLETE", String(athlete.id));
      const url = `http://127.0.0.1:${PORT}/api/v1/results${query ? `?${query}` : ""}`;
      const probe = await fetch(url, { headers });
      if (!probe.ok) throw new Error(`${url}: ${probe.status} ${await probe.text()}`);
      const { pagination } = await probe.json();

      const parsed = ZResultsQuery.parse(Object.fromEntries(new URLSearchParams(query)));
      const statements = resultsPageQueries(directDb, user.id, parsed, parsed.per_page, offsetOf(parsed));
      const [rowsSql, totalSql] = [statements.rows.toSQL(), statements.total.toSQL()];
      const runSql = async () => {
        await Promise.all([direct.unsafe(rowsSql.sql, rowsSql.params as never[]), direct.unsafe(totalSql.sql, totalSql.params as never[])]);
      };

      const apiLatency = await measureLatency(async () => void (await (await fetch(url, { headers })).arrayBuffer()), 200);
      const sqlLatency = await measureLatency(runSql, 200);
      const api = await autocannonRun(url, headers, 16, SECONDS);
      const sqlRps = await measureThroughput(runSql, 16, SECONDS);
      rows.push(
        `| ${label} | ${pagination.total} | ${fmt(apiLatency.p50)} | ${fmt(apiLatency.p95)} | ${fmt(api.requestsPerSecond, 0)} | ${fmt(api.p50)} / ${fmt(api.p97_5)} | ${fmt(sqlLatency.p50, 2)} | ${fmt(sqlLatency.p95, 2)} | ${fmt(sqlRps, 0)} | ${fmt(api.requestsPerSecond / sqlRps, 2)} |`,
      );
      console.log(rows.at(-1), `(load average ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")})`);
    }
  } finally {
    await direct.end();
    await stopServer(server);
  }
  console.log(`
| query | matches | API p50 ms | API p95 ms | API req/s (16 conn) | API p50 / p97.5 ms under load | SQL p50 ms | SQL p95 ms | SQL ops/s (16 conc) | API/SQL throughput |
|---|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
