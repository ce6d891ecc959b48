/**
 * `npm run bench:webhooks`: signed webhook delivery with the embedded runner
 * (docs/webhooks.md, figures in docs/benchmarks.md).
 *
 * 1. Latency: one event at a time to one endpoint; from the commit of the
 *    transaction that emitted it to the endpoint's 2xx (the receiver answers
 *    at once, so the request's arrival is the 2xx). p50 and p95.
 * 2. Throughput: EVENTS events (default 1,000), each fanned out to ENDPOINTS
 *    endpoints (default 10), so EVENTS × ENDPOINTS signed POSTs; from the
 *    first commit to the last 2xx.
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

  // 2. Throughput, EVENTS × ENDPOINTS deliveries.
  let count = 0;
  const total = EVENTS * ENDPOINTS;
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => (done = resolve));
  const fan = await subscribe(ENDPOINTS, () => {
    count += 1;
    if (count === total) done();
  });
  const started = performance.now();
  for (let i = 1; i <= EVENTS; i++) await emit(fan.userId, i);
  const emitted = performance.now();
  const progress = setInterval(
    () => console.log(`  … ${count}/${total} delivered after ${((performance.now() - started) / 1000).toFixed(0)} s`),
    30_000,
  );
  await all;
  clearInterval(progress);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `throughput: ${EVENTS} events × ${ENDPOINTS} endpoints = ${total} deliveries in ${seconds.toFixed(1)} s (${(total / seconds).toFixed(0)} deliveries/s; emitting took ${((emitted - started) / 1000).toFixed(1)} s)`,
  );

  await worker.stop();
  for (const server of [...single.servers, ...fan.servers]) await server.close();
  await handle.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
