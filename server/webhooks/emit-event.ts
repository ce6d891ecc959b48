import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import { getOrCreateAppSecret } from "../auth/app-secrets";
import { randomBase62 } from "../auth/random-base62";
import { pairwiseSubject, sectorOf } from "../auth/oauth/pairwise";
import type { Db } from "../db/client";
import {
  deviceJobs,
  exportJobs,
  oauthApplications,
  oauthGrants,
  results,
  trainings,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from "../db/schema";
import { requestDispatch } from "./dispatch";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType, type WebhookResourceIds } from "./event-types";

export interface WebhookEmission {
  type: WebhookEventType;
  /** The person whose data changed: the subject of the grants that may receive it. */
  userId: number;
  ids: WebhookResourceIds;
  /** The application that created the session or training (the session surface sees only its own). */
  createdByApplicationId?: number | null;
  /** Only this application may receive it (an export or device job it requested, a grant of its own). */
  onlyApplicationId?: number | null;
  now?: Date;
}

export const newMessageId = () => `msg_${randomBase62(27)}`;

/**
 * Emits a webhook event from inside the transaction of the change it reports
 * (docs/webhooks.md). Picks the applications that may hear of it — an
 * active grant from the subject, a granted scope that reads the resource, on
 * the session surface only what the application created — and writes, in
 * `tx`, one `webhook_events` row per application (its payload, with that
 * application's pairwise `sub`, whether or not it has endpoints: the event
 * list and `listen` read them), one delivery per subscribed endpoint, and an
 * outbox event per delivery. A rolled-back change leaves none of them; a
 * committed one loses none. Returns the number of deliveries queued.
 */
export async function emitWebhookEvent(tx: Db, emission: WebhookEmission): Promise<number> {
  const now = emission.now ?? new Date();
  const rule = WEBHOOK_EVENT_TYPES[emission.type];
  const rows = await tx
    .select({
      endpointId: webhookEndpoints.id,
      applicationId: oauthApplications.id,
      clientId: oauthApplications.clientId,
      redirectUris: oauthApplications.redirectUris,
      surface: oauthApplications.surface,
      scopes: oauthGrants.scopes,
    })
    .from(oauthGrants)
    .innerJoin(oauthApplications, eq(oauthApplications.id, oauthGrants.applicationId))
    // Every application that may hear of it gets the event (the portal's event list, `paddle-results listen`), endpoints or not.
    .leftJoin(
      webhookEndpoints,
      and(
        eq(webhookEndpoints.applicationId, oauthApplications.id),
        isNull(webhookEndpoints.disabledAt),
        sql`${emission.type} = any(${webhookEndpoints.eventTypes})`,
      ),
    )
    .where(
      and(
        eq(oauthGrants.userId, emission.userId),
        isNull(oauthGrants.revokedAt),
        gt(oauthGrants.expiresAt, sql`${now.toISOString()}::timestamptz`),
        inArray(oauthApplications.reviewStatus, ["not_required", "approved"]),
        emission.onlyApplicationId != null ? eq(oauthApplications.id, emission.onlyApplicationId) : undefined,
      ),
    );
  if (!rows.length) return 0;

  const byApp = new Map<number, { app: (typeof rows)[number]; scopes: Set<string>; endpoints: Set<number> }>();
  for (const row of rows) {
    const entry = byApp.get(row.applicationId) ?? { app: row, scopes: new Set<string>(), endpoints: new Set<number>() };
    row.scopes.forEach((s) => entry.scopes.add(s));
    if (row.endpointId !== null) entry.endpoints.add(row.endpointId);
    byApp.set(row.applicationId, entry);
  }
  const pairwiseKey = await getOrCreateAppSecret(tx, "oauth:pairwise");
  let queued = 0;
  for (const { app, scopes, endpoints } of byApp.values()) {
    if (rule.scope && !scopes.has(rule.scope)) continue;
    // The session surface reads only sessions and trainings the application created (data-api.md "Three surfaces").
    if (
      app.surface === "session" &&
      (rule.resource === "session" || rule.resource === "training") &&
      emission.createdByApplicationId !== app.applicationId
    )
      continue;
    const payload = {
      type: emission.type,
      timestamp: now.toISOString(),
      data: { subject: pairwiseSubject(pairwiseKey, sectorOf(app.redirectUris, app.clientId), String(emission.userId)), ...emission.ids },
    };
    const [event] = await tx
      .insert(webhookEvents)
      .values({
        messageId: newMessageId(),
        applicationId: app.applicationId,
        userId: emission.userId,
        type: emission.type,
        payload,
        createdAt: now,
      })
      .returning({ id: webhookEvents.id });
    queued += await queueDeliveries(tx, event.id, [...endpoints], now);
  }
  return queued;
}

/**
 * One delivery per endpoint, in `tx`; an endpoint no `dispatch-webhooks` run
 * is responsible for yet gets one (an outbox event per endpoint, not per delivery).
 */
export async function queueDeliveries(tx: Db, eventId: number, endpointIds: number[], now = new Date()): Promise<number> {
  if (!endpointIds.length) return 0;
  const deliveries = await tx
    .insert(webhookDeliveries)
    .values(endpointIds.map((endpointId) => ({ eventId, endpointId, nextAttemptAt: now, createdAt: now })))
    .returning({ id: webhookDeliveries.id });
  await requestDispatch(tx, endpointIds);
  return deliveries.length;
}

/** A session's event, for its owner (the session surface: only to the application that created it). */
export async function emitSessionEvent(
  tx: Db,
  type: "session.created" | "session.updated" | "session.deleted",
  resultId: number,
): Promise<void> {
  const [row] = await tx
    .select({ ownerUserId: results.ownerUserId, createdBy: results.createdByApplicationId })
    .from(results)
    .where(eq(results.id, resultId));
  if (row)
    await emitWebhookEvent(tx, { type, userId: row.ownerUserId, ids: { session_id: resultId }, createdByApplicationId: row.createdBy });
}

/** A training's event, for its owner (the session surface: only to the application that created it). */
export async function emitTrainingEvent(
  tx: Db,
  type: "training.ready" | "training.updated" | "training.failed",
  trainingId: number,
): Promise<void> {
  const [row] = await tx
    .select({ ownerUserId: trainings.ownerUserId, createdBy: trainings.createdByApplicationId })
    .from(trainings)
    .where(eq(trainings.id, trainingId));
  if (row)
    await emitWebhookEvent(tx, { type, userId: row.ownerUserId, ids: { training_id: trainingId }, createdByApplicationId: row.createdBy });
}

/** An export's outcome, to the application that requested it through the Data API (web exports have none). */
export async function emitExportEvent(tx: Db, type: "export.completed" | "export.failed", exportJobId: number): Promise<void> {
  const [row] = await tx
    .select({ userId: exportJobs.subjectUserId, applicationId: exportJobs.applicationId, publicId: exportJobs.publicId })
    .from(exportJobs)
    .where(eq(exportJobs.id, exportJobId));
  if (row?.applicationId)
    await emitWebhookEvent(tx, { type, userId: row.userId, ids: { export_id: row.publicId }, onlyApplicationId: row.applicationId });
}

/** A device job finished (succeeded or failed: the job's status says which), to the application that requested it. */
export async function emitDeviceJobCompleted(tx: Db, deviceJobId: number): Promise<void> {
  const [row] = await tx
    .select({ userId: deviceJobs.subjectUserId, applicationId: deviceJobs.applicationId, publicId: deviceJobs.publicId })
    .from(deviceJobs)
    .where(eq(deviceJobs.id, deviceJobId));
  if (row?.applicationId)
    await emitWebhookEvent(tx, {
      type: "device_job.completed",
      userId: row.userId,
      ids: { device_job_id: row.publicId },
      onlyApplicationId: row.applicationId,
    });
}

/**
 * The last event of a grant: call it in the revoking transaction BEFORE the
 * grant is marked revoked (the fan-out reads active grants), only for a grant
 * that is still active. Later deliveries of the application's other events
 * for this person are cancelled at their next attempt.
 */
export async function emitAuthorizationRevoked(tx: Db, userId: number, applicationId: number): Promise<void> {
  await emitWebhookEvent(tx, { type: "authorization.revoked", userId, ids: {}, onlyApplicationId: applicationId });
}
