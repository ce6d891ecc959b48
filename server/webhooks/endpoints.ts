import { and, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { randomBase62 } from "../auth/random-base62";
import { getEnv } from "../config/env";
import type { Db } from "../db/client";
import { oauthApplications, webhookDeliveries, webhookEndpoints, webhookEvents } from "../db/schema";
import { AppError, notFound } from "../errors";
import { exampleWebhookPayload, TEST_EVENT_TYPE, webhookEventTypeNames } from "./event-types";
import { newMessageId, queueDeliveries } from "./emit-event";
import { addressProblem } from "./safe-post";
import { encryptSecret, newSigningSecret, secretStart } from "./secrets";
import ipaddr from "ipaddr.js";

/**
 * Webhook endpoints of an application, managed by its owner in the portal
 * (docs/webhooks.md). Every function takes the owner's user id: another
 * person's application or endpoint is the same 404 as a missing one.
 */
export const MAX_ENDPOINTS_PER_APPLICATION = 10;
/** How long the previous secret keeps signing after a rotation, by default. */
export const DEFAULT_ROTATION_OVERLAP_HOURS = 24;

export const ZEndpointInput = z.object({
  url: z.string().trim().min(1, "Enter a URL").max(2000, "At most 2,000 characters"),
  eventTypes: z
    .array(z.enum(webhookEventTypeNames as [string, ...string[]]))
    .min(1, "Choose at least one event type")
    .max(webhookEventTypeNames.length),
});
export type EndpointInput = z.infer<typeof ZEndpointInput>;

/**
 * HTTPS to a public host; plain HTTP, and loopback hosts, only when
 * WEBHOOK_ALLOW_LOOPBACK is set (a local run). An IP literal is checked now;
 * a name is checked after resolution at every delivery (DNS may change).
 */
const invalidUrl = (message: string) => new AppError("invalid", message, { url: [message] });

/**
 * The one answer to a URL on the developer's own machine or without https
 * (issue 30 §1): what is allowed, and the two ways to receive events locally.
 */
export const LOCAL_WEBHOOKS_HELP =
  "Use a public https:// URL. To receive webhooks on your own machine (http://localhost or http://127.0.0.1), " +
  "run this server locally with WEBHOOK_ALLOW_LOOPBACK=1 and a loopback APP_URL (npm run quickstart sets both), " +
  "or forward this application's events with `npx paddle-results listen` (docs/webhooks.md, “Local development”)";
const LOOPBACK_HTTP_ONLY =
  "Use a public https:// URL; plain http:// is allowed only to this machine (http://localhost, http://127.0.0.1 or http://[::1])";

/** The endpoint form's hint: what this server accepts, and how to receive events on one's own machine. */
export function endpointUrlHint(allowLoopback = getEnv().WEBHOOK_ALLOW_LOOPBACK): string {
  return allowLoopback
    ? "A public https:// URL, or on this machine http://localhost:PORT/… or http://127.0.0.1:PORT/… (WEBHOOK_ALLOW_LOOPBACK=1 on this local server). Never private or link-local addresses."
    : `${LOCAL_WEBHOOKS_HELP}.`;
}

export function checkEndpointUrl(raw: string, allowLoopback = getEnv().WEBHOOK_ALLOW_LOOPBACK): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl("Enter an absolute URL such as https://example.com/webhooks");
  }
  if (url.username || url.password) throw invalidUrl("The URL must not contain a user name or password");
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalidUrl(allowLoopback ? LOOPBACK_HTTP_ONLY : LOCAL_WEBHOOKS_HELP);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = ipaddr.isValid(host);
  const loopback = host === "localhost" || host.endsWith(".localhost") || (literal && ipaddr.process(host).range() === "loopback");
  if (loopback && !allowLoopback) throw invalidUrl(LOCAL_WEBHOOKS_HELP);
  if (literal) {
    const problem = addressProblem(host, allowLoopback);
    if (problem) throw invalidUrl(`Webhooks cannot be sent here: ${problem}`);
  }
  if (url.protocol === "http:" && !loopback) throw invalidUrl(allowLoopback ? LOOPBACK_HTTP_ONLY : LOCAL_WEBHOOKS_HELP);
  url.hash = "";
  return url.toString();
}

export interface EndpointView {
  id: string;
  url: string;
  eventTypes: string[];
  secretStart: string;
  previousSecretExpiresAt: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  createdAt: Date;
}

const endpointColumns = {
  id: webhookEndpoints.publicId,
  url: webhookEndpoints.url,
  eventTypes: webhookEndpoints.eventTypes,
  secretStart: webhookEndpoints.secretStart,
  previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
  disabledAt: webhookEndpoints.disabledAt,
  disabledReason: webhookEndpoints.disabledReason,
  createdAt: webhookEndpoints.createdAt,
};

export async function ownedApplicationId(db: Db, ownerUserId: number, applicationId: number): Promise<number> {
  const [app] = await db
    .select({ id: oauthApplications.id })
    .from(oauthApplications)
    .where(and(eq(oauthApplications.id, applicationId), eq(oauthApplications.ownerUserId, ownerUserId)));
  if (!app) throw notFound("Application");
  return app.id;
}

async function ownedEndpoint(db: Db, ownerUserId: number, applicationId: number, endpointId: string) {
  await ownedApplicationId(db, ownerUserId, applicationId);
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.publicId, endpointId), eq(webhookEndpoints.applicationId, applicationId)));
  if (!endpoint) throw notFound("Webhook endpoint");
  return endpoint.id;
}

export async function listEndpoints(db: Db, ownerUserId: number, applicationId: number): Promise<EndpointView[]> {
  await ownedApplicationId(db, ownerUserId, applicationId);
  return db
    .select(endpointColumns)
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.applicationId, applicationId))
    .orderBy(webhookEndpoints.id);
}

/** Adds an endpoint; the returned secret is the only time it is shown. */
export async function createEndpoint(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  input: EndpointInput,
): Promise<{ endpoint: EndpointView; secret: string }> {
  const { url, eventTypes } = ZEndpointInput.parse(input);
  const checkedUrl = checkEndpointUrl(url);
  await ownedApplicationId(db, ownerUserId, applicationId);
  const count = await db.$count(webhookEndpoints, eq(webhookEndpoints.applicationId, applicationId));
  if (count >= MAX_ENDPOINTS_PER_APPLICATION)
    throw new AppError("conflict", `An application has at most ${MAX_ENDPOINTS_PER_APPLICATION} webhook endpoints`);
  const secret = newSigningSecret();
  const [endpoint] = await db
    .insert(webhookEndpoints)
    .values({
      publicId: `we_${randomBase62(20)}`,
      applicationId,
      url: checkedUrl,
      eventTypes: [...new Set(eventTypes)].sort(),
      secretCiphertext: await encryptSecret(db, secret),
      secretStart: secretStart(secret),
    })
    .returning(endpointColumns);
  return { endpoint, secret };
}

/** Changes the URL and event types; `enabled: true` re-enables an endpoint that was disabled (and starts its failure clock again). */
export async function updateEndpoint(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  endpointId: string,
  input: Partial<EndpointInput> & { enabled?: boolean },
): Promise<void> {
  const id = await ownedEndpoint(db, ownerUserId, applicationId, endpointId);
  const parsed = ZEndpointInput.partial().parse(input);
  const now = new Date();
  await db
    .update(webhookEndpoints)
    .set({
      ...(parsed.url !== undefined ? { url: checkEndpointUrl(parsed.url) } : {}),
      ...(parsed.eventTypes ? { eventTypes: [...new Set(parsed.eventTypes)].sort() } : {}),
      ...(input.enabled === true ? { disabledAt: null, disabledReason: null, failingSince: null } : {}),
      ...(input.enabled === false ? { disabledAt: now, disabledReason: "Disabled by the owner" } : {}),
      updatedAt: now,
    })
    .where(eq(webhookEndpoints.id, id));
}

export async function deleteEndpoint(db: Db, ownerUserId: number, applicationId: number, endpointId: string): Promise<void> {
  const id = await ownedEndpoint(db, ownerUserId, applicationId, endpointId);
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}

/**
 * A new signing secret, shown once. The previous one keeps signing (a second
 * signature in `webhook-signature`) for `overlapHours`, so the consumer can
 * switch without missing an event.
 */
export async function rotateEndpointSecret(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  endpointId: string,
  options: { overlapHours?: number; now?: Date } = {},
): Promise<{ secret: string; previousSecretExpiresAt: Date }> {
  const id = await ownedEndpoint(db, ownerUserId, applicationId, endpointId);
  const overlapHours = z
    .number()
    .int()
    .min(0)
    .max(168)
    .parse(options.overlapHours ?? DEFAULT_ROTATION_OVERLAP_HOURS);
  const now = options.now ?? new Date();
  const secret = newSigningSecret();
  const previousSecretExpiresAt = new Date(now.getTime() + overlapHours * 3_600_000);
  const ciphertext = await encryptSecret(db, secret);
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ ciphertext: webhookEndpoints.secretCiphertext })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id))
      .for("update");
    await tx
      .update(webhookEndpoints)
      .set({
        secretCiphertext: ciphertext,
        secretStart: secretStart(secret),
        previousSecretCiphertext: current.ciphertext,
        previousSecretExpiresAt,
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, id));
  });
  return { secret, previousSecretExpiresAt };
}

/** "Send test event": a `webhook.test` event to this endpoint only, delivered like any other. */
export async function sendTestEvent(db: Db, ownerUserId: number, applicationId: number, endpointId: string): Promise<void> {
  const id = await ownedEndpoint(db, ownerUserId, applicationId, endpointId);
  const now = new Date();
  await db.transaction(async (tx) => {
    const payload = { ...exampleWebhookPayload(TEST_EVENT_TYPE), timestamp: now.toISOString() };
    const [event] = await tx
      .insert(webhookEvents)
      .values({ messageId: newMessageId(), applicationId, userId: null, type: TEST_EVENT_TYPE, payload, createdAt: now })
      .returning({ id: webhookEvents.id });
    await queueDeliveries(tx, event.id, [id], now);
  });
}

export interface DeliveryView {
  id: number;
  eventType: string;
  messageId: string;
  status: string;
  attempts: number;
  lastResponseStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

/** An endpoint's recent deliveries, newest first. */
export async function listDeliveries(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  endpointIds: string[],
  limit = 20,
): Promise<Record<string, DeliveryView[]>> {
  await ownedApplicationId(db, ownerUserId, applicationId);
  const result: Record<string, DeliveryView[]> = {};
  if (!endpointIds.length) return result;
  const endpoints = await db
    .select({ id: webhookEndpoints.id, publicId: webhookEndpoints.publicId })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.applicationId, applicationId), inArray(webhookEndpoints.publicId, endpointIds)));
  for (const endpoint of endpoints) {
    result[endpoint.publicId] = await db
      .select({
        id: webhookDeliveries.id,
        eventType: webhookEvents.type,
        messageId: webhookEvents.messageId,
        status: webhookDeliveries.status,
        attempts: webhookDeliveries.attempts,
        lastResponseStatus: webhookDeliveries.lastResponseStatus,
        lastLatencyMs: webhookDeliveries.lastLatencyMs,
        lastError: webhookDeliveries.lastError,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        createdAt: webhookDeliveries.createdAt,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
      .orderBy(desc(webhookDeliveries.id))
      .limit(limit);
  }
  return result;
}

/** Sends a delivery's event again to its endpoint: a new delivery with the same `webhook-id`. */
export async function redeliver(db: Db, ownerUserId: number, applicationId: number, deliveryId: number): Promise<void> {
  await ownedApplicationId(db, ownerUserId, applicationId);
  const [delivery] = await db
    .select({ eventId: webhookDeliveries.eventId, endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookEndpoints.applicationId, applicationId)));
  if (!delivery) throw notFound("Delivery");
  await db.transaction((tx) => queueDeliveries(tx, delivery.eventId, [delivery.endpointId]));
}
