import { and, asc, count, desc, eq, max } from "drizzle-orm";
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
  const [device] = await db.select({ id: devices.id }).from(devices).where(and(eq(devices.id, deviceId), eq(devices.ownerUserId, userId)));
  if (!device) throw notFound("Device");
  return db
    .select({ resultId: results.id, filename: results.originalFilename, date: results.date, byteSize: blobs.byteSize, sha256: blobs.sha256, uploadedAt: results.createdAt })
    .from(results)
    .innerJoin(blobs, eq(blobs.id, results.originalBlobId))
    .where(and(eq(results.deviceId, deviceId), eq(results.ownerUserId, userId)))
    .orderBy(desc(results.createdAt), desc(results.id));
}

export const ZDeviceLabel = z.object({ id: z.number().int().positive(), label: z.string().trim().max(64, "At most 64 characters") });

export async function renameDevice(db: Db, userId: number, input: z.input<typeof ZDeviceLabel>) {
  const { id, label } = ZDeviceLabel.parse(input);
  const updated = await db.update(devices).set({ label }).where(and(eq(devices.id, id), eq(devices.ownerUserId, userId))).returning({ id: devices.id });
  if (!updated.length) throw notFound("Device");
}

export { hardwareName } from "../svc/hardware";
