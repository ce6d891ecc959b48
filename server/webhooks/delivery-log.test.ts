import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { desc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import { openTestDb, usePrivateDatabase } from "../../test/support/test-db";
import type { DbHandle } from "../db/client";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema";
import { sweepExpiredState } from "../jobs/housekeeping";
import { appRouter } from "../trpc/root";
import { getSessionUser } from "../users/users";
import { attemptWebhookDelivery } from "./deliver";
import { emitWebhookEvent } from "./emit-event";
import { createEndpoint, deleteEndpoint, sendTestEvent } from "./endpoints";
import type { Resolver } from "./safe-post";

/**
 * The delivery log (docs/webhooks.md "The delivery log"): every attempt kept
 * with its request and response, failures in words, hostile answers stored
 * safely, the portal's tRPC reads with their filters and access rules, and
 * the 30-day sweep taking attempts with their events.
 */
let handle: DbHandle;
let drop: () => Promise<void> = async () => {};
beforeAll(async () => {
  // Attempts are driven by hand here; no other file's drain may deliver these deliveries meanwhile.
  drop = await usePrivateDatabase();
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
  await drop();
});

/** A loopback server answering whatever `handler` writes (raw socket: anything a hostile receiver could send). */
async function rawServer(handler: (socket: net.Socket, request: string) => void) {
  const server = net.createServer((socket) => {
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk.toString("latin1");
      const end = data.indexOf("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(data)?.[1] ?? 0);
      if (end >= 0 && data.length >= end + 4 + length) handler(socket, data);
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function httpServer(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const resolver: Resolver = async (host) => {
  if (host === "internal.example") return ["10.0.0.1"];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND", hostname: host });
};

async function world() {
  const { owner, application } = await makeOwnerAndApp(handle.db, { scopes: ["openid", "sessions:read"] });
  const user = (await getSessionUser(handle.db, owner.id))!;
  const caller = appRouter.createCaller({ db: handle.db, user });
  return { owner, application, user, caller };
}

/** A test event to the endpoint, attempted once now; returns its delivery id. */
async function attemptTest(ownerId: number, applicationId: number, endpointId: string, timeoutMs = 3000) {
  await sendTestEvent(handle.db, ownerId, applicationId, endpointId);
  const [delivery] = await handle.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookEndpoints.publicId, endpointId))
    .orderBy(desc(webhookDeliveries.id))
    .limit(1);
  await attemptWebhookDelivery(handle.db, delivery.id, { resolver, timeoutMs, jitter: () => 1 });
  return delivery.id;
}

describe("every attempt is kept", () => {
  it("the request as sent and the response: status, headers, the first 4 KiB of a longer body; a 500 then a 200", async () => {
    const { owner, application, caller } = await world();
    let calls = 0;
    const bodyOf = (n: number) => `{"attempt":${n},"pad":"${"é".repeat(5000)}"}`;
    const receiver = await httpServer((req, res) => {
      req.resume();
      req.on("end", () => {
        calls++;
        res.writeHead(calls === 1 ? 500 : 200, { "content-type": "application/json", "x-receiver": `r${calls}` }).end(bodyOf(calls));
      });
    });
    try {
      const { endpoint, secret } = await createEndpoint(handle.db, owner.id, application.id, {
        url: receiver.url,
        eventTypes: ["session.created"],
      });
      const deliveryId = await attemptTest(owner.id, application.id, endpoint.id);
      // The second attempt when it is due (the schedule's 5 s later).
      await attemptWebhookDelivery(handle.db, deliveryId, { now: () => new Date(Date.now() + 6_000), jitter: () => 1 });

      const attempts = await caller.webhooks.attempts({ applicationId: application.id, deliveryId });
      expect(attempts.map((a) => [a.number, a.response?.status, a.error?.code ?? null])).toEqual([
        [1, 500, "http_status"],
        [2, 200, null],
      ]);
      const [first, second] = attempts;
      expect(first.error?.words).toBe("The endpoint answered 500 Internal Server Error; only a 2xx status counts as delivered.");
      expect(first.request.url).toBe(receiver.url);
      const sent = Object.fromEntries(first.request.headers);
      expect(sent).toMatchObject({
        "content-type": "application/json",
        "webhook-id": expect.stringMatching(/^msg_/),
        "webhook-signature": expect.stringMatching(/^v1,/),
        "content-length": String(Buffer.byteLength(first.request.body)),
      });
      expect(JSON.parse(first.request.body)).toMatchObject({ type: "webhook.test" });
      expect(first.response?.headers).toContainEqual(["x-receiver", "r1"]);
      // 4 KiB kept: 4,096 bytes hold 2,041 "é" after the 18-byte prefix and one split "é" that is dropped.
      expect(second.response).toMatchObject({ bodyKind: "text", truncated: true });
      expect(Buffer.byteLength(second.response!.body)).toBeLessThanOrEqual(4096);
      expect(Buffer.byteLength(second.response!.body)).toBeGreaterThan(4090);
      expect(bodyOf(2).startsWith(second.response!.body)).toBe(true);
      expect(second.durationMs).toBeGreaterThanOrEqual(0);
      // The signature is shown, the secret never stored in the log.
      const rows = await handle.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId));
      expect(JSON.stringify(rows)).not.toContain(secret.slice(6));

      const log = await caller.webhooks.log({ applicationId: application.id });
      expect(log.deliveries[0]).toMatchObject({
        id: deliveryId,
        status: "succeeded",
        attempts: 2,
        lastResponseStatus: 200,
        lastError: null,
      });
    } finally {
      await receiver.close();
    }
  });

  it("no response: a refused connection, a host DNS cannot find, a private address, a receiver too slow, TLS to a plain port", async () => {
    const { owner, application, caller } = await world();
    const closed = await httpServer(() => {});
    const closedUrl = closed.url;
    await closed.close();
    const silent = await httpServer(() => {}); // accepts, never answers
    const plain = await httpServer((_req, res) => res.end());
    try {
      const cases = [
        [
          closedUrl,
          "connection_refused",
          /^The connection to 127\.0\.0\.1:\d+ was refused: nothing accepts connections on that port \(ECONNREFUSED\)$/,
        ],
        ["https://hooks.nowhere.example/in", "dns_not_found", /^The host hooks\.nowhere\.example could not be found \(DNS: ENOTFOUND\)/],
        ["https://internal.example/in", "blocked", /^Not sent: internal\.example: 10\.0\.0\.1 is a private address\./],
        [silent.url, "timeout", /^The endpoint accepted the connection but sent no response within 0\.4 s/],
        [plain.url.replace("http:", "https:"), "tls", /^The secure connection to 127\.0\.0\.1 failed/],
      ] as const;
      for (const [url, code, words] of cases) {
        const { endpoint } = await createEndpoint(handle.db, owner.id, application.id, { url, eventTypes: ["session.created"] });
        const deliveryId = await attemptTest(owner.id, application.id, endpoint.id, 400);
        const [attempt] = await caller.webhooks.attempts({ applicationId: application.id, deliveryId });
        expect(attempt.response, url).toBeNull();
        expect(attempt.error?.code, url).toBe(code);
        expect(attempt.error?.words, url).toMatch(words);
        const { deliveries } = await caller.webhooks.log({ applicationId: application.id, endpointId: endpoint.id });
        expect(deliveries[0].lastError, url).toBe(attempt.error?.words);
      }
      const [dns] = await caller.webhooks
        .log({ applicationId: application.id, endpointId: undefined })
        .then((l) => l.deliveries.filter((d) => d.endpoint.url === "https://hooks.nowhere.example/in"));
      expect(dns.status).toBe("pending");
    } finally {
      await silent.close();
      await plain.close();
    }
  });

  it("hostile answers are stored and listed: NUL bytes, invalid UTF-8, odd header bytes, an endless body, enormous headers", async () => {
    const { owner, application, caller } = await world();
    const head = "HTTP/1.1 200 OK\r\nX-Odd: caf\xe9\r\nConnection: close\r\n";
    const servers = [
      await rawServer((s) =>
        s.end(Buffer.concat([Buffer.from(`${head}Content-Length: 5\r\n\r\n`, "latin1"), Buffer.from([0x61, 0, 0x62, 0, 0])])),
      ),
      await rawServer((s) =>
        s.end(Buffer.concat([Buffer.from(`${head}Content-Length: 4\r\n\r\n`, "latin1"), Buffer.from([0xff, 0xfe, 0xc3, 0x28])])),
      ),
      await rawServer((s) => {
        s.write(`${head}\r\n`, "latin1");
        const pump = () => {
          while (!s.destroyed && s.write(Buffer.alloc(64 * 1024, 0)));
          if (!s.destroyed) s.once("drain", pump);
        };
        pump();
      }),
      await rawServer((s) => s.end(`HTTP/1.1 200 OK\r\nX-Huge: ${"h".repeat(40_000)}\r\nContent-Length: 0\r\n\r\n`)),
    ];
    try {
      const results = [];
      for (const server of servers) {
        const { endpoint } = await createEndpoint(handle.db, owner.id, application.id, {
          url: server.url,
          eventTypes: ["session.created"],
        });
        const deliveryId = await attemptTest(owner.id, application.id, endpoint.id);
        results.push((await caller.webhooks.attempts({ applicationId: application.id, deliveryId }))[0]);
      }
      const [nul, invalid, endless, huge] = results;
      expect(nul.response).toMatchObject({ status: 200, bodyKind: "binary", bodyBytes: 5, truncated: false });
      expect(nul.response?.body).toBe("0000  61 00 62 00 00");
      expect(nul.response?.headers).toContainEqual(["X-Odd", "café"]);
      expect(invalid.response).toMatchObject({ bodyKind: "binary", body: "0000  ff fe c3 28" });
      expect(endless.response).toMatchObject({ status: 200, bodyKind: "binary", bodyBytes: 4096, truncated: true });
      expect(huge).toMatchObject({ response: null, error: { code: "invalid_response" } });
      expect(huge.error?.words).toMatch(/headers were larger than 16 KB/);
      const log = await caller.webhooks.log({ applicationId: application.id });
      expect(log.deliveries.map((d) => d.status).sort()).toEqual(["pending", "succeeded", "succeeded", "succeeded"]);
    } finally {
      for (const server of servers) await server.close();
    }
  });
});

describe("the portal's reads", () => {
  it("filter by event type, status and endpoint; list events with their deliveries, one that no endpoint received too", async () => {
    const { owner, application, caller } = await world();
    const ok = await httpServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(204).end());
    });
    try {
      const a = (await createEndpoint(handle.db, owner.id, application.id, { url: ok.url, eventTypes: ["session.created"] })).endpoint;
      const b = (
        await createEndpoint(handle.db, owner.id, application.id, {
          url: "https://hooks.nowhere.example/b",
          eventTypes: ["session.created"],
        })
      ).endpoint;
      await issueAccessToken(handle.db, {
        userId: owner.id,
        applicationId: application.id,
        clientId: application.clientId,
        scopes: ["openid", "sessions:read"],
        audience: "https://results.example/api/v1",
        lifetimeSeconds: 3600,
      });
      await handle.db.transaction((tx) => emitWebhookEvent(tx, { type: "session.created", userId: owner.id, ids: { session_id: 5 } }));
      const queued = await caller.webhooks.log({ applicationId: application.id, eventType: "session.created" });
      expect(queued.deliveries.map((d) => d.endpoint.id).sort()).toEqual([a.id, b.id].sort());
      for (const d of queued.deliveries) await attemptWebhookDelivery(handle.db, d.id, { resolver, jitter: () => 1 });
      await attemptTest(owner.id, application.id, a.id);

      const app = { applicationId: application.id };
      const pick = async (filters: Record<string, string>) =>
        (await caller.webhooks.log({ ...app, ...filters })).deliveries.map(
          (d) => `${d.eventType} ${d.endpoint.id === a.id ? "a" : "b"} ${d.status}`,
        );
      expect(await pick({})).toEqual(["webhook.test a succeeded", "session.created b pending", "session.created a succeeded"]);
      expect(await pick({ eventType: "session.created" })).toEqual(["session.created b pending", "session.created a succeeded"]);
      expect(await pick({ status: "pending" })).toEqual(["session.created b pending"]);
      expect(await pick({ endpointId: a.id })).toEqual(["webhook.test a succeeded", "session.created a succeeded"]);
      expect(await pick({ endpointId: a.id, eventType: "webhook.test", status: "succeeded" })).toEqual(["webhook.test a succeeded"]);
      expect(await pick({ status: "cancelled" })).toEqual([]);
      await expect(caller.webhooks.log({ ...app, status: "lost" as never })).rejects.toMatchObject({ code: "BAD_REQUEST" });

      // The event list: each event with its deliveries; deleting endpoint a leaves its test event with none.
      await deleteEndpoint(handle.db, owner.id, application.id, a.id);
      const { events } = await caller.webhooks.events(app);
      expect(events.map((e) => [e.type, e.deliveries.map((d) => d.status)])).toEqual([
        ["webhook.test", []],
        ["session.created", ["pending"]],
      ]);
      expect(JSON.parse(events[1].payload)).toMatchObject({ type: "session.created", data: { session_id: 5 } });
      expect((await caller.webhooks.events({ ...app, eventType: "webhook.test" })).events).toHaveLength(1);
    } finally {
      await ok.close();
    }
  });

  it("another developer's application is the same not-found as one that does not exist; signed out is refused", async () => {
    const mine = await world();
    const stranger = await world();
    const { endpoint } = await createEndpoint(handle.db, mine.owner.id, mine.application.id, {
      url: "https://hooks.nowhere.example/x",
      eventTypes: ["session.created"],
    });
    const deliveryId = await attemptTest(mine.owner.id, mine.application.id, endpoint.id);
    const errorOf = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: { code: string; message: string }) => ({ code: e.code, message: e.message }),
      );
    const absent = await errorOf(stranger.caller.webhooks.log({ applicationId: 2_000_000_000 }));
    expect(absent).toEqual({ code: "NOT_FOUND", message: "Application not found" });
    expect(await errorOf(stranger.caller.webhooks.log({ applicationId: mine.application.id }))).toEqual(absent);
    expect(await errorOf(stranger.caller.webhooks.events({ applicationId: mine.application.id }))).toEqual(absent);
    expect(await errorOf(stranger.caller.webhooks.attempts({ applicationId: mine.application.id, deliveryId }))).toEqual(absent);
    // A delivery of another application, asked for under one's own: not found either.
    expect(await errorOf(stranger.caller.webhooks.attempts({ applicationId: stranger.application.id, deliveryId }))).toEqual({
      code: "NOT_FOUND",
      message: "Delivery not found",
    });
    // Filtering by someone else's endpoint id shows nothing of theirs.
    expect((await stranger.caller.webhooks.log({ applicationId: stranger.application.id, endpointId: endpoint.id })).deliveries).toEqual(
      [],
    );
    const signedOut = appRouter.createCaller({ db: handle.db, user: null });
    expect(await errorOf(signedOut.webhooks.log({ applicationId: mine.application.id }))).toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("retention", () => {
  it("attempts go with their event after 30 days, in the housekeeping sweep", async () => {
    const { owner, application } = await world();
    const { endpoint } = await createEndpoint(handle.db, owner.id, application.id, {
      url: "https://hooks.nowhere.example/old",
      eventTypes: ["session.created"],
    });
    const old = await attemptTest(owner.id, application.id, endpoint.id);
    const recent = await attemptTest(owner.id, application.id, endpoint.id);
    const attemptsOf = async () =>
      (
        await handle.db
          .select({ d: webhookAttempts.deliveryId })
          .from(webhookAttempts)
          .where(inArray(webhookAttempts.deliveryId, [old, recent]))
      )
        .map((r) => r.d)
        .sort();
    expect(await attemptsOf()).toEqual([old, recent].sort());
    const [{ eventId }] = await handle.db
      .select({ eventId: webhookDeliveries.eventId })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, old));
    await handle.db
      .update(webhookEvents)
      .set({ createdAt: new Date(Date.now() - 30 * 24 * 3_600_000 - 60_000) })
      .where(eq(webhookEvents.id, eventId));
    await sweepExpiredState(handle.db);
    expect(await attemptsOf()).toEqual([recent]);
  });
});
