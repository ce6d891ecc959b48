import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatchWebhooksFunction } from "../../inngest/functions/dispatch-webhooks";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import { openTestDb, usePrivateDatabase } from "../../test/support/test-db";
import { startReceiver, type ReceivedWebhook } from "../../test/support/webhook-receiver";
import type { DbHandle } from "../db/client";
import { webhookDeliveries, webhookEndpoints } from "../db/schema";
import { drainEmbeddedRuns, EmbeddedWorker } from "../jobs/embedded-runner";
import { dispatchEndpointBatch } from "./dispatch";
import { emitWebhookEvent } from "./emit-event";
import { createEndpoint } from "./endpoints";

/**
 * Per-endpoint dispatch (docs/webhooks.md "Dispatch"): order per endpoint,
 * isolation of slow and failing endpoints, and two dispatchers on one
 * endpoint. Every wait is on state (requests received, rows), never on time.
 */
let handle: DbHandle;
let second: DbHandle;
// A database of its own: its workers and drains must not take other files' runs (nor they ours).
let dropPrivateDatabase: () => Promise<void> = async () => {};
beforeAll(async () => {
  dropPrivateDatabase = await usePrivateDatabase();
  handle = await openTestDb();
  second = await openTestDb();
});
afterAll(async () => {
  await second.close();
  await handle.close();
  await dropPrivateDatabase();
});

const quiet = { info() {}, warn() {}, error() {} };
const sessionOf = (request: ReceivedWebhook) => (JSON.parse(request.body) as { data: { session_id: number } }).data.session_id;
/** Sessions in the order their first request arrived (a retry repeats one later). */
const firstAttempts = (received: ReceivedWebhook[]) => [...new Set(received.map(sessionOf))];
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
/** Waits for a state (polling), with a generous bound only for a hung test. */
async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 1200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`never: ${what}`);
}

/** A person who granted an application, with one endpoint per receiver. */
async function subscribe(receivers: { url: string }[]) {
  const { owner, application } = await makeOwnerAndApp(handle.db);
  await issueAccessToken(handle.db, {
    userId: owner.id,
    applicationId: application.id,
    clientId: application.clientId,
    scopes: ["openid", "sessions:read"],
    audience: "https://results.example/api/v1",
  });
  const endpointIds: number[] = [];
  for (const receiver of receivers) {
    const { endpoint } = await createEndpoint(handle.db, owner.id, application.id, { url: receiver.url, eventTypes: ["session.created"] });
    const [row] = await handle.db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.publicId, endpoint.id));
    endpointIds.push(row.id);
  }
  const emit = async (count: number, from = 1) => {
    // One transaction after the other: each event's change committed before the next began.
    for (let i = from; i < from + count; i++)
      await handle.db.transaction((tx) => emitWebhookEvent(tx, { type: "session.created", userId: owner.id, ids: { session_id: i } }));
  };
  return { endpointIds, emit };
}

const deliveriesOf = (endpointId: number) =>
  handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(webhookDeliveries.id);

describe("per-endpoint dispatch", () => {
  it("sends an endpoint's first attempts in commit order; a failed one is retried later without holding up the next", async () => {
    // The first request for session 3 fails; everything else is accepted.
    let failedOnce = false;
    const receiver = await startReceiver((request) => {
      if (sessionOf(request) === 3 && !failedOnce) {
        failedOnce = true;
        return 500;
      }
      return 204;
    });
    try {
      const { endpointIds, emit } = await subscribe([receiver]);
      await emit(25);
      await drainEmbeddedRuns(handle.db, { functions: [dispatchWebhooksFunction], maxWaitMs: 0, logger: quiet });
      await receiver.waitFor(25);
      // First attempts in commit order; the failed one did not hold up the next (its retry, 5 s later, may come anywhere after).
      expect(firstAttempts(receiver.received)).toEqual(oneTo(25));
      expect(receiver.received.slice(2, 4).map(sessionOf)).toEqual([3, 4]);
      const deliveries = await deliveriesOf(endpointIds[0]);
      expect(deliveries.filter((d, i) => i !== 2).every((d) => d.status === "succeeded" && d.attempts === 1)).toBe(true);
      expect(deliveries[2].attempts).toBeGreaterThanOrEqual(1);
      // Later events are sent in order after the earlier ones, whatever was retried.
      await emit(2, 26);
      await drainEmbeddedRuns(handle.db, { functions: [dispatchWebhooksFunction], maxWaitMs: 0, logger: quiet });
      await until(async () => firstAttempts(receiver.received).length === 27, "27 sessions received");
      expect(firstAttempts(receiver.received)).toEqual(oneTo(27));
    } finally {
      await receiver.close();
    }
  });

  it("a slow endpoint and a failing one delay neither each other nor a fast one", async () => {
    // Slow: holds every request without answering (until the test ends). Failing: 503 to everything.
    const slow = await startReceiver(() => "hang");
    const failing = await startReceiver(() => 503);
    const fast = await startReceiver(() => 204);
    const worker = new EmbeddedWorker({ db: handle.db, functions: [dispatchWebhooksFunction], logger: quiet });
    try {
      const { endpointIds, emit } = await subscribe([slow, failing, fast]);
      await worker.start();
      await emit(20);
      await fast.waitFor(20, 60_000);
      const failingId = endpointIds[1];
      await until(async () => (await deliveriesOf(failingId)).every((d) => d.attempts >= 1), "every failing delivery attempted");
      // The slow endpoint's first request is still held: the others got everything meanwhile, in order.
      expect(slow.received).toHaveLength(1);
      expect(fast.received.map(sessionOf)).toEqual(oneTo(20));
      expect(firstAttempts(failing.received)).toEqual(oneTo(20));
      // None succeeded; each waits for its next attempt (or already had it) per the schedule.
      expect((await deliveriesOf(failingId)).every((d) => d.status === "pending" && d.lastResponseStatus === 503)).toBe(true);
    } finally {
      await slow.close();
      await worker.stop(1_000);
      await failing.close();
      await fast.close();
    }
  });

  it("two dispatchers on two connections never send one delivery twice", async () => {
    const receiver = await startReceiver(() => 204);
    try {
      const { endpointIds, emit } = await subscribe([receiver]);
      await emit(60);
      const endpointId = endpointIds[0];
      const dispatcher = async (db: DbHandle["db"], owner: string) => {
        let sent = 0;
        for (;;) {
          const batch = await dispatchEndpointBatch(db, endpointId, { owner, lingerMs: 0 });
          sent += batch.sent;
          if (batch.state === "idle") return sent;
        }
      };
      const [a, b] = await Promise.all([dispatcher(handle.db, "dispatcher-a"), dispatcher(second.db, "dispatcher-b")]);
      expect(a + b).toBe(60);
      expect(receiver.received).toHaveLength(60);
      expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(60);
      const deliveries = await handle.db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "succeeded")));
      expect(deliveries).toHaveLength(60);
      expect(deliveries.every((d) => d.attempts === 1)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
