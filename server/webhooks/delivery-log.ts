import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { literalLimit } from "../db/literal-limit";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, type HeaderPair } from "../db/schema";
import { notFound } from "../errors";
import { ownedApplicationId } from "./endpoints";
import { TEST_EVENT_TYPE, webhookEventTypeNames } from "./event-types";
import { KEEP_WEBHOOK_EVENTS_MS } from "./sweep";

/**
 * What the portal's delivery log reads (docs/webhooks.md "The delivery log"):
 * an application's deliveries filtered by event type, status and endpoint,
 * each delivery's attempts, and the application's events with their
 * deliveries. Every function takes the owner's user id: another person's
 * application is the same not-found as a missing one.
 */
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "cancelled"] as const;
export const LOG_EVENT_TYPES = [...webhookEventTypeNames, TEST_EVENT_TYPE] as string[] as [string, ...string[]];
export const LOG_PAGE_SIZE = 25;
/** Whole days the log keeps, from the constant the housekeeping sweep deletes by. */
export const LOG_RETENTION_DAYS = Math.round(KEEP_WEBHOOK_EVENTS_MS / (24 * 3_600_000));

export const ZDeliveryLogFilters = z.object({
  eventType: z.enum(LOG_EVENT_TYPES).optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  endpointId: z.string().min(1).max(64).optional(),
  /** Keyset: deliveries (or events) older than this id. */
  before: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
export type DeliveryLogFilters = z.infer<typeof ZDeliveryLogFilters>;

export interface DeliveryLogRow {
  id: number;
  eventType: string;
  messageId: string;
  endpoint: { id: string; url: string };
  status: string;
  attempts: number;
  lastResponseStatus: number | null;
  lastDurationMs: number | null;
  /** Why the last attempt failed (or why the delivery was not sent), in words; null after a 2xx or before the first attempt. */
  lastError: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Words for the delivery-level outcomes that send no request (deliver.ts `finish`). */
function outcomeWords(status: string, deliveryError: string | null, attemptError: string | null): string | null {
  if (status === "cancelled") return "Cancelled, not sent: the person's authorization of this application is no longer active.";
  if (deliveryError === "endpoint disabled") return "Not sent: the endpoint was disabled.";
  if (status === "succeeded") return null;
  return attemptError ?? deliveryError;
}

/** One page of the application's deliveries, newest first; `nextBefore` continues it. */
export async function listDeliveryLog(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  filters: DeliveryLogFilters = {},
): Promise<{ deliveries: DeliveryLogRow[]; nextBefore: number | null }> {
  const { eventType, status, endpointId, before } = ZDeliveryLogFilters.parse(filters);
  await ownedApplicationId(db, ownerUserId, applicationId);
  const where: (SQL | undefined)[] = [
    eq(webhookEndpoints.applicationId, applicationId),
    eventType ? eq(webhookEvents.type, eventType) : undefined,
    status ? eq(webhookDeliveries.status, status) : undefined,
    endpointId ? eq(webhookEndpoints.publicId, endpointId) : undefined,
    before ? lt(webhookDeliveries.id, before) : undefined,
  ];
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      eventType: webhookEvents.type,
      messageId: webhookEvents.messageId,
      endpointId: webhookEndpoints.publicId,
      endpointUrl: webhookEndpoints.url,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastResponseStatus: webhookDeliveries.lastResponseStatus,
      lastDurationMs: webhookDeliveries.lastLatencyMs,
      deliveryError: webhookDeliveries.lastError,
      attemptError: sql<
        string | null
      >`(select ${webhookAttempts.error} from ${webhookAttempts} where ${webhookAttempts.deliveryId} = ${webhookDeliveries.id} order by ${webhookAttempts.id} desc limit 1)`,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      deliveredAt: webhookDeliveries.deliveredAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(...where))
    .orderBy(desc(webhookDeliveries.id))
    .limit(literalLimit(LOG_PAGE_SIZE + 1));
  const page = rows.slice(0, LOG_PAGE_SIZE);
  return {
    deliveries: page.map((r) => ({
      id: r.id,
      eventType: r.eventType,
      messageId: r.messageId,
      endpoint: { id: r.endpointId, url: r.endpointUrl },
      status: r.status,
      attempts: r.attempts,
      lastResponseStatus: r.lastResponseStatus,
      lastDurationMs: r.lastDurationMs,
      lastError: outcomeWords(r.status, r.deliveryError, r.attemptError),
      nextAttemptAt: r.status === "pending" ? iso(r.nextAttemptAt) : null,
      deliveredAt: iso(r.deliveredAt),
      createdAt: r.createdAt.toISOString(),
    })),
    nextBefore: rows.length > LOG_PAGE_SIZE ? page[page.length - 1].id : null,
  };
}

export interface AttemptView {
  number: number;
  startedAt: string;
  durationMs: number;
  request: { url: string; headers: HeaderPair[]; body: string };
  response: {
    status: number;
    url: string | null;
    headers: HeaderPair[];
    /** Text as received, or for bytes that are not text a hex dump of the first 256. */
    body: string;
    bodyKind: "text" | "binary";
    /** Bytes kept (at most 4 KiB). */
    bodyBytes: number;
    truncated: boolean;
  } | null;
  error: { code: string; words: string; detail: string | null } | null;
}

function hexDump(bytes: Buffer): string {
  const lines: string[] = [];
  for (let offset = 0; offset < Math.min(bytes.length, 256); offset += 16) {
    const row = bytes.subarray(offset, offset + 16);
    lines.push(`${offset.toString(16).padStart(4, "0")}  ${[...row].map((b) => b.toString(16).padStart(2, "0")).join(" ")}`);
  }
  return lines.join("\n");
}

/** A delivery's attempts, oldest first, with the request as sent and what came back. */
export async function getDeliveryAttempts(db: Db, ownerUserId: number, applicationId: number, deliveryId: number): Promise<AttemptView[]> {
  await ownedApplicationId(db, ownerUserId, applicationId);
  const [delivery] = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookEndpoints.applicationId, applicationId)));
  if (!delivery) throw notFound("Delivery");
  const rows = await db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, deliveryId))
    .orderBy(webhookAttempts.id)
    .limit(literalLimit(100));
  return rows.map((a) => {
    const bytes = a.responseBodyKind === "binary" ? Buffer.from(a.responseBody ?? "", "base64") : Buffer.from(a.responseBody ?? "", "utf8");
    return {
      number: a.attemptNumber,
      startedAt: a.startedAt.toISOString(),
      durationMs: a.durationMs,
      request: { url: a.requestUrl, headers: a.requestHeaders, body: a.requestBody },
      response:
        a.responseStatus === null
          ? null
          : {
              status: a.responseStatus,
              url: a.finalUrl,
              headers: a.responseHeaders ?? [],
              body: a.responseBodyKind === "binary" ? hexDump(bytes) : (a.responseBody ?? ""),
              bodyKind: a.responseBodyKind ?? "text",
              bodyBytes: bytes.length,
              truncated: a.responseBodyTruncated,
            },
      error: a.errorCode && a.error ? { code: a.errorCode, words: a.error, detail: a.errorDetail } : null,
    };
  });
}

export interface EventLogRow {
  messageId: string;
  type: string;
  createdAt: string;
  /** The exact JSON every delivery of this event carries. */
  payload: string;
  deliveries: { id: number; endpoint: { id: string; url: string }; status: string; attempts: number; lastResponseStatus: number | null }[];
}

/** One page of the application's events, newest first, each with its deliveries (none when no endpoint received it). */
export async function listApplicationEvents(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  filters: Pick<DeliveryLogFilters, "eventType" | "before"> = {},
): Promise<{ events: EventLogRow[]; nextBefore: number | null }> {
  const { eventType, before } = ZDeliveryLogFilters.pick({ eventType: true, before: true }).parse(filters);
  await ownedApplicationId(db, ownerUserId, applicationId);
  const rows = await db
    .select({
      id: webhookEvents.id,
      messageId: webhookEvents.messageId,
      type: webhookEvents.type,
      payload: webhookEvents.payload,
      createdAt: webhookEvents.createdAt,
    })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.applicationId, applicationId),
        eventType ? eq(webhookEvents.type, eventType) : undefined,
        before ? lt(webhookEvents.id, before) : undefined,
      ),
    )
    .orderBy(desc(webhookEvents.id))
    .limit(literalLimit(LOG_PAGE_SIZE + 1));
  const page = rows.slice(0, LOG_PAGE_SIZE);
  const deliveries = page.length
    ? await db
        .select({
          id: webhookDeliveries.id,
          eventId: webhookDeliveries.eventId,
          endpointId: webhookEndpoints.publicId,
          endpointUrl: webhookEndpoints.url,
          status: webhookDeliveries.status,
          attempts: webhookDeliveries.attempts,
          lastResponseStatus: webhookDeliveries.lastResponseStatus,
        })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(
          inArray(
            webhookDeliveries.eventId,
            page.map((e) => e.id),
          ),
        )
        .orderBy(webhookDeliveries.id)
    : [];
  return {
    events: page.map((e) => ({
      messageId: e.messageId,
      type: e.type,
      createdAt: e.createdAt.toISOString(),
      payload: JSON.stringify(e.payload),
      deliveries: deliveries
        .filter((d) => d.eventId === e.id)
        .map((d) => ({
          id: d.id,
          endpoint: { id: d.endpointId, url: d.endpointUrl },
          status: d.status,
          attempts: d.attempts,
          lastResponseStatus: d.lastResponseStatus,
        })),
    })),
    nextBefore: rows.length > LOG_PAGE_SIZE ? page[page.length - 1].id : null,
  };
}
