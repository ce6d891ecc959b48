import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import { getEnv } from "../config/env";
import type { Db } from "../db/client";
import { oauthGrants, webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema";
import { recordAttempt, type SentRequest } from "./attempt-log";
import { TEST_EVENT_TYPE } from "./event-types";
import { safePost, type Resolver, type SafePostResult } from "./safe-post";
import { decryptSecret, signatureHeader } from "./secrets";

/**
 * Retry schedule after the first attempt (Standard Webhooks' example
 * schedule): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h — 8 attempts over
 * about 27 hours. ±10 % jitter keeps a recovering endpoint from a stampede.
 */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An endpoint whose deliveries have failed without a success for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

export interface DeliveryDeps {
  now?: () => Date;
  resolver?: Resolver;
  /** Default: WEBHOOK_ALLOW_LOOPBACK. */
  allowLoopback?: boolean;
  /** Default ±10 %; tests pass () => 1. */
  jitter?: () => number;
  timeoutMs?: number;
}

export type AttemptOutcome =
  { state: "succeeded" | "failed" | "cancelled"; attempts: number } | { state: "retry"; attempts: number; nextAttemptAt: string };

/**
 * One delivery attempt (the endpoint's dispatcher, server/webhooks/dispatch.ts,
 * calls it for each delivery it claimed): signs the event's stored payload with the endpoint's secret(s),
 * POSTs it, and records the outcome. The `webhook-id` is the event's message
 * id, the same on every attempt and redelivery, so a consumer deduplicates
 * by it (at-least-once: an attempt interrupted by a crash runs again).
 */
export async function attemptWebhookDelivery(db: Db, deliveryId: number, deps: DeliveryDeps = {}): Promise<AttemptOutcome> {
  const now = (deps.now ?? (() => new Date()))();
  const [row] = await db
    .select({ delivery: webhookDeliveries, event: webhookEvents, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row) return { state: "cancelled", attempts: 0 };
  const { delivery, event, endpoint } = row;
  if (delivery.status !== "pending") return { state: delivery.status, attempts: delivery.attempts };
  // A step repeated after a crash that followed a recorded failure: wait for the recorded next attempt.
  if (delivery.attempts > 0 && delivery.nextAttemptAt && delivery.nextAttemptAt > now) {
    return { state: "retry", attempts: delivery.attempts, nextAttemptAt: delivery.nextAttemptAt.toISOString() };
  }
  if (endpoint.disabledAt) return finish(db, deliveryId, "failed", delivery.attempts, "endpoint disabled");
  // authorization.revoked is the last event of a grant; nothing else goes out once it is revoked.
  if (
    event.type !== "authorization.revoked" &&
    event.type !== TEST_EVENT_TYPE &&
    !(await hasActiveGrant(db, event.userId, event.applicationId, now))
  ) {
    return finish(db, deliveryId, "cancelled", delivery.attempts, "grant no longer active");
  }

  const secrets = [await decryptSecret(db, endpoint.secretCiphertext)];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(await decryptSecret(db, endpoint.previousSecretCiphertext));
  }
  const body = JSON.stringify(event.payload);
  const timestamp = Math.floor(now.getTime() / 1000);
  const request = {
    headers: {
      "content-type": "application/json",
      "user-agent": "PaddleResults-Webhooks/1",
      "webhook-id": event.messageId,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signatureHeader(secrets, event.messageId, timestamp, body),
    },
    body,
  };
  const result = await safePost(endpoint.url, request, {
    resolver: deps.resolver,
    allowLoopback: deps.allowLoopback ?? getEnv().WEBHOOK_ALLOW_LOOPBACK,
    timeoutMs: deps.timeoutMs,
  });
  return record(db, {
    request: { url: endpoint.url, ...request },
    deliveryId,
    endpointId: endpoint.id,
    attempts: delivery.attempts + 1,
    result,
    now,
    jitter: deps.jitter ?? (() => 0.9 + Math.random() * 0.2),
  });
}

async function hasActiveGrant(db: Db, userId: number | null, applicationId: number, now: Date): Promise<boolean> {
  if (userId === null) return false;
  const [grant] = await db
    .select({ id: oauthGrants.grantId })
    .from(oauthGrants)
    .where(
      and(
        eq(oauthGrants.userId, userId),
        eq(oauthGrants.applicationId, applicationId),
        isNull(oauthGrants.revokedAt),
        gt(oauthGrants.expiresAt, now),
      ),
    )
    .limit(1);
  return Boolean(grant);
}

async function finish(
  db: Db,
  deliveryId: number,
  state: "failed" | "cancelled",
  attempts: number,
  reason: string,
): Promise<AttemptOutcome> {
  await db
    .update(webhookDeliveries)
    .set({ status: state, lastError: reason, nextAttemptAt: null })
    .where(eq(webhookDeliveries.id, deliveryId));
  return { state, attempts };
}

async function record(
  db: Db,
  input: {
    deliveryId: number;
    endpointId: number;
    attempts: number;
    result: SafePostResult;
    now: Date;
    jitter: () => number;
    request: SentRequest;
  },
): Promise<AttemptOutcome> {
  const { deliveryId, endpointId, attempts, result, now } = input;
  const seen = { attempts, lastResponseStatus: result.status, lastLatencyMs: result.latencyMs, lastAttemptAt: now };
  return db.transaction(async (tx) => {
    await recordAttempt(tx, { deliveryId, attemptNumber: attempts, startedAt: now, request: input.request, result });
    if (result.ok) {
      await tx
        .update(webhookDeliveries)
        .set({ ...seen, status: "succeeded", lastError: null, deliveredAt: now, nextAttemptAt: null })
        .where(eq(webhookDeliveries.id, deliveryId));
      // Only when set: the common case writes (and locks) no endpoint row.
      await tx
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(and(eq(webhookEndpoints.id, endpointId), isNotNull(webhookEndpoints.failingSince)));
      return { state: "succeeded", attempts };
    }
    const [endpoint] = await tx
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)` })
      .where(eq(webhookEndpoints.id, endpointId))
      .returning({ failingSince: webhookEndpoints.failingSince, disabledAt: webhookEndpoints.disabledAt });
    const failingFor = endpoint?.failingSince ? now.getTime() - endpoint.failingSince.getTime() : 0;
    let disabled = Boolean(endpoint?.disabledAt);
    if (!disabled && failingFor >= DISABLE_AFTER_MS) {
      disabled = true;
      const reason =
        `Deliveries failed for 5 days without a success (since ${endpoint!.failingSince!.toISOString()}); last error: ${result.error}`.slice(
          0,
          500,
        );
      await tx
        .update(webhookEndpoints)
        .set({ disabledAt: now, disabledReason: reason, updatedAt: now })
        .where(eq(webhookEndpoints.id, endpointId));
    }
    if (disabled || attempts >= MAX_ATTEMPTS) {
      await tx
        .update(webhookDeliveries)
        .set({ ...seen, status: "failed", lastError: result.error.slice(0, 500), nextAttemptAt: null })
        .where(eq(webhookDeliveries.id, deliveryId));
      return { state: "failed", attempts };
    }
    const nextAttemptAt = new Date(now.getTime() + Math.round(RETRY_DELAYS_MS[attempts - 1] * input.jitter()));
    await tx
      .update(webhookDeliveries)
      .set({ ...seen, lastError: result.error.slice(0, 500), nextAttemptAt })
      .where(eq(webhookDeliveries.id, deliveryId));
    return { state: "retry", attempts, nextAttemptAt: nextAttemptAt.toISOString() };
  });
}
