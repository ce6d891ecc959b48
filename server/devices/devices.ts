import { and, asc, count, desc, eq, gt, max, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { blobs, devices, results } from "../db/schema";
import { notFound } from "../errors";

/** The user's sensor units, registered by their uploads. The serial stays on the server. */
export async function listOwnDevices(db: Db, userId: number) {
  return db
    .select({
      id: devices.id,
      label: devices.label,
      hardwareModel: devices.hardwareModel,
      firmware: devices.firmware,
      firstSeenAt: devices.firstSeenAt,
      lastSeenAt: devices.lastSeenAt,
      files: count(results.id),
      lastSession: max(results.date),
    })
    .from(devices)
    .leftJoin(results, eq(results.deviceId, devices.id))
    .where(eq(devices.ownerUserId, userId))
    .groupBy(devices.id)
    .orderBy(asc(devices.id));
}

/** Original files kept for one of the user's devices: name, size, session, never the bytes or the serial. */
export async function listDeviceFiles(db: Db, userId: number, deviceId: number) {
  const [device] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.id, deviceId), eq(devices.ownerUserId, userId)));
  if (!device) throw notFound("Device");
  return db
    .select({
      resultId: results.id,
      filename: results.originalFilename,
      date: results.date,
      byteSize: blobs.byteSize,
      sha256: blobs.sha256,
      uploadedAt: results.createdAt,
    })
    .from(results)
    .innerJoin(blobs, eq(blobs.id, results.originalBlobId))
    .where(and(eq(results.deviceId, deviceId), eq(results.ownerUserId, userId)))
    .orderBy(desc(results.createdAt), desc(results.id));
}

export const ZDeviceLabel = z.object({ id: z.number().int().positive(), label: z.string().trim().max(64, "At most 64 characters") });

export async function renameDevice(db: Db, userId: number, input: z.input<typeof ZDeviceLabel>) {
  const { id, label } = ZDeviceLabel.parse(input);
  const updated = await db
    .update(devices)
    .set({ label })
    .where(and(eq(devices.id, id), eq(devices.ownerUserId, userId)))
    .returning({ id: devices.id });
  if (!updated.length) throw notFound("Device");
}

/**
 * A unit's status for the Data API: what the device pages show, and never
 * the serial. Counts come from correlated subqueries on results_device_idx,
 * so a page of units costs the same however many files the account holds.
 * The outer column is written out as devices.id: drizzle renders a column in
 * a select list unqualified, which inside the subquery would mean ds_r.id.
 */
const statusColumns = {
  id: devices.id,
  label: devices.label,
  hardwareModel: devices.hardwareModel,
  firmware: devices.firmware,
  firstSeenAt: devices.firstSeenAt,
  lastSeenAt: devices.lastSeenAt,
  fileCount: sql<number>`(select count(*)::int from results ds_r where ds_r.device_id = devices.id and ds_r.original_blob_id is not null)`,
  lastSessionDate: sql<string | null>`(select max(ds_r.date)::text from results ds_r where ds_r.device_id = devices.id)`,
};
export type DeviceStatus = Awaited<ReturnType<typeof getOwnDevice>>;

/** The user's units in id order after `afterId` (null = from the start); index devices_owner_idx. */
export async function listOwnDeviceStatuses(db: Db, userId: number, page: { afterId: number | null; take: number }) {
  return db
    .select(statusColumns)
    .from(devices)
    .where(and(eq(devices.ownerUserId, userId), page.afterId !== null ? gt(devices.id, page.afterId) : undefined))
    .orderBy(asc(devices.id))
    .limit(page.take);
}

export async function getOwnDevice(db: Db, userId: number, deviceId: number) {
  const [row] = await db
    .select(statusColumns)
    .from(devices)
    .where(and(eq(devices.id, deviceId), eq(devices.ownerUserId, userId)));
  if (!row) throw notFound("Device");
  return row;
}

/** Keyset position of a device file: [uploaded at, as exact Postgres text; session id], newest first. */
export type DeviceFilePosition = [uploadedAt: string, resultId: number];

/**
 * One page of a unit's file manifest, newest upload first (index
 * results_device_idx): name, size, checksum, session and dates. Never the
 * bytes, the blob or the serial. A unit that is not the user's is not found.
 */
export async function listDeviceFilesPage(
  db: Db,
  userId: number,
  deviceId: number,
  page: { after: DeviceFilePosition | null; take: number },
) {
  await getOwnDevice(db, userId, deviceId);
  const seek = page.after ? sql`(${results.createdAt}, ${results.id}) < (${page.after[0]}::timestamptz, ${page.after[1]})` : undefined;
  return db
    .select({
      resultId: results.id,
      filename: results.originalFilename,
      date: results.date,
      byteSize: blobs.byteSize,
      sha256: blobs.sha256,
      uploadedAt: results.createdAt,
      uploadedAtText: sql<string>`${results.createdAt}::text`,
    })
    .from(results)
    .innerJoin(blobs, eq(blobs.id, results.originalBlobId))
    .where(and(eq(results.deviceId, deviceId), eq(results.ownerUserId, userId), seek))
    .orderBy(desc(results.createdAt), desc(results.id))
    .limit(page.take);
}
export type DeviceFile = Awaited<ReturnType<typeof listDeviceFilesPage>>[number];

export { hardwareName } from "../svc/hardware";
