/**
 * `npm run bench:per-request`: the fixed work of one API request, measured
 * in the process without HTTP, so that a loaded machine does not hide it.
 * For each request it runs the operation's real route handler (the kernel:
 * admission, checks, handler, serializer) sequentially and reports
 *
 * - statements sent to Postgres per request (counted by the client; the
 *   log lists them),
 * - CPU time of this process per request (process.cpuUsage: our code,
 *   drizzle, zod, JSON; Next.js routing is not included),
 * - wall time p50 per request.
 *
 * Needs the local Postgres; creates its own small database (BENCH_DB_SUFFIX
 * keeps parallel runs apart). The data: 2,000 sessions of one person plus a
 * 5-minute upload (for /strokes), a results API key pair, a Data API token.
 */
import { sql } from "drizzle-orm";
import { createFreshDatabase, fmt, percentile } from "./bench-kit";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const PORT = 3999;

async function main() {
  const databaseUrl = await createFreshDatabase("svc_bench_per_request");
  // The app's handle is opened by getDb() from these on first use; set them before any import reads the environment.
  process.env.DATABASE_URL = databaseUrl;
  process.env.APP_URL = `http://127.0.0.1:${PORT}`;
  process.env.DATA_API_RATE_LIMIT = "100000000";
  process.env.RESULTS_API_RATE_LIMIT = "100000000";

  const { openDb } = await import("../../server/db/client");
  const statements: string[] = [];
  const handle = openDb({ databaseUrl, onStatement: (query) => statements.push(query) });
  await handle.migrate();
  (globalThis as Record<symbol, unknown>)[Symbol.for("svc-results.db")] = handle;
  const db = handle.db;

  const { createUser } = await import("../../server/users/users");
  const { createTrack } = await import("../../server/tracks/tracks");
  const { createAthlete } = await import("../../server/athletes/athletes");
  const { createApplication } = await import("../../server/applications/applications");
  const { issueAccessToken } = await import("../../test/support/oauth-fixtures");
  const { createKeyPair } = await import("../../server/keys/key-pairs");
  const { uploadResult } = await import("../../server/results/upload-result");
  const { encodeSvc } = await import("../../server/svc/container");
  const { loadKeyring } = await import("../../server/svc/keyring");
  const { simulateSession } = await import("../../server/svc/simulator/simulate");
  const { drainEmbeddedRuns } = await import("../../server/jobs/embedded-runner");
  const { seedManyResults } = await import("./seed-many-results");
  const { listSessions, listSessionStrokes, getSession } = await import("../../server/http/data-api/operations/sessions");
  const { listResults } = await import("../../server/http/results-api/operations/results");

  const user = await createUser(db, { name: "Bench Paddler", email: "paddler@bench.example", password: "bench password 1" });
  const track = await createTrack(db, user.id, { name: "Home basin" });
  const athlete = await createAthlete(db, user.id, { name: "Bench", surname: "Paddler", subscriptionActiveUntil: "2099-12-31" });
  await seedManyResults(db, { userId: user.id, trackId: track.id, athleteId: athlete.id, count: 2_000 });
  const bytes = Buffer.from(
    encodeSvc(simulateSession({ vessel: "K1", durationMs: 300_000, seed: 6, pace: "training" }).content, loadKeyring({})),
  );
  const metadata = JSON.stringify({
    duration_ms: 300_000,
    vessel_id: 1,
    track_id: track.id,
    category_id: 1,
    pace_id: 2,
    athletes: [athlete.id],
  });
  const uploaded = await uploadResult(
    db,
    { user, createdVia: "api", keyPairId: null, file: { filename: "long.svc", bytes }, metadata },
    { keyring: loadKeyring({}) },
  );
  await drainEmbeddedRuns(db, { retryBackoff: () => 0 });
  await db.execute(sql`analyze`);
  const { application } = await createApplication(db, user.id, {
    name: "Bench data app",
    surface: "data",
    clientType: "confidential",
    redirectUris: ["https://bench.example/callback"],
    embedOrigins: [],
    scopes: ["openid", "sessions:read"],
  });
  const { token } = await issueAccessToken(db, {
    userId: user.id,
    applicationId: application.id,
    clientId: application.clientId,
    scopes: ["openid", "sessions:read"],
    audience: `http://127.0.0.1:${PORT}/api/v1`,
    lifetimeSeconds: 3600,
  });
  const { keyPair, secretKey } = await createKeyPair(db, user.id, { name: "bench" });

  const base = `http://127.0.0.1:${PORT}/api/v1`;
  const bearer = { authorization: `Bearer ${token}` };
  const keyAuth = { authorization: `Bearer ${keyPair.publicKey}.${secretKey}` };
  const requests: {
    label: string;
    op: { handle: (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response> };
    url: string;
    headers: Record<string, string>;
    params: Record<string, string>;
  }[] = [
    { label: "Data API GET /sessions (limit 50)", op: listSessions, url: `${base}/sessions`, headers: bearer, params: {} },
    {
      label: "Data API GET /sessions/{id}/strokes?limit=100",
      op: listSessionStrokes,
      url: `${base}/sessions/${uploaded.id}/strokes?limit=100`,
      headers: bearer,
      params: { session_id: String(uploaded.id) },
    },
    {
      label: "Data API GET /sessions/{id}",
      op: getSession,
      url: `${base}/sessions/${uploaded.id}`,
      headers: bearer,
      params: { session_id: String(uploaded.id) },
    },
    { label: "results API GET /results (per_page 10)", op: listResults, url: `${base}/results`, headers: keyAuth, params: {} },
  ];

  const lines: string[] = [];
  // BENCH_ONLY=<substring of a label>: one request (for a --cpu-prof profile).
  for (const r of requests.filter((q) => !process.env.BENCH_ONLY || q.label.includes(process.env.BENCH_ONLY))) {
    const call = async () => {
      const response = await r.op.handle(new Request(r.url, { headers: r.headers }), { params: Promise.resolve(r.params) });
      if (response.status !== 200) throw new Error(`${r.label}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    };
    for (let i = 0; i < 30; i++) await call(); // warm-up: JIT, the credential cache, the pool
    // What one request sends, for the log.
    statements.length = 0;
    await call();
    const sent = statements.map((q) => q.replace(/\s+/g, " ").slice(0, 90));
    statements.length = 0;
    const wall: number[] = [];
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < REQUESTS; i++) {
      const t = performance.now();
      await call();
      wall.push(performance.now() - t);
    }
    const cpu = process.cpuUsage(cpu0);
    const counted = statements.length / REQUESTS;
    wall.sort((a, b) => a - b);
    lines.push(
      `| ${r.label} | ${fmt(counted, 2)} | ${fmt((cpu.user + cpu.system) / 1000 / REQUESTS, 2)} | ${fmt(percentile(wall, 50), 2)} | ${fmt(percentile(wall, 95), 2)} |`,
    );
    console.log(lines.at(-1));
    for (const q of sent) console.log(`    ${q}`);
  }
  await handle.close();
  console.log(`
${REQUESTS} sequential requests each, in process:

| request | statements per request | CPU ms per request (this process) | wall p50 ms | wall p95 ms |
|---|---|---|---|---|
${lines.join("\n")}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
