/**
 * `npm run bench:data-api`: the OAuth Data API's GET /sessions and
 * GET /sessions/{id}/strokes for a subject with 20,000 sessions (issue #6):
 * single-client p50/p95, throughput under 16 concurrent clients (autocannon),
 * the ratio to the very same SQL run directly through postgres.js, and a walk
 * of every cursor page (is the last page as cheap as the first?). Needs a
 * built app (npm run build) and the local Postgres; creates its own database.
 *
 * The data: the subject owns 18,999 seeded sessions and paddled in 1,000 more
 * that a coach owns (their athlete record, managed by the coach, is linked to
 * their account and sits in every crew), plus one real upload used for
 * /strokes: a 5-minute K1 effort, the longest an upload may declare
 * (duration_ms ≤ 300,000), processed like any other (~600 strokes, derived
 * data). Two other accounts hold 20,000 sessions each, so the subject is not
 * the whole table.
 */
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { eq, sql } from "drizzle-orm";
import { openDb, type Db } from "../../server/db/client";
import * as schema from "../../server/db/schema";
import { athletes, results, resultStrokes } from "../../server/db/schema";
import { createApplication } from "../../server/applications/applications";
import { issueAccessToken } from "../../test/support/oauth-fixtures";
import { ZSessionsQuery } from "../../server/http/data-api/operations/sessions";
import type { KeysetPosition } from "../../server/contract/keyset";
import { PAGE_LIMIT_DEFAULT } from "../../server/http/data-api/pagination";
import { sessionsPageQuery } from "../../server/sessions/list-sessions";
import { strokesPageQuery } from "../../server/sessions/read-session";
import type { SessionAudience } from "../../server/sessions/session-boundary";
import { drainEmbeddedRuns } from "../../server/jobs/embedded-runner";
import { uploadResult } from "../../server/results/upload-result";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { simulateSession } from "../../server/svc/simulator/simulate";
import { createAthlete } from "../../server/athletes/athletes";
import { createTrack } from "../../server/tracks/tracks";
import { createUser } from "../../server/users/users";
import fs from "node:fs";
import { spawn } from "node:child_process";
import {
  autocannonRun,
  backendsCpuDelta,
  backendsCpuMs,
  benchPort,
  processTreeCpuMs,
  createFreshDatabase,
  fmt,
  measureLatency,
  measureThroughput,
  percentile,
  startServer,
  stopServer,
} from "./bench-kit";
import { seedManyResults } from "./seed-many-results";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 20_000);
const CREW_ONLY = Math.round(SESSIONS / 20);
const OTHER_ACCOUNTS = 2;
const OTHER_SESSIONS_EACH = Number(process.env.BENCH_OTHER_SESSIONS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const LATENCY_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const EXPLAIN = process.env.BENCH_EXPLAIN === "1";
const PORT = benchPort(3913);

interface Variant {
  label: string;
  path: "sessions" | "strokes";
  query: string;
  /** Start this many pages before the last page of the first walk (default sort, limit 50), through its cursor. */
  pagesBeforeEnd?: number;
  throughput?: boolean;
}

const VARIANTS: Variant[] = [
  { label: "/sessions default (date desc), limit 50", path: "sessions", query: "", throughput: true },
  { label: "/sessions sort=distance&order=asc", path: "sessions", query: "sort=distance&order=asc" },
  { label: "/sessions boat_class_id=4 + 2021", path: "sessions", query: "boat_class_id=4&date_from=2021-01-01&date_to=2021-12-31" },
  { label: "/sessions limit=100", path: "sessions", query: "limit=100" },
  { label: "/sessions default, 10th page from the end (cursor)", path: "sessions", query: "", pagesBeforeEnd: 10 },
  { label: "/sessions/{id}/strokes limit=100", path: "strokes", query: "limit=100", throughput: true },
];

const WALKS: { label: string; path: "sessions" | "strokes"; query: string }[] = [
  { label: "/sessions date desc, limit 50", path: "sessions", query: "limit=50" },
  { label: "/sessions date desc, limit 100", path: "sessions", query: "limit=100" },
  { label: "/sessions distance asc, limit 100", path: "sessions", query: "sort=distance&order=asc&limit=100" },
  { label: "/sessions/{id}/strokes, limit 100", path: "strokes", query: "limit=100" },
  { label: "/sessions/{id}/strokes, limit 20", path: "strokes", query: "limit=20" },
];

const limitOf = (query: string) => Number(new URLSearchParams(query).get("limit") ?? PAGE_LIMIT_DEFAULT);
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

async function seed(db: Db) {
  const subject = await createUser(db, { name: "Bench Paddler", email: "paddler@bench.example", password: "bench password 1" });
  const coach = await createUser(db, { name: "Bench Coach", email: "coach@bench.example", password: "bench password 1" });
  const subjectTrack = await createTrack(db, subject.id, { name: "Home basin" });
  const coachTrack = await createTrack(db, coach.id, { name: "Club basin" });
  // The subject's athlete record: managed by the coach, linked to the subject's own account.
  const self = await createAthlete(db, coach.id, { name: "Bench", surname: "Paddler", subscriptionActiveUntil: "2099-12-31" });
  await db.update(athletes).set({ userId: subject.id }).where(eq(athletes.id, self.id));

  const own = SESSIONS - CREW_ONLY - 1;
  // Own sessions every 2 hours from 2020 on; the coach's ones spread over the same span, an hour off.
  await seedManyResults(db, { userId: subject.id, trackId: subjectTrack.id, athleteId: self.id, count: own });
  await seedManyResults(db, {
    userId: coach.id,
    trackId: coachTrack.id,
    athleteId: self.id,
    count: CREW_ONLY,
    firstStartAt: "2020-01-01T09:00:00Z",
    stepMinutes: Math.floor((own * 120) / CREW_ONLY),
  });
  for (let i = 0; i < OTHER_ACCOUNTS; i++) {
    const other = await createUser(db, { name: `Other ${i}`, email: `other${i}@bench.example`, password: "bench password 1" });
    const track = await createTrack(db, other.id, { name: "Elsewhere" });
    const athlete = await createAthlete(db, other.id, { name: `Other ${i}`, subscriptionActiveUntil: "2099-12-31" });
    await seedManyResults(db, { userId: other.id, trackId: track.id, athleteId: athlete.id, count: OTHER_SESSIONS_EACH });
  }

  // One real session for /strokes: the longest effort an upload may declare (5 minutes), processed like any other.
  const keyring = loadKeyring({});
  const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", durationMs: 300_000, seed: 6, pace: "training" }).content, keyring));
  const metadata = JSON.stringify({
    duration_ms: 300_000,
    vessel_id: 1,
    track_id: subjectTrack.id,
    category_id: 1,
    pace_id: 2,
    athletes: [self.id],
  });
  const uploaded = await uploadResult(
    db,
    { user: subject, createdVia: "api", keyPairId: null, file: { filename: "long.svc", bytes }, metadata },
    { keyring },
  );
  await drainEmbeddedRuns(db, { retryBackoff: () => 0 }); // the replay job runs now, not inside the measurements
  await db.execute(sql`analyze`);
  // What autovacuum does after bulk inserts (Postgres ≥ 13 vacuums insert-only tables): index-only scans without heap fetches.
  await db.execute(sql`vacuum session_access`);

  const { application } = await createApplication(db, subject.id, {
    name: "Bench data app",
    surface: "data",
    clientType: "confidential",
    redirectUris: ["https://bench.example/callback"],
    embedOrigins: [],
    scopes: ["openid", "sessions:read"],
  });
  return { subject, applicationId: application.id, clientId: application.clientId, sessionId: uploaded.id };
}

async function main() {
  const databaseUrl = await createFreshDatabase("svc_bench_data_api");
  const dbName = new URL(databaseUrl).pathname.slice(1);
  const handle = openDb({ databaseUrl });
  await handle.migrate();
  const t0 = performance.now();
  const { subject, applicationId, clientId, sessionId } = await seed(handle.db);
  // Counted independently of the app's boundary condition: the walks must return exactly these.
  const [{ subjectSessions }] = await handle.db
    .select({ subjectSessions: sql<number>`count(*)::int` })
    .from(results)
    .where(
      sql`${results.ownerUserId} = ${subject.id} or exists (select 1 from result_crew c join athletes a on a.id = c.athlete_id where c.result_id = ${results.id} and a.user_id = ${subject.id})`,
    );
  const [{ strokes }] = await handle.db
    .select({ strokes: sql<number>`count(*)::int` })
    .from(resultStrokes)
    .where(eq(resultStrokes.resultId, sessionId));
  const [{ total }] = await handle.db.select({ total: sql<number>`count(*)::int` }).from(results);
  console.log(
    `seeded in ${fmt((performance.now() - t0) / 1000)} s: subject ${subjectSessions} sessions (of ${total}); session ${sessionId} has ${strokes} strokes`,
  );
  const { token } = await issueAccessToken(handle.db, {
    userId: subject.id,
    applicationId,
    clientId,
    scopes: ["openid", "sessions:read"],
    audience: `http://127.0.0.1:${PORT}/api/v1`,
    lifetimeSeconds: 6 * 3600,
  });
  await handle.close();

  const server = await startServer(databaseUrl, PORT);
  // Same connection settings as the app's client (server/db/client.ts).
  const direct = postgres(databaseUrl, { max: 16, onnotice: () => {}, connection: { jit: "off" } });
  const directDb = drizzle(direct, { schema }) as unknown as Db;
  const audience: SessionAudience = { subjectId: subject.id, surface: "data", applicationId };
  const headers = { authorization: `Bearer ${token}` };
  const base = `http://127.0.0.1:${PORT}/api/v1`;
  const urlOf = (path: "sessions" | "strokes", query: string, cursor: string | null) => {
    const params = new URLSearchParams(query);
    if (cursor) params.set("cursor", cursor);
    const qs = params.toString();
    return `${base}/${path === "sessions" ? "sessions" : `sessions/${sessionId}/strokes`}${qs ? `?${qs}` : ""}`;
  };

  /** The statement the server runs for this page (keysetPage asks for limit + 1 rows), unexecuted. */
  const statementOf = (path: "sessions" | "strokes", query: string, after: KeysetPosition | null) => {
    const params = Object.fromEntries(new URLSearchParams(query));
    const limit = limitOf(query);
    delete params.limit;
    if (path === "strokes") return strokesPageQuery(directDb, sessionId, after ? Number(after[0]) : null, limit + 1).toSQL();
    return sessionsPageQuery(directDb, audience, ZSessionsQuery.parse(params), after, limit + 1).toSQL();
  };
  const runStatement = (statement: { sql: string; params: unknown[] }) =>
    direct.unsafe(statement.sql, statement.params as never[]).values();
  /** The keyset position of a page's last row, as the server takes it (sessionPosition; strokes by index). */
  const positionOf = (path: "sessions" | "strokes", rows: unknown[][]): KeysetPosition => {
    const last = rows[rows.length - 1];
    // Session rows: id first, sortKey last (sessionColumns, then sortKey); stroke rows: index first.
    return path === "sessions" ? [last[last.length - 1] as string | number, last[0] as number] : [last[0] as number];
  };

  const walkRows: string[] = [];
  const tableRows: string[] = [];
  let floor = "not measured";
  const bareSqlOps = new Map<string, { url: string; sqlOps: number }>();
  const outsideRows: string[] = [];
  /** Of the first walk (default sort, limit 50): the cursor and the SQL position that start page n (index n - 1). */
  let mainCursors: (string | null)[] = [];
  let mainPositions: (KeysetPosition | null)[] = [];
  try {
    // 1. Walk every page through HTTP and through the bare SQL; the first pass of each warms up.
    for (const walk of WALKS) {
      const limit = limitOf(walk.query);
      let http: number[] = [];
      let sqlTimes: number[] = [];
      let cursors: (string | null)[] = [];
      let positions: (KeysetPosition | null)[] = [];
      let httpTotalMs = 0;
      for (let pass = 0; pass < 2; pass++) {
        http = [];
        cursors = [null];
        const seen = new Set<number>();
        const walkStart = performance.now();
        for (;;) {
          const url = urlOf(walk.path, walk.query, cursors[cursors.length - 1]);
          const t = performance.now();
          const response = await fetch(url, { headers });
          const body = await response.text();
          http.push(performance.now() - t);
          if (!response.ok) throw new Error(`${url}: ${response.status} ${body}`);
          const page = JSON.parse(body) as { data: { id?: number; index?: number }[]; meta: { next_cursor: string | null } };
          for (const item of page.data) seen.add(walk.path === "sessions" ? item.id! : item.index!);
          if (!page.meta.next_cursor) break;
          cursors.push(page.meta.next_cursor);
        }
        httpTotalMs = performance.now() - walkStart;
        const expected = walk.path === "sessions" ? subjectSessions : strokes;
        if (seen.size !== expected) throw new Error(`${walk.label}: walked ${seen.size} distinct items, expected ${expected}`);

        sqlTimes = [];
        positions = [null];
        for (;;) {
          const statement = statementOf(walk.path, walk.query, positions[positions.length - 1]);
          const t = performance.now();
          const rows = (await runStatement(statement)) as unknown as unknown[][];
          sqlTimes.push(performance.now() - t);
          if (rows.length <= limit) break;
          positions.push(positionOf(walk.path, rows.slice(0, limit)));
        }
        if (sqlTimes.length !== http.length) throw new Error(`${walk.label}: ${http.length} HTTP pages but ${sqlTimes.length} SQL pages`);
      }
      if (walk === WALKS[0]) [mainCursors, mainPositions] = [cursors, positions];
      const edge = Math.min(10, Math.floor(http.length / 4));
      const [httpFirst, httpLast] = [median(http.slice(0, edge)), median(http.slice(-edge))];
      const [sqlFirst, sqlLast] = [median(sqlTimes.slice(0, edge)), median(sqlTimes.slice(-edge))];
      walkRows.push(
        `| ${walk.label} | ${http.length} | ${edge} | ${fmt(httpFirst)} | ${fmt(httpLast)} | ${fmt(httpLast / httpFirst, 2)} | ${fmt(median(http))} | ${fmt(httpTotalMs / 1000, 2)} | ${fmt(sqlFirst, 2)} | ${fmt(sqlLast, 2)} | ${fmt(sqlLast / sqlFirst, 2)} |`,
      );
      console.log(walkRows.at(-1));
      if (EXPLAIN) {
        for (const [which, after] of [
          ["first", positions[0]],
          ["last", positions[positions.length - 1]],
        ] as const) {
          const statement = statementOf(walk.path, walk.query, after);
          const plan = await direct.unsafe(`explain (analyze, buffers) ${statement.sql}`, statement.params as never[]);
          console.log(`-- ${walk.label}, ${which} page\n${plan.map((r) => r["QUERY PLAN"]).join("\n")}`);
        }
      }
    }

    // 2. Single-client latency, and throughput of the main two, API and bare SQL.
    for (const variant of VARIANTS) {
      const pageIndex = variant.pagesBeforeEnd ? mainCursors.length - 1 - variant.pagesBeforeEnd : 0;
      const cursor = mainCursors[pageIndex];
      const after = mainPositions[pageIndex];
      if (variant.pagesBeforeEnd && (!cursor || !after)) throw new Error(`${variant.label}: the walk is too short`);
      const url = urlOf(variant.path, variant.query, cursor);
      const probe = await fetch(url, { headers });
      if (!probe.ok) throw new Error(`${url}: ${probe.status} ${await probe.text()}`);
      const items = ((await probe.json()) as { data: unknown[] }).data.length;
      const statement = statementOf(variant.path, variant.query, after);
      const sqlRows = (await runStatement(statement)).length;
      if (Math.min(sqlRows, limitOf(variant.query)) !== items) throw new Error(`${variant.label}: API ${items} items, SQL ${sqlRows} rows`);
      const runSql = async () => void (await runStatement(statement));

      const apiLatency = await measureLatency(async () => void (await (await fetch(url, { headers })).arrayBuffer()), LATENCY_REQUESTS);
      const sqlLatency = await measureLatency(runSql, LATENCY_REQUESTS);
      let load = "– | – | – | – | – | – | – | – | – |";
      if (variant.throughput) {
        // CPU per request of the server process tree and of the database's backends, API and bare SQL alike.
        const [server0, backends0] = [processTreeCpuMs(server.pid!), await backendsCpuMs(dbName)];
        const api = await autocannonRun(url, headers, 16, SECONDS);
        const [server1, backends1] = [processTreeCpuMs(server.pid!), await backendsCpuMs(dbName)];
        const sqlOps = await measureThroughput(runSql, 16, SECONDS);
        bareSqlOps.set(variant.label, { url, sqlOps });
        const backends2 = await backendsCpuMs(dbName);
        const runPrepared = async () => void (await direct.unsafe(statement.sql, statement.params as never[], { prepare: true }).values());
        const preparedOps = await measureThroughput(runPrepared, 16, SECONDS);
        const apiRequests = api.requestsPerSecond * SECONDS;
        load = `${fmt(api.requestsPerSecond, 0)} | ${fmt(api.p50)} / ${fmt(api.p97_5)} | ${fmt(sqlOps, 0)} | ${fmt(api.requestsPerSecond / sqlOps, 2)} | ${fmt(preparedOps, 0)} | ${fmt(api.requestsPerSecond / preparedOps, 2)} | ${fmt((server1 - server0) / apiRequests, 2)} | ${fmt(backendsCpuDelta(backends0, backends1) / apiRequests, 2)} | ${fmt(backendsCpuDelta(backends1, backends2) / (sqlOps * SECONDS), 2)} |`;
        const loadAverage = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
        console.log(`   (load average after: ${loadAverage})`);
      }
      tableRows.push(
        `| ${variant.label} | ${items} | ${fmt(apiLatency.p50)} | ${fmt(apiLatency.p95)} | ${fmt(sqlLatency.p50, 2)} | ${fmt(sqlLatency.p95, 2)} | ${fmt(apiLatency.p50 / sqlLatency.p50, 1)} | ${load}`,
      );
      console.log(tableRows.at(-1));
    }

    // 3. The floor: the cheapest request this server answers (GET /health: no credential, one
    // `select 1`), through the same Next.js pipeline. No operation can be served faster than this.
    const server0 = processTreeCpuMs(server.pid!);
    const health = await autocannonRun(`${base}/health`, {}, 16, SECONDS);
    floor = `GET /health (no credential, one \`select 1\`): ${fmt(health.requestsPerSecond, 0)} req/s with 16 connections, ${fmt((processTreeCpuMs(server.pid!) - server0) / (health.requestsPerSecond * SECONDS), 2)} ms server CPU per request.`;
    console.log(floor);

    // 4. The same two operations served outside Next.js' pipeline by a plain Node.js HTTP server
    // (scripts/bench/plain-http-server.ts): what that architecture would gain, against the same bare SQL.
    const plainPort = PORT + 1;
    const plain = spawn("npx", ["tsx", "scripts/bench/plain-http-server.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        PORT: String(plainPort),
        APP_URL: `http://127.0.0.1:${PORT}`,
        TRUST_PROXY: "1",
        DATA_API_RATE_LIMIT: "100000000",
        RESULTS_API_RATE_LIMIT: "100000000",
      },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
    });
    try {
      for (
        let i = 0;
        i < 120 &&
        !(await fetch(`http://127.0.0.1:${plainPort}/api/v1/sessions`, { headers })
          .then((r) => r.ok)
          .catch(() => false));
        i++
      )
        await new Promise((r) => setTimeout(r, 500));
      for (const [label, { url, sqlOps }] of bareSqlOps) {
        const plainUrl = url.replace(`:${PORT}/`, `:${plainPort}/`);
        await autocannonRun(plainUrl, headers, 16, 2); // warm-up
        const cpu0 = processTreeCpuMs(plain.pid!);
        const run = await autocannonRun(plainUrl, headers, 16, SECONDS);
        const cpuPerRequest = (processTreeCpuMs(plain.pid!) - cpu0) / (run.requestsPerSecond * SECONDS);
        outsideRows.push(
          `| ${label} | ${fmt(run.requestsPerSecond, 0)} | ${fmt(sqlOps, 0)} | ${fmt(run.requestsPerSecond / sqlOps, 2)} | ${fmt(cpuPerRequest, 2)} |`,
        );
        console.log(outsideRows.at(-1));
      }
    } finally {
      await stopServer(plain);
    }
  } finally {
    await direct.end();
    await stopServer(server);
  }
  console.log(`
Subject: ${subjectSessions} sessions (${CREW_ONLY} of them owned by a coach, the subject in the crew); ${total} sessions in the table. /strokes: session ${sessionId}, ${strokes} strokes.

| request | items | API p50 ms | API p95 ms | SQL p50 ms | SQL p95 ms | API/SQL p50 | API req/s (16 conn) | API p50 / p97.5 ms under load | SQL ops/s (16 conc) | API/SQL throughput | SQL ops/s prepared | API/prepared SQL | server CPU ms/req | backends CPU ms/req (API) | backends CPU ms/op (SQL) |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
${tableRows.join("\n")}

Floor of the server: ${floor}

The same operations outside Next.js' pipeline (a plain Node.js HTTP server, same declarations; not how the product is served):

| request | req/s (16 conn) | bare SQL ops/s (same run, above) | ratio | server CPU ms/req |
|---|---|---|---|---|
${outsideRows.join("\n")}

Walk of every page (second pass; each page's latency, first pages vs last pages):

| walk | pages | edge pages | API first ms (median) | API last ms (median) | last/first | API median, all pages | API whole walk s | SQL first ms | SQL last ms | last/first |
|---|---|---|---|---|---|---|---|---|---|---|
${walkRows.join("\n")}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
