/**
 * Shared pieces of the HTTP benchmarks: a fresh Postgres database, a built
 * server started against it, latency percentiles, autocannon throughput, and
 * the same work run directly through postgres.js for the ratio.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import autocannon from "autocannon";
import postgres from "postgres";

export const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Several people may benchmark on one machine: BENCH_DB_SUFFIX keeps their
 * databases apart and BENCH_PORT their servers (the defaults are per script).
 */
export const benchPort = (fallback: number) => Number(process.env.BENCH_PORT ?? fallback);

export async function createFreshDatabase(baseName: string): Promise<string> {
  const name = `${baseName}${process.env.BENCH_DB_SUFFIX ?? ""}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`BENCH_DB_SUFFIX: only a-z, 0-9 and _ (got ${name})`);
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `env` overrides the defaults below (e.g. real rate limits, one APP_URL shared by two instances). */
export async function startServer(databaseUrl: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  if (!fs.existsSync(".next/BUILD_ID")) throw new Error("build the app first: npm run build");
  const child = spawn("npx", ["next", "start", "-p", String(port)], {
    // The per-key (and Data API per-application) limits stay on (their Postgres upsert is part of every request's cost) but high enough not to refuse.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      TRUST_PROXY: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      RESULTS_API_RATE_LIMIT: "100000000",
      RESULTS_API_UPLOAD_RATE_LIMIT: "100000000",
      RESULTS_API_PDF_RATE_LIMIT: "100000000",
      DATA_API_RATE_LIMIT: "100000000",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("server did not start");
}

/** Stops a server's process group and resolves once it has exited, so a server started next on the same port is the one that answers. */
export async function stopServer(child: ChildProcess): Promise<void> {
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    return; // already gone
  }
  const timeout = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }, 10_000);
  await exited;
  clearTimeout(timeout);
}

export function percentile(sortedMs: number[], p: number): number {
  const index = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1));
  return sortedMs[index];
}

/** One client, back to back: the latency a single caller sees. */
export async function measureLatency(run: () => Promise<unknown>, requests: number): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 10; i++) await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) {
    const t0 = performance.now();
    await run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/** N concurrent loops for a fixed time: operations per second. */
export async function measureThroughput(run: () => Promise<void>, concurrency: number, seconds: number): Promise<number> {
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        await run();
        done++;
      }
    }),
  );
  return done / seconds;
}

export async function autocannonRun(url: string, headers: Record<string, string>, connections: number, seconds: number) {
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p97_5: result.latency.p97_5 };
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** CPU time (user + system, ms) of a process and its descendants, from /proc (Linux; clock ticks of 10 ms). */
export function processTreeCpuMs(rootPid: number): number {
  let total = 0;
  const visit = (pid: number) => {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(fields[11]) + Number(fields[12])) * 10;
      for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
        for (const child of fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean))
          visit(Number(child));
      }
    } catch {
      // the process ended meanwhile
    }
  };
  visit(rootPid);
  return total;
}

/** CPU time (ms) of each Postgres backend connected to one database now (the server runs on this machine). */
export async function backendsCpuMs(databaseName: string): Promise<Map<number, number>> {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  const pids = await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${databaseName} and pid <> pg_backend_pid()`;
  await admin.end();
  return new Map(pids.map(({ pid }) => [pid, processTreeCpuMs(pid)]));
}

/** CPU the backends spent between two readings (a backend opened meanwhile counts whole). */
export const backendsCpuDelta = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ms]) => sum + ms - (before.get(pid) ?? 0), 0);
