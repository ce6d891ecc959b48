/**
 * `npm run bench:regatta`: regatta day on one machine (issue 29 §6, figures
 * in docs/benchmarks.md "Regatta day"). Two `next start` on one fresh
 * Postgres; requests alternate between them.
 *
 * - Uploads: LANES × RACES recordings from the simulator (fixed seeds; boat
 *   classes K1 … C4 in turn, 200/500/1000 m), one race every
 *   WINDOW_S / RACES seconds, the lanes of a race together (0–2 s apart).
 *   Every third lane uploads through the web upload (signed in over HTTP),
 *   the rest through `POST /api/v1/results`. A result is processed inside the
 *   request (docs/results-api.md "Upload processing"), so upload-to-processed
 *   is the request's time to its 201.
 * - VIEWERS loops until the last upload: the results list (results API), the
 *   web page of the newest result, Data API `/sessions` and `/strokes` (a real
 *   OAuth token), THINK_MS (± half) between requests.
 * - ENDPOINTS loopback receivers subscribed to every event type; lag from
 *   the event's timestamp (written in the emitting transaction) to the
 *   receiver's 2xx; events lost: expected (session.created per upload,
 *   export.completed per export) minus received unique webhook-ids, after a
 *   drain of at most DRAIN_S seconds.
 * - One Data API export (EXPORT_FORMAT, default json) per EXPORT_EVERY
 *   uploads, polled every 500 ms to its final status.
 * - Database and blob growth over the window (blobs in Postgres: S3 off).
 *
 * Every loop stops by itself; all traffic goes to 127.0.0.1. Needs a built
 * app and the local Postgres. Exits 1 on a 5xx, a failed request or a lost event.
 */
// createEndpoint checks the receivers' URLs in this process as the servers do: loopback allowed with a loopback APP_URL.
process.env.WEBHOOK_ALLOW_LOOPBACK = "1";
process.env.APP_URL = `http://127.0.0.1:${process.env.BENCH_PORT ?? 3946}`;

import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { createApplication } from "../../server/applications/applications";
import { createAthlete } from "../../server/athletes/athletes";
import { openDb } from "../../server/db/client";
import { createKeyPair } from "../../server/keys/key-pairs";
import { encodeSvc } from "../../server/svc/container";
import { loadKeyring } from "../../server/svc/keyring";
import { Random } from "../../server/svc/simulator/random";
import { simulateSession } from "../../server/svc/simulator/simulate";
import type { VesselType } from "../../server/svc/types";
import { createTrack } from "../../server/tracks/tracks";
import { createUser } from "../../server/users/users";
import { createEndpoint, MAX_ENDPOINTS_PER_APPLICATION } from "../../server/webhooks/endpoints";
import { webhookEventTypeNames } from "../../server/webhooks/event-types";
import { issueAccessToken } from "../../test/support/oauth-fixtures";
import { benchPort, createFreshDatabase, fmt, percentile, startServer, stopServer } from "./bench-kit";

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const LANES = env("LANES", 9);
const RACES = env("RACES", 60);
const WINDOW_S = env("WINDOW_S", 600);
const VIEWERS = env("VIEWERS", 100);
const ENDPOINTS = env("ENDPOINTS", 10);
const EXPORT_EVERY = env("EXPORT_EVERY", 10);
const THINK_MS = env("THINK_MS", 2000);
const DRAIN_S = env("DRAIN_S", 120);
const SEED = env("SEED", 29);
const EXPORT_FORMAT = process.env.EXPORT_FORMAT ?? "json";
const PORT_A = benchPort(3946);
const PORT_B = PORT_A + 1;
const APP_URL = `http://127.0.0.1:${PORT_A}`;
const BASES = [APP_URL, `http://127.0.0.1:${PORT_B}`];
const REQUEST_TIMEOUT_MS = 120_000;

/** Boat classes in turn (vessel ids of the reference table, K1 … C4) and the sprint distances. */
const CLASSES: { type: VesselType; id: number; seats: number }[] = [
  { type: "K1", id: 1, seats: 1 },
  { type: "K2", id: 2, seats: 2 },
  { type: "K4", id: 3, seats: 4 },
  { type: "C1", id: 4, seats: 1 },
  { type: "C2", id: 5, seats: 2 },
  { type: "C4", id: 6, seats: 4 },
];
const DISTANCES = [200, 500, 1000];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const p = (values: number[], q: number) => (values.length ? `${fmt(percentile(sorted(values), q), 0)} ms` : "–");

/** Every answer by kind: latencies of 2xx, statuses ≥ 500, and requests that got no answer. */
class Tally {
  readonly ms = new Map<string, number[]>();
  readonly fivexx = new Map<string, number>();
  readonly other = new Map<string, Map<number | string, number>>();
  add(kind: string, status: number | string, ms: number) {
    if (typeof status === "number" && status >= 200 && status < 300) this.ms.set(kind, [...(this.ms.get(kind) ?? []), ms]);
    else {
      if (typeof status === "string" || status >= 500) this.fivexx.set(kind, (this.fivexx.get(kind) ?? 0) + 1);
      const byStatus = this.other.get(kind) ?? new Map<number | string, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      this.other.set(kind, byStatus);
    }
  }
  /** Times one request; `read` consumes the body (and may parse it). */
  async time<T>(kind: string, run: () => Promise<Response>, read: (r: Response) => Promise<T>): Promise<{ status: number; body?: T }> {
    const t0 = performance.now();
    try {
      const response = await run();
      const body = await read(response);
      this.add(kind, response.status, performance.now() - t0);
      return { status: response.status, body };
    } catch (error) {
      this.add(kind, `no answer (${(error as Error).name})`, performance.now() - t0);
      return { status: 0 };
    }
  }
}

interface Receiver {
  url: string;
  /** webhook-id → [type, resource id] */
  received: Map<string, string>;
  deliveries: number;
  close: () => Promise<unknown>;
}

async function receiver(onLag: (ms: number) => void): Promise<Receiver> {
  const received = new Map<string, string>();
  const self: Receiver = { url: "", received, deliveries: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const event = JSON.parse(body) as { type: string; timestamp: string; data: Record<string, unknown> };
      const id = event.data.session_id ?? event.data.export_id ?? event.data.training_id ?? "";
      self.deliveries++;
      const webhookId = String(req.headers["webhook-id"]);
      if (!received.has(webhookId)) onLag(Date.now() - Date.parse(event.timestamp));
      received.set(webhookId, `${event.type}:${id}`);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  self.close = () => new Promise((resolve) => server.close(resolve));
  return self;
}

/** Signs in over HTTP as the sign-in form does (Auth.js credentials callback); returns the Cookie header. */
async function signIn(base: string, email: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (r: Response) => {
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${base}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  keep(response);
  await response.arrayBuffer();
  if (![200, 302].includes(response.status)) throw new Error(`sign-in: ${response.status}`);
  return cookie();
}

async function sizes(databaseUrl: string) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const [row] = await sql<{ db: string; blobs: string; contents: string }[]>`
    select pg_database_size(current_database())::text as db,
           (select count(*) from blobs)::text as blobs,
           (select coalesce(sum(byte_size), 0) from blob_contents)::text as contents`;
  await sql.end();
  return { db: Number(row.db), blobs: Number(row.blobs), blobBytes: Number(row.contents) };
}

const mib = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MiB`;

async function main() {
  const databaseUrl = await createFreshDatabase("svc_bench_regatta");
  const handle = openDb({ databaseUrl });
  await handle.migrate();
  const db = handle.db;
  const password = "bench password 1";
  const user = await createUser(db, { name: "Regatta", email: "regatta@bench.example", password });
  const track = await createTrack(db, user.id, { name: "Regatta course" });
  // One athlete per seat of the largest boat: a crew of mostly external paddlers needs a privilege (403).
  const athletes = await Promise.all(
    [1, 2, 3, 4].map((seat) => createAthlete(db, user.id, { name: `Seat ${seat}`, subscriptionActiveUntil: "2099-12-31" })),
  );
  const { keyPair, secretKey } = await createKeyPair(db, user.id, { name: "regatta" });
  const apiKey = { authorization: `Bearer ${keyPair.publicKey}.${secretKey}`, "x-forwarded-proto": "https" };

  // Receivers: at most MAX_ENDPOINTS_PER_APPLICATION per application, each application granted by the uploader.
  const lags: number[] = [];
  const receivers: Receiver[] = [];
  let dataToken = "";
  for (let a = 0; a * MAX_ENDPOINTS_PER_APPLICATION < ENDPOINTS || a === 0; a++) {
    const scopes = ["openid", "sessions:read", "exports:create"];
    const { application } = await createApplication(db, user.id, {
      name: `Regatta app ${a + 1}`,
      surface: "data",
      clientType: "confidential",
      redirectUris: ["https://regatta.example/cb"],
      embedOrigins: [],
      scopes,
    });
    const issued = await issueAccessToken(db, {
      userId: user.id,
      applicationId: application.id,
      clientId: application.clientId,
      scopes,
      audience: `${APP_URL}/api/v1`,
      lifetimeSeconds: 86_400,
    });
    if (a === 0) dataToken = issued.token;
    for (let k = a * MAX_ENDPOINTS_PER_APPLICATION; k < Math.min(ENDPOINTS, (a + 1) * MAX_ENDPOINTS_PER_APPLICATION); k++) {
      const r = await receiver((ms) => lags.push(ms));
      await createEndpoint(db, user.id, application.id, { url: r.url, eventTypes: [...webhookEventTypeNames] });
      receivers.push(r);
    }
  }
  await handle.close();
  const bearer = { authorization: `Bearer ${dataToken}` };

  // The recordings, made before the window so the simulator does not compete with the servers.
  const keyring = loadKeyring({});
  const seeded = new Random(SEED);
  const random = () => seeded.next();
  type Upload = { race: number; lane: number; at: number; web: boolean; bytes: Uint8Array<ArrayBuffer>; metadata: string; label: string };
  const uploads: Upload[] = [];
  const raceEvery = (WINDOW_S * 1000) / RACES;
  for (let race = 0; race < RACES; race++) {
    const boat = CLASSES[race % CLASSES.length];
    const distanceM = DISTANCES[Math.floor(random() * DISTANCES.length)];
    for (let lane = 0; lane < LANES; lane++) {
      const simulation = simulateSession({ vessel: boat.type, distanceM, seed: SEED * 100_000 + race * 100 + lane, pace: "race" });
      const crew = athletes.slice(0, boat.seats).map((a) => a.id);
      uploads.push({
        race,
        lane,
        at: race * raceEvery + random() * Math.min(2000, raceEvery),
        web: lane % 3 === 2,
        bytes: new Uint8Array(encodeSvc(simulation.content, keyring)),
        metadata: JSON.stringify({
          distance: distanceM,
          vessel_id: boat.id,
          track_id: track.id,
          category_id: 1,
          pace_id: 1,
          athletes: crew,
          competition: `Regatta race ${race + 1}`,
          description: `Lane ${lane + 1}`,
        }),
        label: `${boat.type} ${distanceM} m`,
      });
    }
  }
  console.log(
    `${uploads.length} recordings (${mib(uploads.reduce((s, u) => s + u.bytes.length, 0))}); ${RACES} races of ${LANES} lanes over ${WINDOW_S} s; ${VIEWERS} viewers; ${receivers.length} endpoints; an export per ${EXPORT_EVERY} uploads`,
  );

  const serverEnv = { APP_URL, WEBHOOK_ALLOW_LOOPBACK: "1" };
  const servers = await Promise.all([startServer(databaseUrl, PORT_A, serverEnv), startServer(databaseUrl, PORT_B, serverEnv)]);
  const tally = new Tally();
  const sessionIds: number[] = [];
  const exportIds: string[] = [];
  const exportMs: number[] = [];
  const exportFinal = new Map<string, number>();
  let next = 0;
  const base = () => BASES[next++ % 2];
  const timeout = () => AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const drain = (r: Response) => r.arrayBuffer();
  const json = async (r: Response) =>
    r.headers.get("content-type")?.includes("json") ? ((await r.json()) as Record<string, any>) : (await r.arrayBuffer(), undefined); // eslint-disable-line @typescript-eslint/no-explicit-any

  try {
    const cookie = await signIn(BASES[0], user.email, password);
    // Warm both instances (first compile of each route) before the clock starts.
    for (const b of BASES) {
      for (const path of ["/api/v1/results?per_page=5", "/api/v1/health"]) await drain(await fetch(`${b}${path}`, { headers: apiKey }));
      await drain(await fetch(`${b}/api/v1/sessions?limit=5`, { headers: bearer }));
    }
    const before = await sizes(databaseUrl);
    const loadAtStart = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

    const runExport = async (sessionId: number) => {
      const t0 = performance.now();
      const created = await tally.time(
        "POST /sessions/{id}/exports",
        () =>
          fetch(`${base()}/api/v1/sessions/${sessionId}/exports`, {
            method: "POST",
            headers: { ...bearer, "content-type": "application/json" },
            body: JSON.stringify({ format: EXPORT_FORMAT }),
            signal: timeout(),
          }),
        json,
      );
      const jobId = created.body?.data?.job_id as string | undefined;
      if (created.status !== 202 || !jobId) return;
      exportIds.push(jobId);
      const deadline = performance.now() + 5 * 60_000;
      while (performance.now() < deadline) {
        await sleep(500);
        const status = await tally.time(
          "GET /exports/{id}",
          () => fetch(`${base()}/api/v1/exports/${jobId}`, { headers: bearer, signal: timeout() }),
          json,
        );
        const state = status.body?.data?.status as string | undefined;
        if (state && ["succeeded", "failed", "expired"].includes(state)) {
          if (state === "succeeded") exportMs.push(performance.now() - t0);
          exportFinal.set(state, (exportFinal.get(state) ?? 0) + 1);
          return;
        }
      }
      exportFinal.set("unfinished", (exportFinal.get("unfinished") ?? 0) + 1);
    };

    const started = performance.now();
    let uploadsDone = false;
    const exportRuns: Promise<void>[] = [];
    const uploading = Promise.all(
      uploads.map(async (u, i) => {
        await sleep(started + u.at - performance.now());
        const form = new FormData();
        form.append("metadata", u.metadata);
        form.append("file", new Blob([u.bytes]), `race${u.race + 1}-lane${u.lane + 1}.svc`);
        const key = { "idempotency-key": `regatta-${SEED}-${u.race}-${u.lane}` };
        const answer = u.web
          ? await tally.time(
              "upload: web (POST /api/uploads)",
              () => fetch(`${base()}/api/uploads`, { method: "POST", headers: { cookie, ...key }, body: form, signal: timeout() }),
              json,
            )
          : await tally.time(
              "upload: POST /api/v1/results",
              () => fetch(`${base()}/api/v1/results`, { method: "POST", headers: { ...apiKey, ...key }, body: form, signal: timeout() }),
              json,
            );
        const id = answer.body?.data?.id as number | undefined;
        if (answer.status !== 201 || !id) {
          if (answer.status && answer.status < 500) console.error(`upload ${u.label}: ${answer.status} ${JSON.stringify(answer.body)}`);
          return;
        }
        sessionIds.push(id);
        if (EXPORT_EVERY > 0 && i % EXPORT_EVERY === 0) exportRuns.push(runExport(id));
      }),
    ).then(() => (uploadsDone = true));

    const newest = () => sessionIds.at(-1);
    const viewer = async (v: number) => {
      const seededViewer = new Random(SEED + 1 + v);
      const rand = () => seededViewer.next();
      await sleep(rand() * THINK_MS);
      for (let step = v; !uploadsDone; step++) {
        const id = newest();
        const kind = step % 4;
        if (kind === 0)
          await tally.time(
            "API: GET /api/v1/results (list)",
            () => fetch(`${base()}/api/v1/results?per_page=20`, { headers: apiKey, signal: timeout() }),
            drain,
          );
        else if (kind === 1 && id)
          await tally.time(
            "page: /sessions/{id} (newest)",
            () => fetch(`${base()}/sessions/${id}`, { headers: { cookie }, redirect: "manual", signal: timeout() }),
            drain,
          );
        else if (kind === 2)
          await tally.time(
            "API: GET /api/v1/sessions",
            () => fetch(`${base()}/api/v1/sessions?limit=20`, { headers: bearer, signal: timeout() }),
            drain,
          );
        else if (id)
          await tally.time(
            "API: GET /api/v1/sessions/{id}/strokes",
            () => fetch(`${base()}/api/v1/sessions/${id}/strokes?limit=100`, { headers: bearer, signal: timeout() }),
            drain,
          );
        await sleep(THINK_MS * (0.5 + rand()));
      }
    };
    const progress = setInterval(
      () =>
        console.log(
          `  … ${((performance.now() - started) / 1000).toFixed(0)} s: ${sessionIds.length}/${uploads.length} uploaded, ${exportMs.length} exports done`,
        ),
      30_000,
    );
    await Promise.all([uploading, ...Array.from({ length: VIEWERS }, (_, v) => viewer(v))]);
    await Promise.all(exportRuns);
    clearInterval(progress);
    const windowS = (performance.now() - started) / 1000;

    // Drain: every endpoint should receive session.created per upload and export.completed per export (the first application's).
    const expectedFor = (r: number) => {
      const keys = sessionIds.map((id) => `session.created:${id}`);
      if (r < MAX_ENDPOINTS_PER_APPLICATION) keys.push(...exportIds.map((id) => `export.completed:${id}`));
      return keys;
    };
    const missing = () =>
      receivers.reduce((sum, r, i) => {
        const got = new Set(r.received.values());
        return sum + expectedFor(i).filter((k) => !got.has(k)).length;
      }, 0);
    const drainStart = performance.now();
    while (missing() > 0 && performance.now() - drainStart < DRAIN_S * 1000) await sleep(500);
    const drainS = (performance.now() - drainStart) / 1000;
    await sleep(2000); // late duplicates
    const after = await sizes(databaseUrl);
    const loadAtEnd = fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");

    const lost = missing();
    const unique = receivers.reduce((s, r) => s + r.received.size, 0);
    const deliveries = receivers.reduce((s, r) => s + r.deliveries, 0);
    const fivexx = [...tally.fivexx.values()].reduce((s, n) => s + n, 0);
    const uploadMs = [...tally.ms].filter(([k]) => k.startsWith("upload")).flatMap(([, v]) => v);
    const byType = new Map<string, number>();
    for (const r of receivers) for (const v of r.received.values()) byType.set(v.split(":")[0], (byType.get(v.split(":")[0]) ?? 0) + 1);

    const rows: [string, string][] = [
      ["5xx and unanswered requests (must be 0)", String(fivexx)],
      [`uploads answered 201 (of ${uploads.length}) in ${fmt(windowS, 0)} s`, String(sessionIds.length)],
      ["upload-to-processed (request → 201, processed in the request), p50 / p95", `${p(uploadMs, 50)} / ${p(uploadMs, 95)}`],
    ];
    for (const [kind, ms] of [...tally.ms].sort()) rows.push([`${kind}: n, p50 / p95`, `${ms.length}, ${p(ms, 50)} / ${p(ms, 95)}`]);
    rows.push(
      [`export (${EXPORT_FORMAT}) request → succeeded, n, p50 / p95`, `${exportMs.length}, ${p(exportMs, 50)} / ${p(exportMs, 95)}`],
      ["webhook lag (event written → receiver 2xx), p50 / p95 / max", `${p(lags, 50)} / ${p(lags, 95)} / ${p(lags, 100)}`],
      [
        `webhook events received (unique ids; deliveries) over ${receivers.length} endpoints`,
        `${unique} (${[...byType].map(([t, n]) => `${t} ${n}`).join(", ")}); ${deliveries}`,
      ],
      [`events lost after a drain of ${fmt(drainS, 0)} s (must be 0)`, String(lost)],
      ["database growth (pg_database_size)", `${mib(before.db)} → ${mib(after.db)} (+${mib(after.db - before.db)})`],
      ["blob growth (Postgres blob store)", `+${after.blobs - before.blobs} blobs, +${mib(after.blobBytes - before.blobBytes)}`],
    );
    console.log(`\n| measure | value |\n|---|---|\n${rows.map(([m, v]) => `| ${m} | ${v} |`).join("\n")}`);
    console.log(`load average (1, 5, 15 min): ${loadAtStart} at the start, ${loadAtEnd} at the end`);
    for (const [kind, statuses] of tally.other) console.log(`not 2xx, ${kind}: ${JSON.stringify(Object.fromEntries(statuses))}`);
    if (exportFinal.size) console.log(`exports' final states: ${JSON.stringify(Object.fromEntries(exportFinal))}`);
    const refused = uploads.length - sessionIds.length;
    if (fivexx > 0 || lost > 0 || refused > 0) {
      console.error(`FAIL: ${fivexx} 5xx or unanswered, ${lost} events lost, ${refused} uploads without a 201`);
      process.exitCode = 1;
    }
  } finally {
    await Promise.all(servers.map(stopServer));
    for (const r of receivers) await r.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
