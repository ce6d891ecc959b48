/**
 * `npm run bench:federation` (issue 29 §7): a database of more than two
 * million strokes in the proportions of the demo season, then what it costs
 * to keep and to read them — storage per stroke and per session (heap, TOAST,
 * indexes, btree depth), `GET /sessions/{id}/strokes` and
 * `GET /trainings/{id}/sets/{set_id}/strokes` pages through the real route
 * handlers in process (the API harness's dispatch, token and rate limit
 * included) and the same keyset statement through postgres.js with
 * EXPLAIN (ANALYZE, BUFFERS), cold-ish (never read since the load) and warm,
 * and the web session page's data load (loadViewerSession). Ends with the
 * projection to a federation (docs/scale.md). Not a test, never in CI.
 *
 * The data: the demo season seeded through the real upload and processing
 * paths (server/demo), whose sessions and trainings are then cloned in SQL:
 * BENCH_RACES race efforts (each a copy of a demo session: its row, derived
 * data, crew, strokes) and BENCH_TRAININGS 90-minute trainings of 5,000
 * strokes each (the demo training's row and derived data; 10 work sets of
 * 500 strokes cloned cyclically from a demo work set, 9 rests; every catch in
 * stroke_catches). Four race efforts per training, as in the demo season.
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { sql } from "drizzle-orm";
import { openDb, type Db } from "../../server/db/client";
import * as schema from "../../server/db/schema";
import { seedDemo } from "../../server/demo/seed-demo";
import { drainEmbeddedRuns } from "../../server/jobs/embedded-runner";
import { strokesPageQuery } from "../../server/sessions/read-session";
import { setStrokesPageQuery } from "../../server/trainings/training-reads";
import { loadViewerSession } from "../../server/health/viewer-session";
import { createOAuthApplication, issueToken, tokenScopesOfSurface } from "../../test/api/harness/credentials";
import { dispatch } from "../../test/api/harness/routes";
import { createFreshDatabase, fmt, measureLatency, percentile } from "./bench-kit";

const RACES = Number(process.env.BENCH_RACES ?? 1_600);
const TRAININGS = Number(process.env.BENCH_TRAININGS ?? 400);
const WORK_SETS = 10;
const SET_STROKES = 500;
const REPEATS = Number(process.env.BENCH_REQUESTS ?? 100);
const COLD_SAMPLES = Number(process.env.BENCH_COLD ?? 30);
const ORIGIN = "https://localhost:3000";

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)} load ${load()}] ${line}`);
const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>) => (await db.execute(query)) as unknown as T[];

async function seed(db: Db) {
  const id = randomUUID().slice(0, 8);
  const account = (role: string) => ({ email: `bench-${role}-${id}@bench.example`, password: "demo-paddler-2026", name: `Bench ${role}` });
  const { coachUserId } = await seedDemo(db, {
    accounts: { coach: account("coach"), athlete: account("athlete"), operator: account("operator") },
  });
  await drainEmbeddedRuns(db, { retryBackoff: () => 0 });
  log("demo season seeded");

  // Rows are inserted session by session, stroke by stroke, as uploads write them (a page's strokes share heap pages).
  // Race efforts: copies of the demo sessions, each an hour further back in time.
  await db.execute(sql`create table bench_race_map as
    select nextval(pg_get_serial_sequence('results', 'id'))::int as new_id, t.id as template_id, g
    from generate_series(1, ${RACES}) g
    join (select id, row_number() over (order by id) - 1 as n, count(*) over () as c from results where status = 'processed') t on t.n = g % t.c`);
  await db.execute(sql`insert into results (id, owner_user_id, device_id, svc_key_id, track_id, vessel_id, category_id, pace_id, created_via,
      created_by_application_id, date, time_of_day, start_at, utc_offset_min, distance_m, duration_ms, target_distance_m, target_duration_ms,
      competition, description, important, status, software_version, hardware, hardware_model, original_filename)
    select m.new_id, r.owner_user_id, r.device_id, r.svc_key_id, r.track_id, r.vessel_id, r.category_id, r.pace_id, r.created_via,
      r.created_by_application_id, (r.start_at - m.g * interval '1 hour')::date, r.time_of_day, r.start_at - m.g * interval '1 hour',
      r.utc_offset_min, r.distance_m, r.duration_ms, r.target_distance_m, r.target_duration_ms, r.competition, r.description, r.important,
      r.status, r.software_version, r.hardware, r.hardware_model, r.original_filename
    from bench_race_map m join results r on r.id = m.template_id`);
  await db.execute(sql`insert into result_derived (result_id, effort_start_s, effort_end_s, summary, data_quality, track, heart_rate, processing_core_version)
    select m.new_id, d.effort_start_s, d.effort_end_s, d.summary, d.data_quality, d.track, d.heart_rate, d.processing_core_version
    from bench_race_map m join result_derived d on d.result_id = m.template_id`);
  await db.execute(sql`insert into result_weather select m.new_id, w.wind_speed_m_s, w.wind_direction_deg, w.air_temperature_c, w.water_temperature_c
    from bench_race_map m join result_weather w on w.result_id = m.template_id`);
  await db.execute(sql`insert into result_crew (result_id, seat, athlete_id, external_name, external_surname, external_weight_kg)
    select m.new_id, c.seat, c.athlete_id, c.external_name, c.external_surname, c.external_weight_kg
    from bench_race_map m join result_crew c on c.result_id = m.template_id`);
  await db.execute(sql`insert into result_strokes
    select m.new_id, s.stroke_index, s.catch_s, s.side, s.distance_m, s.filtered_speed_m_s, s.rate_spm, s.stroke_distance_m,
      s.left_stroke_distance_m, s.right_stroke_distance_m, s.max_accel_x_m_s2, s.min_accel_x_m_s2, s.max_pitch_deg, s.max_roll_deg
    from bench_race_map m join result_strokes s on s.result_id = m.template_id
    order by m.new_id, s.stroke_index`);
  log(`${RACES} race efforts cloned`);

  // 90-minute trainings: a demo training's row and derived data, 10 × 500 work strokes, 9 rests.
  await db.execute(sql`create table bench_training_map as
    select nextval(pg_get_serial_sequence('trainings', 'id'))::int as new_id, t.id as template_id, g
    from generate_series(1, ${TRAININGS}) g
    join (select id, row_number() over (order by id) - 1 as n, count(*) over () as c from trainings where status = 'ready') t on t.n = g % t.c`);
  await db.execute(sql`insert into trainings (id, owner_user_id, athlete_id, device_id, vessel_id, track_id, title, notes, template_id, template_snapshot,
      sensitivity, created_via, status, processing_core_version, date, time_of_day, start_at, utc_offset_min, distance_m, duration_ms, work_set_count, processed_at)
    select m.new_id, t.owner_user_id, t.athlete_id, t.device_id, t.vessel_id, t.track_id, t.title, t.notes, t.template_id, t.template_snapshot,
      t.sensitivity, t.created_via, t.status, t.processing_core_version, (t.start_at - m.g * interval '1 day')::date, t.time_of_day,
      t.start_at - m.g * interval '1 day', t.utc_offset_min, 18000, 5400000, ${WORK_SETS}, now()
    from bench_training_map m join trainings t on t.id = m.template_id`);
  await db.execute(
    sql`insert into training_crew select m.new_id, c.seat, c.athlete_id from bench_training_map m join training_crew c on c.training_id = m.template_id`,
  );
  await db.execute(sql`insert into training_derived (training_id, effort_start_s, effort_end_s, summary, data_quality, track, template_match, detected_sets, stroke_catches)
    select m.new_id, 60, 5460, d.summary, d.data_quality, d.track, d.template_match, d.detected_sets,
      (select jsonb_agg(round((60 + k * 1.08 + m.g % 7 * 0.01)::numeric, 2)) from generate_series(0, ${WORK_SETS * SET_STROKES - 1}) k)
    from bench_training_map m join training_derived d on d.training_id = m.template_id`);
  // The template work set: the first work set with strokes of the training cloned from.
  await db.execute(sql`create table bench_set_template as
    select distinct on (s.training_id) s.training_id, s.id as set_id, s.summary, s.track, s.heart_rate,
      (select count(*) from training_set_strokes x where x.set_id = s.id)::int as n
    from training_sets s where s.kind = 'work' and exists (select 1 from training_set_strokes x where x.set_id = s.id)
    order by s.training_id, s.position`);
  await db.execute(sql`insert into training_sets (training_id, position, kind, start_s, end_s, distance_m, duration_ms, stroke_count, complete, summary, track, heart_rate)
    select m.new_id, p, case when p % 2 = 1 then 'work' else 'rest' end, 60 + (p - 1) * 284, 60 + p * 284,
      case when p % 2 = 1 then 1500 else 300 end, 284000, case when p % 2 = 1 then ${SET_STROKES} else 0 end, true,
      case when p % 2 = 1 then st.summary end, case when p % 2 = 1 then st.track end, case when p % 2 = 1 then st.heart_rate end
    from bench_training_map m join bench_set_template st on st.training_id = m.template_id
    cross join generate_series(1, ${WORK_SETS * 2 - 1}) p`);
  await db.execute(sql`insert into training_set_strokes
    select s.id, k, s.start_s + k * 0.55, x.side, x.distance_m + (k / st.n) * 1000, x.filtered_speed_m_s, x.rate_spm, x.stroke_distance_m,
      x.left_stroke_distance_m, x.right_stroke_distance_m, x.max_accel_x_m_s2, x.min_accel_x_m_s2, x.max_pitch_deg, x.max_roll_deg
    from bench_training_map m join bench_set_template st on st.training_id = m.template_id
    join training_sets s on s.training_id = m.new_id and s.kind = 'work'
    cross join generate_series(0, ${SET_STROKES - 1}) k
    join training_set_strokes x on x.set_id = st.set_id and x.stroke_index = k % st.n
    order by s.id, k`);
  log(`${TRAININGS} trainings of ${WORK_SETS * SET_STROKES} strokes generated`);
  for (const table of ["bench_race_map", "bench_training_map", "bench_set_template"]) await db.execute(sql.raw(`drop table ${table}`));
  // What autovacuum does after bulk inserts (Postgres ≥ 13 vacuums insert-only tables): statistics and the visibility map.
  await db.execute(sql`vacuum analyze`);
  return coachUserId!;
}

interface TableSize {
  table: string;
  rows: number;
  heap: number;
  toast: number;
  indexes: number;
  total: number;
}

const TABLES = [
  "result_strokes",
  "training_set_strokes",
  "results",
  "result_derived",
  "result_crew",
  "result_weather",
  "session_access",
  "trainings",
  "training_derived",
  "training_sets",
  "training_crew",
];

async function storage(db: Db): Promise<Map<string, TableSize>> {
  const sizes = new Map<string, TableSize>();
  for (const table of TABLES) {
    const [row] = await rowsOf<{ rows: number; heap: number; toast: number; indexes: number; total: number }>(
      db,
      sql.raw(`select (select count(*) from ${table})::float8 as rows, pg_relation_size('${table}')::float8 as heap,
        coalesce((select pg_total_relation_size(reltoastrelid) from pg_class where oid = '${table}'::regclass and reltoastrelid <> 0), 0)::float8 as toast,
        pg_indexes_size('${table}')::float8 as indexes, pg_total_relation_size('${table}')::float8 as total`),
    );
    sizes.set(table, { table, ...row });
  }
  return sizes;
}

async function btreeLevels(db: Db, index: string): Promise<number | null> {
  try {
    await db.execute(sql`create extension if not exists pageinspect`);
    const [row] = await rowsOf<{ level: number }>(db, sql`select level from bt_metap(${index})`);
    return Number(row.level) + 1; // levels above the leaves, plus the leaf level
  } catch {
    return null;
  }
}

const mb = (bytes: number) => fmt(bytes / 1048576, 1);

const p = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};

async function main() {
  const databaseUrl = await createFreshDatabase("svc_bench_federation");
  // The in-process route handlers read these through getEnv() on their first request.
  process.env.DATABASE_URL = databaseUrl;
  process.env.APP_URL ??= ORIGIN;
  process.env.DATA_API_RATE_LIMIT = "100000000";
  const handle = openDb({ databaseUrl });
  await handle.migrate();
  const db = handle.db;
  log(`database ${new URL(databaseUrl).pathname.slice(1)} migrated; seeding`);
  const t0 = performance.now();
  const coachId = await seed(db);
  log(`seeded in ${fmt((performance.now() - t0) / 1000)} s`);

  // Storage.
  const sizes = await storage(db);
  const s = (t: string) => sizes.get(t)!;
  console.log("\nStorage (bytes per row = total / rows; TOAST includes its index)");
  console.log("| table | rows | heap MB | TOAST MB | indexes MB | total MB | bytes/row |");
  console.log("|---|---|---|---|---|---|---|");
  for (const t of sizes.values())
    console.log(
      `| ${t.table} | ${t.rows} | ${mb(t.heap)} | ${mb(t.toast)} | ${mb(t.indexes)} | ${mb(t.total)} | ${fmt(t.total / Math.max(1, t.rows), 0)} |`,
    );
  const strokeRows = s("result_strokes").rows + s("training_set_strokes").rows;
  const strokeBytes = s("result_strokes").total + s("training_set_strokes").total;
  const perStroke = {
    heap: (s("result_strokes").heap + s("training_set_strokes").heap) / strokeRows,
    index: (s("result_strokes").indexes + s("training_set_strokes").indexes) / strokeRows,
    total: strokeBytes / strokeRows,
  };
  const raceRows = s("results").rows;
  const raceBytes = ["results", "result_derived", "result_crew", "result_weather", "session_access", "result_strokes"].reduce(
    (a, t) => a + s(t).total,
    0,
  );
  const trainingRows = s("trainings").rows;
  const trainingBytes = ["trainings", "training_derived", "training_sets", "training_crew", "training_set_strokes"].reduce(
    (a, t) => a + s(t).total,
    0,
  );
  const raceStrokesEach = s("result_strokes").rows / raceRows;
  const trainingStrokesEach = s("training_set_strokes").rows / trainingRows;
  console.log(
    `\nstrokes: ${strokeRows} (${s("result_strokes").rows} in ${raceRows} race efforts, ${fmt(raceStrokesEach, 0)} each; ` +
      `${s("training_set_strokes").rows} in ${trainingRows} trainings, ${fmt(trainingStrokesEach, 0)} each)`,
  );
  console.log(`per stroke: heap ${fmt(perStroke.heap, 1)} B, indexes ${fmt(perStroke.index, 1)} B, total ${fmt(perStroke.total, 1)} B`);
  console.log(
    `per race effort (row, derived, crew, weather, access, strokes): ${fmt(raceBytes / raceRows / 1024, 1)} KiB; ` +
      `per training (row, derived, sets, crew, strokes): ${fmt(trainingBytes / trainingRows / 1024, 1)} KiB`,
  );
  const [derivedSizes] = await rowsOf<{ race_track: number; training_track: number; catches: number; race_derived_row: number }>(
    db,
    sql`select (select avg(pg_column_size(track)) from result_derived)::float8 as race_track,
      (select avg(pg_column_size(track)) from training_derived)::float8 as training_track,
      (select avg(pg_column_size(stroke_catches)) from training_derived)::float8 as catches,
      (select avg(pg_column_size(d.*)) from result_derived d)::float8 as race_derived_row`,
  );
  console.log(
    `stored (compressed) sizes: race track ${fmt(derivedSizes.race_track / 1024, 1)} KiB, training track ${fmt(derivedSizes.training_track / 1024, 1)} KiB ` +
      `(the demo training's length, not 90 min), stroke_catches ${fmt(derivedSizes.catches / 1024, 1)} KiB`,
  );
  const depth = {
    result_strokes: await btreeLevels(db, "result_strokes_result_id_stroke_index_pk"),
    training_set_strokes: await btreeLevels(db, "training_set_strokes_set_id_stroke_index_pk"),
  };
  console.log(`btree levels (root to leaf): ${JSON.stringify(depth)}`);

  // Sessions to read: the longest and the shortest race effort, and a training's middle work set.
  const [big] = await rowsOf<{ id: number; n: number }>(
    db,
    sql`select result_id as id, count(*)::int as n from result_strokes group by result_id order by n desc, result_id desc limit 1`,
  );
  const [small] = await rowsOf<{ id: number; n: number }>(
    db,
    sql`select result_id as id, count(*)::int as n from result_strokes group by result_id order by n asc, result_id desc limit 1`,
  );
  const [set] = await rowsOf<{ training_id: number; set_id: number }>(
    db,
    sql`select training_id, id as set_id from training_sets where kind = 'work' and stroke_count = ${SET_STROKES} order by training_id desc, position limit 1 offset 4`,
  );

  const application = await createOAuthApplication(db, coachId, { surface: "data" });
  const { token } = await issueToken(db, {
    userId: coachId,
    application,
    scopes: tokenScopesOfSurface("data"),
    tokenLifetimeSeconds: 6 * 3600,
    grantLifetimeSeconds: 6 * 3600,
  });
  const get = async (path: string) => {
    const response = await dispatch(new Request(`${ORIGIN}/api/v1${path}`, { headers: { authorization: `Bearer ${token}` } }));
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as { data: unknown[]; meta: { next_cursor: string | null } };
  };
  const pagesOf = async (path: string) => {
    const cursors: (string | null)[] = [null];
    for (;;) {
      const cursor = cursors[cursors.length - 1];
      const page = await get(`${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      if (!page.meta.next_cursor) return cursors;
      cursors.push(page.meta.next_cursor);
    }
  };
  const pageUrl = (path: string, cursor: string | null) => `${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;

  // The same keyset statement through postgres.js (the app's connection settings).
  const direct = postgres(databaseUrl, { max: 4, onnotice: () => {}, connection: { jit: "off" } });
  const directDb = drizzle(direct, { schema }) as unknown as Db;

  console.log(`\nLatency, one client, ${REPEATS} requests each after 10 warm-up (limit=100; ms; load ${load()})`);
  console.log("| what | pages | page | route p50 | route p95 | SQL p50 | SQL p95 |");
  console.log("|---|---|---|---|---|---|---|");
  const targets = [
    {
      label: `/sessions/{id}/strokes, longest race (${big.n} strokes)`,
      path: `/sessions/${big.id}/strokes`,
      sessionId: big.id,
      setId: null,
    },
    {
      label: `/sessions/{id}/strokes, shortest race (${small.n} strokes)`,
      path: `/sessions/${small.id}/strokes`,
      sessionId: small.id,
      setId: null,
    },
    {
      label: `/trainings/{id}/sets/{set_id}/strokes (${SET_STROKES} strokes)`,
      path: `/trainings/${set.training_id}/sets/${set.set_id}/strokes`,
      sessionId: null,
      setId: set.set_id,
    },
  ];
  const warm: Record<string, number> = {};
  for (const target of targets) {
    const cursors = await pagesOf(target.path);
    const which = [...new Set([0, Math.floor((cursors.length - 1) / 2), cursors.length - 1])];
    for (const index of which) {
      const route = await measureLatency(() => get(pageUrl(target.path, cursors[index])), REPEATS);
      const after = index === 0 ? null : index * 100 - 1;
      const statement = await measureLatency(
        () =>
          target.sessionId !== null
            ? strokesPageQuery(directDb, target.sessionId, after, 101)
            : setStrokesPageQuery(directDb, target.setId!, after, 101),
        REPEATS,
      );
      const name = index === 0 ? "first" : index === cursors.length - 1 ? "last" : "middle";
      warm[`${target.sessionId === big.id ? "big" : target.sessionId === small.id ? "small" : "set"}-${name}`] = route.p95;
      console.log(
        `| ${target.label} | ${cursors.length} | ${name} | ${fmt(route.p50)} | ${fmt(route.p95)} | ${fmt(statement.p50, 2)} | ${fmt(statement.p95, 2)} |`,
      );
    }
  }

  // Cold-ish: the first read of sessions never read since the load (shared_buffers is 128 MB here, the strokes several times that;
  // the OS page cache may still hold their pages, so a "read" below is a miss of Postgres' buffers, not necessarily of the disk).
  const coldRaces = await rowsOf<{ id: number }>(
    db,
    sql`select id from results where id <> ${big.id} and id <> ${small.id} order by random() limit ${COLD_SAMPLES * 2}`,
  );
  const coldSets = await rowsOf<{ training_id: number; id: number }>(
    db,
    sql`select training_id, id from training_sets where kind = 'work' and training_id <> ${set.training_id} order by random() limit ${COLD_SAMPLES * 2}`,
  );
  const explainReads = async (statement: ReturnType<typeof sql>) => {
    const [row] = await rowsOf<{
      "QUERY PLAN": [{ Plan: { "Shared Hit Blocks": number; "Shared Read Blocks": number }; "Execution Time": number }];
    }>(db, sql`explain (analyze, buffers, format json) ${statement}`);
    const plan = row["QUERY PLAN"][0];
    return { ms: plan["Execution Time"], hit: plan.Plan["Shared Hit Blocks"], read: plan.Plan["Shared Read Blocks"] };
  };
  const coldRoute: number[] = [];
  const coldSql: { ms: number; hit: number; read: number }[] = [];
  for (const [i, { id }] of coldRaces.entries()) {
    if (i % 2 === 0) {
      const t = performance.now();
      await get(`/sessions/${id}/strokes?limit=100`);
      coldRoute.push(performance.now() - t);
    } else coldSql.push(await explainReads(sql`select * from result_strokes where result_id = ${id} order by stroke_index limit 101`));
  }
  const coldSetRoute: number[] = [];
  const coldSetSql: { ms: number; hit: number; read: number }[] = [];
  for (const [i, row] of coldSets.entries()) {
    if (i % 2 === 0) {
      const t = performance.now();
      await get(`/trainings/${row.training_id}/sets/${row.id}/strokes?limit=100`);
      coldSetRoute.push(performance.now() - t);
    } else
      coldSetSql.push(
        await explainReads(
          sql`select * from training_set_strokes where set_id = ${row.id} and stroke_index > 199 order by stroke_index limit 101`,
        ),
      );
  }
  const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  console.log(`\nCold-ish first reads (${COLD_SAMPLES} sessions each, never read since the load; load ${load()})`);
  console.log("| what | route p50 | route p95 | SQL p50 | SQL p95 | buffers hit / read per page (mean) |");
  console.log("|---|---|---|---|---|---|");
  const cr = p(coldRoute);
  const cs = p(coldSql.map((x) => x.ms));
  console.log(
    `| race /strokes first page | ${fmt(cr.p50)} | ${fmt(cr.p95)} | ${fmt(cs.p50, 2)} | ${fmt(cs.p95, 2)} | ${fmt(avg(coldSql.map((x) => x.hit)))} / ${fmt(avg(coldSql.map((x) => x.read)))} |`,
  );
  const sr = p(coldSetRoute);
  const ss = p(coldSetSql.map((x) => x.ms));
  console.log(
    `| training set strokes (route: first page; SQL: 3rd page) | ${fmt(sr.p50)} | ${fmt(sr.p95)} | ${fmt(ss.p50, 2)} | ${fmt(ss.p95, 2)} | ${fmt(avg(coldSetSql.map((x) => x.hit)))} / ${fmt(avg(coldSetSql.map((x) => x.read)))} |`,
  );
  const readsPerPage = Math.max(avg(coldSql.map((x) => x.hit + x.read)), avg(coldSetSql.map((x) => x.hit + x.read)));

  // The web session page's data (app/(web)/sessions/[id]/load-session-view.ts → loadViewerSession).
  console.log(`\nWeb session page data load, loadViewerSession (ms; load ${load()})`);
  console.log("| session | p50 | p95 |");
  console.log("|---|---|---|");
  for (const [label, id] of [
    [`longest race (${big.n} strokes)`, big.id],
    [`shortest race (${small.n} strokes)`, small.id],
  ] as const) {
    const r = await measureLatency(() => loadViewerSession(db, coachId, id), Math.min(REPEATS, 50));
    console.log(`| ${label} | ${fmt(r.p50)} | ${fmt(r.p95)} |`);
  }

  // Projection: 50,000 athletes × 250 sessions a year × 5 years, in the bench's mix (4 race efforts per training) and all trainings.
  const sessions = 50_000 * 250 * 5;
  const days = 5 * 365;
  const trainingShare = TRAININGS / (TRAININGS + RACES);
  const tib = (bytes: number) => `${fmt(bytes / 1024 ** 4, 2)} TiB`;
  const gib = (bytes: number) => `${fmt(bytes / 1024 ** 3, 1)} GiB`;
  // The measured leaf fan-out (8 KiB pages / index bytes per stroke) for every level: internal entries are the same two int4 keys.
  const fanOut = 8192 / perStroke.index;
  console.log(`\nProjection: 50,000 athletes × 250 sessions/year × 5 years = ${sessions.toLocaleString("en")} sessions`);
  console.log(
    "| mix | strokes | strokes heap + index | of which index | btree levels | internal levels | everything else | new strokes a day |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [label, share] of [
    [
      `${fmt(trainingShare * 100, 0)} % trainings of ${fmt(trainingStrokesEach, 0)} strokes, the rest race efforts of ${fmt(raceStrokesEach, 0)}`,
      trainingShare,
    ],
    [`every session a training of ${fmt(trainingStrokesEach, 0)} strokes`, 1],
  ] as const) {
    const projectedTrainings = sessions * share;
    const projectedRaces = sessions - projectedTrainings;
    const strokes = projectedRaces * raceStrokesEach + projectedTrainings * trainingStrokesEach;
    const other =
      projectedRaces * ((raceBytes - s("result_strokes").total) / raceRows) +
      projectedTrainings * ((trainingBytes - s("training_set_strokes").total) / trainingRows);
    let pages = (strokes * perStroke.index) / 8192;
    let levels = 1;
    let internal = 0;
    while (pages > 1) {
      pages = Math.ceil(pages / fanOut);
      internal += pages * 8192;
      levels++;
    }
    console.log(
      `| ${label} | ${fmt(strokes / 1e9, 1)} billion | ${tib(strokes * perStroke.total)} | ${tib(strokes * perStroke.index)} | ${levels} | ${gib(internal)} | ${tib(other)} | ${gib((strokes * perStroke.total) / days)} |`,
    );
  }
  console.log(
    `a cold page: ${fmt(readsPerPage, 1)} buffers measured; with the internal levels cached, a leaf and 1–2 heap pages miss: ` +
      "3 reads × 0.1 ms (local NVMe) = 0.3 ms, × 1 ms (network block storage) = 3 ms, × 5 ms (a saturated volume) = 15 ms",
  );
  console.log(
    `warm route p95 (this machine, load ${load()}): ${JSON.stringify(Object.fromEntries(Object.entries(warm).map(([k, v]) => [k, Number(fmt(v))])))}`,
  );

  await direct.end();
  await handle.close();
  const { getDbHandle } = await import("../../server/db/client");
  await getDbHandle().close();
  log("done");
}

await main();
