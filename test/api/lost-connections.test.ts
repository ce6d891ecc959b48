import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import readline from "node:readline";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatedSvc } from "@/e2e/svc-files";
import { apiHarness } from "./harness";
import { personWithKey, send, uploadRequest, type Person } from "./results-client";

/**
 * Issue 29 §2: every backend of the database is terminated while 30 reads and
 * 10 uploads are in flight on two instances — this process (the in-process
 * harness, its own pool) and a second process serving the same route modules
 * over HTTP with a pool of its own (test/workers/api-instance-worker.ts).
 *
 * The kill is deterministic: table locks taken by an outside connection hold
 * the uploads inside their transactions (after their first writes, at the
 * result's insert: its trigger needs session_access) and the reads at their
 * rate-limit count (rate_limit_counters), and the kill happens once the
 * database shows them waiting there. Then: no read fails; each upload either
 * committed and answered 201 or did not and answered 503 with Retry-After,
 * checked against the database; and 40 requests after it all succeed.
 * Postgres only (terminating backends means nothing to PGlite).
 */
process.env.RESULTS_API_RATE_LIMIT = "100000";
process.env.RESULTS_API_UPLOAD_RATE_LIMIT = "100000";
apiHarness();
const postgresUrl = () => process.env.DATABASE_URL;

let coach: Person;
let metadata: string;
let instanceB: ChildProcess | undefined;
let portB = 0;
/** Two connections that hold the locks, and one that watches and terminates. */
let holders: postgres.Sql[] = [];
let watcher: postgres.Sql;
/** Twenty distinct session files, made before the test (simulating them is CPU the test's budget should not pay). */
const files: Buffer[] = [];

beforeAll(async () => {
  if (!postgresUrl()) return;
  coach = await personWithKey("lost-connections");
  const trackId = await coach.track("Lost connections basin");
  const athleteId = await coach.athlete({ name: "Ana", surname: "Test", subscriptionActiveUntil: "2099-12-31" });
  metadata = JSON.stringify({ distance: 200, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] });
  instanceB = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "../workers/api-instance-worker.ts")], {
    env: { ...process.env, TRUST_PROXY: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const firstLine = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: instanceB!.stdout! }).once("line", resolve);
    instanceB!.once("exit", (code) => reject(new Error(`instance B exited with ${code}`)));
  });
  portB = (JSON.parse(firstLine) as { port: number }).port;
  for (let seed = 9_100; seed < 9_120; seed++) files.push(simulatedSvc({ vessel: "K1", distanceM: 200, seed }));
  // Both pools open and the credential verified on each instance.
  await Promise.all(instances(20).map((instance) => read(instance)));
  holders = [postgres(postgresUrl()!, { max: 1, onnotice: () => {} }), postgres(postgresUrl()!, { max: 1, onnotice: () => {} })];
  watcher = postgres(postgresUrl()!, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  instanceB?.kill("SIGKILL");
  await Promise.all([...holders, watcher].filter(Boolean).map((a) => a.end()));
});

type Instance = "A" | "B";
/** One request to an instance: A in this process, B over HTTP. */
async function on(instance: Instance, request: Request): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response =
    instance === "A"
      ? await send(request)
      : await fetch(`http://127.0.0.1:${portB}${new URL(request.url).pathname}${new URL(request.url).search}`, {
          method: request.method,
          headers: request.headers,
          body: request.body ? Buffer.from(await request.arrayBuffer()) : undefined,
        });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

const read = (instance: Instance) =>
  on(instance, new Request("http://localhost:3000/api/v1/results?per_page=5", { headers: { authorization: coach.key.authorization } }));

async function upload(instance: Instance) {
  const file = files.pop()!;
  const request = await uploadRequest(
    { file: { bytes: file, filename: "race.svc" }, metadata },
    { authorization: coach.key.authorization, "x-forwarded-proto": "https" },
  );
  return { sha256: createHash("sha256").update(file).digest("hex"), answer: await on(instance, request) };
}

/** Waits until `n` backends of this database wait on a lock while running a statement matching `like`. */
async function waitForBlocked(like: string, n: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [{ blocked }] = await watcher`
      select count(*)::int as blocked from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query ilike ${like}`;
    if (blocked >= n) return;
    if (Date.now() > deadline) throw new Error(`only ${blocked} of ${n} statements like ${like} reached the lock`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const instances = (n: number): Instance[] => Array.from({ length: n }, (_, i) => (i % 2 ? "B" : "A"));

describe.skipIf(!postgresUrl())("a dropped database connection costs no retryable request (two instances)", () => {
  it("every backend terminated mid-flight: no read fails, each upload answers its transaction's outcome, then 40 requests succeed", async () => {
    const [uploadsHeld, readsHeld] = holders;
    let releaseUploads!: () => void;
    let releaseReads!: () => void;
    const uploadLock = uploadsHeld.begin(async (sql) => {
      await sql`lock table session_access in access exclusive mode`;
      await new Promise<void>((resolve) => (releaseUploads = resolve));
    });
    await waitForLocked("session_access");
    const uploads = instances(10).map((instance) => upload(instance));
    await waitForBlocked('insert into "results"%', 10);

    const readLock = readsHeld.begin(async (sql) => {
      await sql`lock table rate_limit_counters in access exclusive mode`;
      await new Promise<void>((resolve) => (releaseReads = resolve));
    });
    await waitForLocked("rate_limit_counters");
    const reads = instances(30).map((instance) => read(instance));
    // Each instance has 10 connections, 5 of them held by its uploads: the reads wait on the other 10 (the rest queue behind them).
    await waitForBlocked("%rate_limit_hit%", 10);

    const keep = (
      await watcher`select l.pid from pg_locks l join pg_class c on c.oid = l.relation
        where l.granted and l.mode = 'AccessExclusiveLock' and c.relname in ('session_access', 'rate_limit_counters')`
    ).map((r) => r.pid as number);
    expect(keep).toHaveLength(2);
    // All at once (a timeout would wait for each backend in turn), then until every one has exited.
    const terminated = (
      await watcher`
        select pid, pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and pid <> all(${keep}::int[])`
    ).map((r) => r.pid as number);
    expect(terminated.length).toBeGreaterThanOrEqual(20);
    while ((await watcher`select 1 from pg_stat_activity where pid = any(${terminated}::int[])`).length)
      await new Promise((resolve) => setTimeout(resolve, 10));
    releaseUploads();
    releaseReads();
    await Promise.all([uploadLock, readLock]);

    const readAnswers = await Promise.all(reads);
    expect(readAnswers.map((a) => a.status)).toEqual(readAnswers.map(() => 200));

    const uploadAnswers = await Promise.all(uploads);
    const stored = new Set(
      (await watcher`select original_sha256 from results where owner_user_id = ${coach.userId}`).map((r) => r.original_sha256 as string),
    );
    for (const { sha256, answer } of uploadAnswers) {
      if (answer.status === 201) expect(stored.has(sha256)).toBe(true);
      else {
        expect({ status: answer.status, stored: stored.has(sha256), retryAfter: answer.headers.get("retry-after") }).toEqual({
          status: 503,
          stored: false,
          retryAfter: "1",
        });
        expect(answer.body).toMatchObject({ error: "service_unavailable" });
      }
    }
    // The uploads were held inside their transactions when their connections died: none of those committed.
    expect(uploadAnswers.some((u) => u.answer.status === 503)).toBe(true);

    const after = await Promise.all([...instances(30).map((instance) => read(instance)), ...instances(10).map((i) => upload(i))]);
    const statuses = after.map((a) => ("answer" in a ? a.answer.status : a.status));
    expect(statuses.filter((status) => status < 200 || status > 299)).toEqual([]);
  });
});

/** Waits until an outside transaction holds its exclusive lock on `table`. */
async function waitForLocked(table: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const [{ held }] = await watcher`
      select count(*)::int as held from pg_locks l join pg_class c on c.oid = l.relation
      where l.granted and l.mode = 'AccessExclusiveLock' and c.relname = ${table}`;
    if (held > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the lock on ${table} was not taken`);
}
