/**
 * `npm run bench:webhooks`: signed webhook delivery with the embedded runner
 * (docs/webhooks.md, figures in docs/benchmarks.md).
 *
 * 1. Latency: one event at a time to one endpoint; from the commit of the
 *    transaction that emitted it to the endpoint's 2xx (the receiver answers
 *    at once, so the request's arrival is the 2xx). p50 and p95.
 * 2. Sustained rate: EVENTS events (default 1,000), each fanned out to
 *    ENDPOINTS endpoints (default 10), emitted at RATE events per second
 *    (default 20, so 200 deliveries/s) by up to EMITTERS concurrent
 *    transactions; per delivery the lag from its event's commit to the
 *    endpoint's 2xx (p50, p95, p99), and deliveries per second from the first
 *    commit to the last 2xx.
 * 3. Backlog: BACKLOG_EVENTS events (default 1,000) × ENDPOINTS committed
 *    while no worker runs, then drained: the most deliveries per second.
 *
 * The app's own embedded worker (default concurrency, or WORKER_CONCURRENCY)
 * runs in this process; receivers are HTTP servers on loopback
 * (WEBHOOK_ALLOW_LOOPBACK=1, as in a local run). Uses DATABASE_URL when set,
 * else a fresh local Postgres database.
 */
process.env.WEBHOOK_ALLOW_LOOPBACK = "1";

import http from "node:http";
import type { AddressInfo } from "node:net";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import { openDb } from "../../server/db/client";
import { EmbeddedWorker } from "../../server/jobs/embedded-runner";
import { emitWebhookEvent } from "../../server/webhooks/emit-event";
import { createEndpoint } from "../../server/webhooks/endpoints";
import { createFreshDatabase } from "./bench-kit";

const EVENTS = Number(process.env.EVENTS ?? 1000);
const ENDPOINTS = Number(process.env.ENDPOINTS ?? 10);
const LATENCY_SAMPLES = Number(process.env.LATENCY_SAMPLES ?? 100);
const RATE = Number(process.env.RATE ?? 20);
const EMITTERS = Number(process.env.EMITTERS ?? 4);
const BACKLOG_EVENTS = Number(process.env.BACKLOG_EVENTS ?? 1000);

async function receiver(onArrival: (sessionId: number) => void) {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      onArrival((JSON.parse(body) as { data: { session_id: number } }).data.session_id);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => new Promise((r) => server.close(r)) };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const databaseUrl = process.env.DATABASE_URL || (await createFreshDatabase("svc_bench_webhooks"));
  const handle = openDb({ databaseUrl, maxConnections: 10 });
  await handle.migrate();
  const db = handle.db;
  const worker = new EmbeddedWorker({
    db,
    ...(process.env.WORKER_CONCURRENCY ? { concurrency: Number(process.env.WORKER_CONCURRENCY) } : {}),
    logger: { ...console, info: () => {} },
  });
  await worker.start();

  const subscribe = async (count: number, onArrival: (sessionId: number) => void) => {
    const { owner, application } = await makeOwnerAndApp(db);
    await issueAccessToken(db, {
      userId: owner.id,
      applicationId: application.id,
      clientId: application.clientId,
      scopes: ["openid", "sessions:read"],
      audience: "https://bench.example/api/v1",
      lifetimeSeconds: 86_400,
    });
    const servers = [];
    for (let k = 0; k < count; k++) {
      const server = await receiver(onArrival);
      await createEndpoint(db, owner.id, application.id, { url: server.url, eventTypes: ["session.created"] });
      servers.push(server);
    }
    return { userId: owner.id, servers };
  };
  const emit = (userId: number, sessionId: number) =>
    db.transaction((tx) => emitWebhookEvent(tx, { type: "session.created", userId, ids: { session_id: sessionId } }));

  /** Emits EVENTS events at RATE per second, at most EMITTERS transactions at once; records each commit time. */
  const emitPaced = async (userId: number, commits: Map<number, number>) => {
    const started = performance.now();
    let next = 1;
    const emitter = async () => {
      for (;;) {
        const i = next++;
        if (i > EVENTS) return;
        const due = started + ((i - 1) * 1000) / RATE;
        if (due > performance.now()) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
        await emit(userId, i);
        commits.set(i, performance.now());
      }
    };
    await Promise.all(Array.from({ length: EMITTERS }, emitter));
  };

  const servers: { close: () => Promise<unknown> }[] = [];
  /** Subscribes ENDPOINTS fresh endpoints, runs `produce`, waits for every delivery; lag percentiles and rate. */
  const measureFanOut = async (events: number, produce: (userId: number, commits: Map<number, number>) => Promise<void>) => {
    const total = events * ENDPOINTS;
    const arrivals: [number, number][] = [];
    let done: () => void = () => {};
    const all = new Promise<void>((resolve) => (done = resolve));
    const fan = await subscribe(ENDPOINTS, (sessionId) => {
      arrivals.push([sessionId, performance.now()]);
      if (arrivals.length === total) done();
    });
    servers.push(...fan.servers);
    const commits = new Map<number, number>();
    const started = performance.now();
    const progress = setInterval(
      () => console.log(`  … ${arrivals.length}/${total} delivered after ${((performance.now() - started) / 1000).toFixed(0)} s`),
      30_000,
    );
    await produce(fan.userId, commits);
    const emitted = performance.now();
    await all;
    clearInterval(progress);
    const lags = arrivals.map(([sessionId, at]) => Math.max(0, at - commits.get(sessionId)!)).sort((a, b) => a - b);
    const firstCommit = Math.min(...commits.values());
    const lastArrival = Math.max(...arrivals.map(([, at]) => at));
    return {
      total,
      emitRate: events / ((emitted - started) / 1000),
      perSecond: total / ((lastArrival - firstCommit) / 1000),
      lastArrival,
      p50: percentile(lags, 50),
      p95: percentile(lags, 95),
      p99: percentile(lags, 99),
      max: lags.at(-1)!,
    };
  };

  // 1. Latency, one event at a time.
  let arrived: ((t: number) => void) | null = null;
  const single = await subscribe(1, () => arrived?.(performance.now()));
  const latencies: number[] = [];
  for (let i = 1; i <= LATENCY_SAMPLES; i++) {
    const arrival = new Promise<number>((resolve) => (arrived = resolve));
    await emit(single.userId, i);
    const committed = performance.now();
    latencies.push((await arrival) - committed);
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `latency commit → 2xx over ${LATENCY_SAMPLES} events: p50 ${percentile(latencies, 50).toFixed(1)} ms, p95 ${percentile(latencies, 95).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
  );

  // 2. Sustained rate: EVENTS × ENDPOINTS deliveries, events emitted at RATE per second.
  const sustained = await measureFanOut(EVENTS, (fanUserId, commits) => emitPaced(fanUserId, commits));
  console.log(
    `sustained: ${EVENTS} events × ${ENDPOINTS} endpoints = ${sustained.total} deliveries, offered ${RATE * ENDPOINTS}/s (events emitted at ${sustained.emitRate.toFixed(1)}/s): ${sustained.perSecond.toFixed(0)} deliveries/s; lag commit → 2xx p50 ${sustained.p50.toFixed(0)} ms, p95 ${sustained.p95.toFixed(0)} ms, p99 ${sustained.p99.toFixed(0)} ms, max ${sustained.max.toFixed(0)} ms`,
  );

  // 3. Backlog: everything committed first, then drained.
  if (BACKLOG_EVENTS > 0) {
    await worker.stop();
    let drainStarted = 0;
    const backlog = await measureFanOut(BACKLOG_EVENTS, async (fanUserId, commits) => {
      for (let i = 1; i <= BACKLOG_EVENTS; i++) {
        await emit(fanUserId, i);
        commits.set(i, performance.now());
      }
      drainStarted = performance.now();
      await worker.start();
    });
    const drainSeconds = (backlog.lastArrival - drainStarted) / 1000;
    console.log(
      `backlog: ${backlog.total} deliveries committed first, drained in ${drainSeconds.toFixed(1)} s: ${(backlog.total / drainSeconds).toFixed(0)} deliveries/s`,
    );
  }

  await worker.stop();
  for (const server of [...single.servers, ...servers]) await server.close();
  await handle.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
