import { inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { webhookEvents } from "../db/schema";

/** Events (with their deliveries) are kept 30 days for the portal's history; retries end after about 27 hours. */
export const KEEP_WEBHOOK_EVENTS_MS = 30 * 24 * 3_600_000;

/** Housekeeping: deletes events past their 30 days, a bounded batch at a time. */
export async function deleteOldWebhookEvents(db: Db, now = new Date()): Promise<void> {
  const cutoff = new Date(now.getTime() - KEEP_WEBHOOK_EVENTS_MS);
  await db
    .delete(webhookEvents)
    .where(
      inArray(webhookEvents.id, sql`(select id from webhook_events where created_at < ${cutoff.toISOString()}::timestamptz limit 5000)`),
    );
}
