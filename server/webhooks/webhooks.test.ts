import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeGrant } from "../auth/oauth/grants";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import type { DbHandle } from "../db/client";
import { eventOutbox, jobRuns, trainingSets, webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema";
import { openTestDb, usePrivateDatabase } from "../../test/support/test-db";
import { getSubjectIdentity } from "../identity/identity";
import { drainEmbeddedRuns } from "../jobs/embedded-runner";
import { attemptWebhookDelivery, DISABLE_AFTER_MS, MAX_ATTEMPTS } from "./deliver";
import { emitWebhookEvent, type WebhookEmission } from "./emit-event";
import {
  checkEndpointUrl,
  createEndpoint,
  listDeliveries,
  listEndpoints,
  redeliver,
  rotateEndpointSecret,
  sendTestEvent,
} from "./endpoints";
import type { WebhookEventType } from "./event-types";
import { payloadValidator } from "../../test/support/webhook-openapi";
import { startReceiver } from "../../test/support/webhook-receiver";
import { sweepExpiredState } from "../jobs/housekeeping";
import { createAthlete } from "../athletes/athletes";
import { deleteResult } from "../results/delete-result";
import { uploadResult } from "../results/upload-result";
import { encodeSvc } from "../svc/container";
import { loadKeyring } from "../svc/keyring";
import { simulateSession } from "../svc/simulator/simulate";
import { createTrack } from "../tracks/tracks";
import { getSessionUser } from "../users/users";
import { processStoredTraining } from "../trainings/process-training";
import { correctTrainingSets, undoSetCorrection } from "../trainings/set-corrections";
import { createProcessedTraining } from "../../test/support/trainings";
import { AppError } from "../errors";

let handle: DbHandle;
// A database of its own: its drains claim every queued run (test/support/test-db.ts usePrivateDatabase). On the shared one they
// ran other files' jobs (reprocessing their trainings under them, new set ids) and could outlast the test's timeout.
let dropPrivateDatabase: () => Promise<void> = async () => {};
beforeAll(async () => {
  dropPrivateDatabase = await usePrivateDatabase();
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
  await dropPrivateDatabase();
});

const AUDIENCE = "https://results.example/api/v1";

/** An application with one endpoint on a loopback receiver, and a person (its owner) who granted `scopes`. */
async function setup(
  options: {
    surface?: "data" | "session";
    scopes?: string[];
    eventTypes?: WebhookEventType[];
    respond?: Parameters<typeof startReceiver>[0];
  } = {},
) {
  const scopes = options.scopes ?? ["openid", "sessions:read", "trainings:read"];
  const surface = options.surface ?? "data";
  const { owner, application } = await makeOwnerAndApp(handle.db, {
    surface,
    scopes:
      surface === "session"
        ? ["openid", "sessions:read", "trainings:read"]
        : ["openid", "sessions:read", "trainings:read", "exports:create"],
  });
  const receiver = await startReceiver(options.respond);
  const { endpoint, secret } = await createEndpoint(handle.db, owner.id, application.id, {
    url: receiver.url,
    eventTypes: options.eventTypes ?? ["session.created", "session.updated", "training.ready", "authorization.revoked"],
  });
  const { grantId } = await issueAccessToken(handle.db, {
    userId: owner.id,
    applicationId: application.id,
    clientId: application.clientId,
    scopes,
    audience: AUDIENCE,
    lifetimeSeconds: 30 * 24 * 3600,
  });
  return { owner, application, receiver, endpoint, secret, grantId };
}

/**
 * Tests that drive attempts with their own clock take the deliveries' endpoints away from every dispatcher (other test
 * files drain too): the dispatch runs queued for them go; the endpoint stays marked as dispatched, so no new run starts.
 */
async function withoutRuns(deliveryIds: number[]) {
  const endpointIds = (
    await handle.db
      .selectDistinct({ id: webhookDeliveries.endpointId })
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.id, deliveryIds))
  ).map(({ id }) => String(id));
  const eventIds = handle.db
    .select({ id: eventOutbox.eventId })
    .from(eventOutbox)
    .where(and(eq(eventOutbox.name, "webhook/endpoint-due"), inArray(sql`${eventOutbox.data}->>'endpointId'`, endpointIds)));
  await handle.db.delete(jobRuns).where(inArray(jobRuns.eventId, eventIds));
  await handle.db.delete(eventOutbox).where(inArray(eventOutbox.eventId, eventIds));
}

const emit = (emission: WebhookEmission) => handle.db.transaction((tx) => emitWebhookEvent(tx, emission));
const deliverQueued = () => drainEmbeddedRuns(handle.db, { retryBackoff: () => 0, maxWaitMs: 500 });
const eventsOf = (applicationId: number) => handle.db.select().from(webhookEvents).where(eq(webhookEvents.applicationId, applicationId));

describe("signed webhook delivery", () => {
  it("delivers an event a consumer verifies with standardwebhooks: type, time, the app's pairwise sub and ids only", async () => {
    const { owner, application, receiver, secret } = await setup();
    try {
      expect(await emit({ type: "session.created", userId: owner.id, ids: { session_id: 77 } })).toBe(1);
      await deliverQueued();
      await receiver.waitFor(1);
      const [request] = receiver.received;
      const verified = new Webhook(secret).verify(request.body, request.headers) as Record<string, unknown>;
      const { sub } = await getSubjectIdentity(handle.db, owner.id, application.id);
      expect(verified).toEqual({ type: "session.created", timestamp: expect.any(String), data: { subject: sub, session_id: 77 } });
      expect(payloadValidator("session.created")(verified)).toBe(true);
      expect(request.headers["webhook-id"]).toMatch(/^msg_[0-9A-Za-z]{27}$/);
      // A consumer with another secret rejects it.
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(request.body, request.headers)).toThrow();
      const [endpoint] = await listEndpoints(handle.db, owner.id, application.id);
      const deliveries = (await listDeliveries(handle.db, owner.id, application.id, [endpoint.id]))[endpoint.id];
      expect(deliveries[0]).toMatchObject({ eventType: "session.created", status: "succeeded", attempts: 1, lastResponseStatus: 204 });
      expect(deliveries[0].lastLatencyMs).toBeGreaterThanOrEqual(0);
    } finally {
      await receiver.close();
    }
  });

  it("writes nothing for a change that rolls back", async () => {
    const { owner, application, receiver } = await setup();
    try {
      await expect(
        handle.db.transaction(async (tx) => {
          await emitWebhookEvent(tx, { type: "session.created", userId: owner.id, ids: { session_id: 1 } });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await eventsOf(application.id)).toEqual([]);
      await deliverQueued();
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("sends an event only for resources the granted scopes read, and on the session surface only what the application created", async () => {
    const noTrainings = await setup({ scopes: ["openid", "sessions:read"] });
    const session = await setup({ surface: "session" });
    try {
      expect(await emit({ type: "training.ready", userId: noTrainings.owner.id, ids: { training_id: 5 } })).toBe(0);
      expect(await emit({ type: "session.created", userId: noTrainings.owner.id, ids: { session_id: 5 } })).toBe(1);
      // An endpoint that did not subscribe to a type gets nothing.
      expect(await emit({ type: "session.deleted", userId: noTrainings.owner.id, ids: { session_id: 5 } })).toBe(0);

      expect(await emit({ type: "session.created", userId: session.owner.id, ids: { session_id: 6 }, createdByApplicationId: null })).toBe(
        0,
      );
      expect(
        await emit({
          type: "session.created",
          userId: session.owner.id,
          ids: { session_id: 6 },
          createdByApplicationId: noTrainings.application.id,
        }),
      ).toBe(0);
      expect(
        await emit({
          type: "session.created",
          userId: session.owner.id,
          ids: { session_id: 7 },
          createdByApplicationId: session.application.id,
        }),
      ).toBe(1);
      expect(
        await emit({
          type: "training.ready",
          userId: session.owner.id,
          ids: { training_id: 8 },
          createdByApplicationId: session.application.id,
        }),
      ).toBe(1);
      // Another person's change never reaches an application this person did not authorize.
      expect(
        await emit({
          type: "session.created",
          userId: session.owner.id,
          ids: { session_id: 9 },
          onlyApplicationId: noTrainings.application.id,
        }),
      ).toBe(0);
      expect((await eventsOf(session.application.id)).map((e) => e.payload.data)).toEqual([
        { subject: expect.any(String), session_id: 7 },
        { subject: expect.any(String), training_id: 8 },
      ]);
    } finally {
      await noTrainings.receiver.close();
      await session.receiver.close();
    }
  });

  it("after a grant is revoked, authorization.revoked is the last event: queued ones are cancelled, new ones never written", async () => {
    const { owner, application, receiver, grantId } = await setup();
    try {
      await emit({ type: "session.created", userId: owner.id, ids: { session_id: 11 } });
      await revokeGrant(handle.db, grantId);
      await revokeGrant(handle.db, grantId); // idempotent: no second event
      expect(await emit({ type: "session.updated", userId: owner.id, ids: { session_id: 11 } })).toBe(0);
      await deliverQueued();
      await receiver.waitFor(1);
      await deliverQueued();
      expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(["authorization.revoked"]);
      const types = (await eventsOf(application.id)).map((e) => e.type).sort();
      expect(types).toEqual(["authorization.revoked", "session.created"]);
      const statuses = await handle.db
        .select({ status: webhookDeliveries.status, type: webhookEvents.type })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(eq(webhookEvents.applicationId, application.id));
      expect(statuses.sort((a, b) => a.type.localeCompare(b.type))).toEqual([
        { type: "authorization.revoked", status: "succeeded" },
        { type: "session.created", status: "cancelled" },
      ]);
    } finally {
      await receiver.close();
    }
  });

  it("signs with both secrets during a rotation's overlap, and with the new one only after it", async () => {
    const { owner, application, receiver, endpoint, secret: oldSecret } = await setup();
    try {
      const { secret: newSecret } = await rotateEndpointSecret(handle.db, owner.id, application.id, endpoint.id, { overlapHours: 1 });
      await sendTestEvent(handle.db, owner.id, application.id, endpoint.id);
      await deliverQueued();
      await receiver.waitFor(1);
      const [during] = receiver.received;
      expect(during.headers["webhook-signature"].split(" ")).toHaveLength(2);
      expect(new Webhook(oldSecret).verify(during.body, during.headers)).toMatchObject({ type: "webhook.test" });
      expect(new Webhook(newSecret).verify(during.body, during.headers)).toMatchObject({ type: "webhook.test" });

      await rotateEndpointSecret(handle.db, owner.id, application.id, endpoint.id, { overlapHours: 0 });
      await sendTestEvent(handle.db, owner.id, application.id, endpoint.id);
      await deliverQueued();
      await receiver.waitFor(2);
      const after = receiver.received[1];
      expect(() => new Webhook(oldSecret).verify(after.body, after.headers)).toThrow();
      // The secret is stored encrypted: neither appears in the row.
      const [row] = await handle.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.publicId, endpoint.id));
      expect(JSON.stringify(row)).not.toContain(newSecret.slice(6, 30));
    } finally {
      await receiver.close();
    }
  });

  it("redelivers with the same webhook-id", async () => {
    const { owner, application, receiver, endpoint } = await setup();
    try {
      await emit({ type: "session.created", userId: owner.id, ids: { session_id: 12 } });
      await deliverQueued();
      await receiver.waitFor(1);
      const [first] = (await listDeliveries(handle.db, owner.id, application.id, [endpoint.id]))[endpoint.id];
      await redeliver(handle.db, owner.id, application.id, first.id);
      await deliverQueued();
      await receiver.waitFor(2);
      expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
      const stranger = await makeOwnerAndApp(handle.db);
      await expect(redeliver(handle.db, stranger.owner.id, application.id, first.id)).rejects.toThrow(/not found/);
    } finally {
      await receiver.close();
    }
  });
});

describe("events from the domain's own transactions", () => {
  it("an upload sends session.created and a deletion session.deleted, with the uploaded session's id", async () => {
    const { owner, application, receiver, secret } = await setup({ eventTypes: ["session.created", "session.deleted"] });
    try {
      const keyring = loadKeyring({});
      const track = await createTrack(handle.db, owner.id, { name: "Basin" });
      const athlete = await createAthlete(handle.db, owner.id, { name: "Ana", subscriptionActiveUntil: "2099-01-01" });
      const bytes = Buffer.from(encodeSvc(simulateSession({ vessel: "K1", distanceM: 200, seed: 7 }).content, keyring));
      const metadata = JSON.stringify({
        distance: 200,
        vessel_id: 1,
        track_id: track.id,
        category_id: 1,
        pace_id: 1,
        athletes: [athlete.id],
      });
      const user = (await getSessionUser(handle.db, owner.id))!;
      const uploaded = await uploadResult(
        handle.db,
        { user, createdVia: "api", keyPairId: null, file: { filename: "k1.svc", bytes }, metadata },
        { keyring },
      );
      await deleteResult(handle.db, user, uploaded.id);
      await deliverQueued();
      await receiver.waitFor(2);
      const bodies = receiver.received.map(
        (r) => new Webhook(secret).verify(r.body, r.headers) as { type: string; data: { session_id: number } },
      );
      expect(bodies.map((b) => [b.type, b.data.session_id]).sort()).toEqual([
        ["session.created", uploaded.id],
        ["session.deleted", uploaded.id],
      ]);
      expect((await eventsOf(application.id)).length).toBe(2);
    } finally {
      await receiver.close();
    }
  });

  it("a set correction and its undo each send one training.updated (ids only, trainings:read only, nothing when refused or rolled back); a reprocessing too", async () => {
    const keyring = loadKeyring({});
    const reader = await setup({ eventTypes: ["training.ready", "training.updated"] });
    // Another application the same person authorized without trainings:read, subscribed to the same types.
    const other = await makeOwnerAndApp(handle.db, { scopes: ["openid", "sessions:read", "trainings:read"] });
    const { endpoint: otherEndpoint } = await createEndpoint(handle.db, other.owner.id, other.application.id, {
      url: "http://127.0.0.1:9/hooks",
      eventTypes: ["training.ready", "training.updated"],
    });
    await issueAccessToken(handle.db, {
      userId: reader.owner.id,
      applicationId: other.application.id,
      clientId: other.application.clientId,
      scopes: ["openid", "sessions:read"],
      audience: AUDIENCE,
      lifetimeSeconds: 30 * 24 * 3600,
    });
    const typesOf = async (applicationId: number) => (await eventsOf(applicationId)).map((e) => e.type).sort();
    const deliveriesOf = (endpointPublicId: string) =>
      handle.db
        .select({ eventId: webhookDeliveries.eventId, type: webhookEvents.type })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(eq(webhookEndpoints.publicId, endpointPublicId));
    const setsOf = (trainingId: number) =>
      handle.db.select().from(trainingSets).where(eq(trainingSets.trainingId, trainingId)).orderBy(asc(trainingSets.position));
    try {
      const user = (await getSessionUser(handle.db, reader.owner.id))!;
      const { id } = await createProcessedTraining(handle.db, user, { spec: "4x250m/60s", seed: 4101, keyring });
      // The upload's queued processing run is taken away: another file's drain running it would be a reprocessing (training.updated).
      const queuedRuns = (
        await handle.db
          .select({ eventId: eventOutbox.eventId })
          .from(eventOutbox)
          .where(and(eq(eventOutbox.name, "training/stored"), sql`${eventOutbox.data}->>'trainingId' = ${String(id)}`))
      ).map((r) => r.eventId);
      expect(queuedRuns).toHaveLength(1);
      await handle.db.delete(eventOutbox).where(inArray(eventOutbox.eventId, queuedRuns));
      await handle.db.delete(jobRuns).where(inArray(jobRuns.eventId, queuedRuns));
      // The first processing is training.ready, not training.updated.
      expect(await typesOf(reader.application.id)).toEqual(["training.ready"]);

      const before = await setsOf(id);
      await correctTrainingSets(handle.db, user.id, id, { op: "merge", set_id: before[0].id, with_set_id: before[2].id }, { keyring });
      const updated = (await eventsOf(reader.application.id)).filter((e) => e.type === "training.updated");
      expect(updated).toHaveLength(1);
      const { sub } = await getSubjectIdentity(handle.db, reader.owner.id, reader.application.id);
      // Ids only: no sets, figures or heart rate.
      expect(updated[0].payload).toEqual({
        type: "training.updated",
        timestamp: expect.any(String),
        data: { subject: sub, training_id: id },
      });
      expect(payloadValidator("training.updated")(updated[0].payload)).toBe(true);
      expect((await deliveriesOf(reader.endpoint.id)).filter((d) => d.type === "training.updated")).toEqual([
        { eventId: updated[0].id, type: "training.updated" },
      ]);

      // Refused (not neighbours) and rolled back (a failure after every write): nothing is queued.
      const merged = await setsOf(id);
      const refused = await correctTrainingSets(
        handle.db,
        user.id,
        id,
        { op: "merge", set_id: merged[0].id, with_set_id: merged[4].id },
        { keyring },
      ).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe("invalid");
      await expect(
        correctTrainingSets(
          handle.db,
          user.id,
          id,
          { op: "merge", set_id: merged[2].id, with_set_id: merged[4].id },
          {
            keyring,
            afterWrites: async () => {
              throw new Error("disk full");
            },
          },
        ),
      ).rejects.toThrow("disk full");
      expect(await typesOf(reader.application.id)).toEqual(["training.ready", "training.updated"]);

      await undoSetCorrection(handle.db, user.id, id, { keyring });
      expect(await typesOf(reader.application.id)).toEqual(["training.ready", "training.updated", "training.updated"]);
      expect((await deliveriesOf(reader.endpoint.id)).filter((d) => d.type === "training.updated")).toHaveLength(2);

      // Processing the ready training again (a reprocessing run) replaces its sets: training.updated, not a second training.ready.
      expect((await processStoredTraining(handle.db, id, { keyring })).status).toBe("ready");
      expect(await typesOf(reader.application.id)).toEqual(["training.ready", "training.updated", "training.updated", "training.updated"]);

      // The grant without trainings:read heard of none of it.
      expect(await eventsOf(other.application.id)).toEqual([]);
      expect(await deliveriesOf(otherEndpoint.id)).toEqual([]);
    } finally {
      await reader.receiver.close();
    }
  }, 120_000);
});

describe("retries and disabling (injected clock)", () => {
  it("retries a failing endpoint with exponential backoff over about a day, then gives up", async () => {
    const { owner, receiver } = await setup({ respond: () => 500 });
    try {
      await emit({ type: "session.created", userId: owner.id, ids: { session_id: 21 } });
      const [delivery] = await handle.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(eq(webhookEvents.userId, owner.id));
      await withoutRuns([delivery.id]);
      const start = Date.now();
      let now = start;
      const times: number[] = [];
      for (;;) {
        times.push(now);
        const outcome = await attemptWebhookDelivery(handle.db, delivery.id, { now: () => new Date(now), jitter: () => 1 });
        if (outcome.state !== "retry") {
          expect(outcome).toEqual({ state: "failed", attempts: MAX_ATTEMPTS });
          break;
        }
        // Not due yet: asking again early sends nothing.
        expect(await attemptWebhookDelivery(handle.db, delivery.id, { now: () => new Date(now + 1000) })).toMatchObject({ state: "retry" });
        now = Date.parse(outcome.nextAttemptAt);
      }
      const gaps = times.slice(1).map((t, i) => t - times[i]);
      expect(gaps.every((gap, i) => i === 0 || gap >= gaps[i - 1])).toBe(true);
      const spanHours = (times.at(-1)! - start) / 3_600_000;
      expect(spanHours).toBeGreaterThan(20);
      expect(spanHours).toBeLessThan(30);
      expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
      expect(new Set(receiver.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
      const [row] = await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
      expect(row).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, lastResponseStatus: 500, lastError: "HTTP 500" });
    } finally {
      await receiver.close();
    }
  });

  it("disables an endpoint that failed for 5 days, tells the owner why, and sends nothing more to it", async () => {
    const { owner, application, receiver, endpoint } = await setup({ respond: () => 503 });
    try {
      const start = Date.now();
      const day = 24 * 3_600_000;
      const attemptNewEvent = async (at: number) => {
        await sendTestEvent(handle.db, owner.id, application.id, endpoint.id);
        const [latest] = (await listDeliveries(handle.db, owner.id, application.id, [endpoint.id], 1))[endpoint.id];
        await withoutRuns([latest.id]);
        return attemptWebhookDelivery(handle.db, latest.id, { now: () => new Date(at), jitter: () => 1 });
      };
      for (let d = 0; d < 5; d++) expect((await attemptNewEvent(start + d * day)).state).toBe("retry");
      expect((await listEndpoints(handle.db, owner.id, application.id))[0].disabledAt).toBeNull();
      expect(await attemptNewEvent(start + DISABLE_AFTER_MS)).toMatchObject({ state: "failed" });
      const [disabled] = await listEndpoints(handle.db, owner.id, application.id);
      expect(disabled.disabledAt).not.toBeNull();
      expect(disabled.disabledReason).toMatch(/failed for 5 days.*HTTP 503/);
      const sent = receiver.received.length;
      expect(await emit({ type: "session.created", userId: owner.id, ids: { session_id: 22 } })).toBe(0);
      // A delivery queued before the disable ends without a request.
      const [older] = await handle.db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(
          inArray(
            webhookDeliveries.endpointId,
            handle.db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.publicId, endpoint.id)),
          ),
        )
        .limit(1);
      expect(await attemptWebhookDelivery(handle.db, older.id, { now: () => new Date(start + 6 * day) })).toMatchObject({
        state: "failed",
      });
      expect(receiver.received).toHaveLength(sent);
    } finally {
      await receiver.close();
    }
  });
});

describe("history", () => {
  it("keeps events and their deliveries 30 days, then housekeeping deletes them", async () => {
    const { owner, application, receiver, endpoint } = await setup();
    try {
      await sendTestEvent(handle.db, owner.id, application.id, endpoint.id);
      await sendTestEvent(handle.db, owner.id, application.id, endpoint.id);
      const [older, newer] = (await eventsOf(application.id)).sort((a, b) => a.id - b.id);
      await handle.db
        .update(webhookEvents)
        .set({ createdAt: new Date(Date.now() - 31 * 24 * 3_600_000) })
        .where(eq(webhookEvents.id, older.id));
      await sweepExpiredState(handle.db);
      expect((await eventsOf(application.id)).map((e) => e.id)).toEqual([newer.id]);
      expect(await handle.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, older.id))).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe("endpoint URLs", () => {
  it("need https in a deployment; plain http only to loopback in a local run; never private or link-local literals", () => {
    expect(checkEndpointUrl("https://hooks.example.com/in", false)).toBe("https://hooks.example.com/in");
    expect(() => checkEndpointUrl("http://hooks.example.com/in", false)).toThrow(/https/);
    expect(() => checkEndpointUrl("http://127.0.0.1:9000/in", false)).toThrow(/loopback/);
    expect(checkEndpointUrl("http://127.0.0.1:9000/in", true)).toBe("http://127.0.0.1:9000/in");
    expect(() => checkEndpointUrl("https://169.254.169.254/latest", true)).toThrow(/linkLocal/);
    expect(() => checkEndpointUrl("https://10.0.0.1/", true)).toThrow(/private/);
    expect(() => checkEndpointUrl("https://[::ffff:10.0.0.1]/", true)).toThrow(/private/);
    expect(() => checkEndpointUrl("https://user:pw@hooks.example.com/", true)).toThrow(/password/);
    expect(() => checkEndpointUrl("ftp://hooks.example.com/", true)).toThrow(/https/);
    expect(() => checkEndpointUrl("not a url\u0000", true)).toThrow(/absolute URL/);
  });

  it("belong to the application's owner only", async () => {
    const { application } = await setup();
    const stranger = await makeOwnerAndApp(handle.db);
    await expect(listEndpoints(handle.db, stranger.owner.id, application.id)).rejects.toThrow(/not found/);
    await expect(
      createEndpoint(handle.db, stranger.owner.id, application.id, { url: "https://x.example/", eventTypes: ["session.created"] }),
    ).rejects.toThrow(/not found/);
  });
});
