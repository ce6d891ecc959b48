/**
 * `npm run bench:two-instances`: what must hold when several app instances
 * share one Postgres (docs/benchmarks.md "Two instances"). Starts two
 * `next start` on one fresh database and checks, over HTTP:
 *
 * 1. rate limits are exact across instances: with a limit of N per minute,
 *    3N concurrent requests spread over both instances get exactly N
 *    answers 200 and 2N answers 429 (results API per key, Data API per
 *    application and person);
 * 2. a revocation on one instance is seen by the next request on the other,
 *    though both had verified (and cached) the token;
 * 3. a dropped database connection is never a 500: under load on both
 *    instances every backend of the database is terminated; 300 ms later 40
 *    GET /results and an upload are sent; then the load's and those
 *    answers are counted by status.
 *
 * Needs a built app and the local Postgres; exits 1 when a check fails.
 */
import postgres from "postgres";
import { openDb } from "../../server/db/client";
import { createApplication } from "../../server/applications/applications";
import { issueAccessToken } from "../../test/support/oauth-fixtures";
import { createAthlete } from "../../server/athletes/athletes";
import { createKeyPair } from "../../server/keys/key-pairs";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { simulateSession } from "../../server/svc/simulator/simulate";
import { createTrack } from "../../server/tracks/tracks";
import { createUser } from "../../server/users/users";
import { benchPort, createFreshDatabase, startServer, stopServer } from "./bench-kit";
import { seedManyResults } from "./seed-many-results";

const N = Number(process.env.BENCH_LIMIT ?? 100);
const PORT_A = benchPort(3914);
const PORT_B = PORT_A + 1;
const APP_URL = `http://127.0.0.1:${PORT_A}`;
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};

const countStatuses = (statuses: number[]) =>
  Object.fromEntries([...new Set(statuses)].sort().map((s) => [s, statuses.filter((x) => x === s).length]));

async function main() {
  const databaseUrl = await createFreshDatabase("svc_bench_two_instances");
  const handle = openDb({ databaseUrl });
  await handle.migrate();
  const user = await createUser(handle.db, { name: "Two", email: "two@bench.example", password: "bench password 1" });
  const track = await createTrack(handle.db, user.id, { name: "Two basin" });
  const athlete = await createAthlete(handle.db, user.id, { name: "Two", subscriptionActiveUntil: "2099-12-31" });
  await seedManyResults(handle.db, { userId: user.id, trackId: track.id, athleteId: athlete.id, count: 2_000 });
  const keys = await Promise.all(["limits", "load", "after"].map((name) => createKeyPair(handle.db, user.id, { name })));
  const bearer = (k: (typeof keys)[number]) => ({ authorization: `Bearer ${k.keyPair.publicKey}.${k.secretKey}` });
  const token = async (name: string) => {
    const { application } = await createApplication(handle.db, user.id, {
      name,
      surface: "data",
      clientType: "confidential",
      redirectUris: ["https://two.example/cb"],
      embedOrigins: [],
      scopes: ["openid", "sessions:read"],
    });
    const issued = await issueAccessToken(handle.db, {
      userId: user.id,
      applicationId: application.id,
      clientId: application.clientId,
      scopes: ["openid", "sessions:read"],
      audience: `${APP_URL}/api/v1`,
    });
    return { authorization: `Bearer ${issued.token}` };
  };
  const limitsToken = await token("Limits app");
  const revokedToken = await token("Revoked app");
  await handle.close();

  const bytes = Buffer.from(
    encodeSvc(simulateSession({ vessel: "K1", durationMs: 60_000, seed: 3, pace: "training" }).content, loadKeyring({})),
  );
  const upload = (base: string) => {
    const form = new FormData();
    form.append(
      "metadata",
      JSON.stringify({ duration_ms: 60_000, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 2, athletes: [athlete.id] }),
    );
    form.append("file", new Blob([bytes]), "two.svc");
    return fetch(`${base}/api/v1/results`, { method: "POST", headers: { ...bearer(keys[2]), "x-forwarded-proto": "https" }, body: form });
  };

  const bases = [`http://127.0.0.1:${PORT_A}`, `http://127.0.0.1:${PORT_B}`];
  // 1 and 2: real limits (N per minute), one APP_URL for both (the token's audience).
  const limited = { APP_URL, RESULTS_API_RATE_LIMIT: String(N), DATA_API_RATE_LIMIT: String(N) };
  let servers = await Promise.all([startServer(databaseUrl, PORT_A, limited), startServer(databaseUrl, PORT_B, limited)]);
  try {
    // Fixed one-minute windows: a burst that straddles a window's end is counted in two windows, so each burst starts early in one.
    const earlyInWindow = async () => {
      const intoWindowMs = Date.now() % 60_000;
      if (intoWindowMs > 20_000) await new Promise((r) => setTimeout(r, 60_000 - intoWindowMs + 200));
    };
    const spread = async (path: string, headers: Record<string, string>) => {
      await earlyInWindow();
      const statuses = await Promise.all(
        Array.from({ length: 3 * N }, (_, i) =>
          fetch(`${bases[i % 2]}${path}`, { headers }).then(async (r) => (await r.arrayBuffer(), r.status)),
        ),
      );
      return countStatuses(statuses);
    };
    const results = await spread("/api/v1/results?per_page=5", bearer(keys[0]));
    console.log(`results API, limit ${N}/min per key, ${3 * N} requests over 2 instances:`, results);
    check(results[200] === N && results[429] === 2 * N, `results API: exactly ${N} allowed of ${3 * N}`);
    const data = await spread("/api/v1/me", limitsToken);
    console.log(`Data API, limit ${N}/min per application and person, ${3 * N} requests over 2 instances:`, data);
    check(data[200] === N && data[429] === 2 * N, `Data API: exactly ${N} allowed of ${3 * N}`);

    const me = (base: string) => fetch(`${base}/api/v1/me`, { headers: revokedToken }).then((r) => r.status);
    check(
      (await me(bases[0])) === 200 && (await me(bases[1])) === 200 && (await me(bases[1])) === 200,
      "the token works on both instances (and is cached by both)",
    );
    const revoked = await fetch(`${bases[0]}/api/v1/authorization`, { method: "DELETE", headers: revokedToken });
    check(revoked.status === 204, `DELETE /authorization on instance A: ${revoked.status}`);
    const nextOnB = await me(bases[1]);
    check(nextOnB === 401, `the next request on instance B is ${nextOnB} (401 expected)`);
  } finally {
    // Awaited: the next servers take the same ports, and a health check answered by a dying one would test the wrong server.
    await Promise.all(servers.map(stopServer));
  }

  // 3: limits lifted; load on both instances, then every backend of the database terminated.
  servers = await Promise.all([startServer(databaseUrl, PORT_A, { APP_URL }), startServer(databaseUrl, PORT_B, { APP_URL })]);
  const admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    let loading = true;
    const loadStatuses: number[] = [];
    const load = Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        while (loading)
          loadStatuses.push(
            await fetch(`${bases[i % 2]}/api/v1/results?per_page=20`, { headers: bearer(keys[1]) }).then(
              async (r) => (await r.arrayBuffer(), r.status),
            ),
          );
      }),
    );
    await new Promise((r) => setTimeout(r, 1_500));
    const [{ n }] =
      await admin`select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
    await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
    await new Promise((r) => setTimeout(r, 300));
    const [after, uploaded] = await Promise.all([
      Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          fetch(`${bases[i % 2]}/api/v1/results?per_page=20`, { headers: bearer(keys[2]) }).then(
            async (r) => (await r.arrayBuffer(), r.status),
          ),
        ),
      ),
      upload(bases[0]).then(async (r) => ({ status: r.status, retryAfter: r.headers.get("retry-after"), body: await r.text() })),
    ]);
    loading = false;
    await load;
    console.log(`terminated ${n} backends under load; the load's answers:`, countStatuses(loadStatuses));
    console.log(
      "40 GET /results 300 ms later:",
      countStatuses(after),
      "; the upload:",
      uploaded.status,
      uploaded.retryAfter ? `Retry-After ${uploaded.retryAfter}` : "",
    );
    check(!loadStatuses.includes(500), "no 500 in the load across the termination");
    check(
      after.every((s) => s === 200),
      "all 40 reads 300 ms later succeed",
    );
    check(
      uploaded.status === 201 || (uploaded.status === 503 && uploaded.retryAfter !== null),
      `the upload answers 201 (or 503 with Retry-After), got ${uploaded.status}`,
    );
  } finally {
    await admin.end();
    await Promise.all(servers.map(stopServer));
  }
  if (failures.length) {
    console.error(`${failures.length} check(s) failed`);
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
