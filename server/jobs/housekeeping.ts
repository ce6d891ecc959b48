import { sweepBlobContents } from "../blobs/blob-store";
import type { Db } from "../db/client";
import { expireDeviceFetches } from "../devices/device-jobs";
import { expireExportFiles } from "../exports/export-jobs";
import { deleteExpiredIdempotencyKeys } from "../idempotency/idempotency";
import { redispatchStalledEndpoints } from "../webhooks/dispatch";
import { deleteOldWebhookEvents } from "../webhooks/sweep";

/**
 * Hourly sweeps of shared state, run by whichever loop this instance has:
 * the embedded worker, or the outbox relay when Inngest runs the functions.
 * Each sweep is a bounded batch and safe on several instances at once.
 */
export async function sweepExpiredState(db: Db, now = new Date()): Promise<void> {
  await deleteExpiredIdempotencyKeys(db, { now });
  // Normally each export's own job deletes its file at expiry; this catches any that was missed.
  await expireExportFiles(db, { now });
  await expireDeviceFetches(db, now);
  await deleteOldWebhookEvents(db, now);
  // A dispatch run lost (or deliveries older than per-endpoint dispatch): a fresh run for the endpoint.
  await redispatchStalledEndpoints(db, now);
  // Last, so the files expired above lose their bytes too once their grace period is over (docs/blobs.md).
  await sweepBlobContents(db, { now });
}
