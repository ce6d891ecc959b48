import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { devices, results, trainings } from "../db/schema";
import { deleteWithImpact, describeDeletion, type DeletionPlan } from "../deletion/guarded-delete";
import { count, keepTheirData } from "../deletion/plural";
import { notFound } from "../errors";

/**
 * Deleting a sensor unit (docs/web-app.md "Deleting"). A unit that still
 * holds stored original files is refused: its files are what "Delete files"
 * (a tracked job that also removes them from storage) is for, and a delete
 * here must not quietly orphan them. A unit with no files goes; its sessions
 * and trainings keep their data and no longer name a unit (ON DELETE SET NULL).
 * A file uploaded later from the same unit registers it again.
 */
export interface DeviceDeletion {
  label: string;
  files: number;
  sessions: number;
  refusal: string | null;
  statement: string;
}

async function ownDevice(db: Db | Tx, userId: number, deviceId: number, lock: boolean) {
  const query = db
    .select({ id: devices.id, label: devices.label })
    .from(devices)
    .where(and(eq(devices.id, deviceId), eq(devices.ownerUserId, userId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Device");
  return row;
}

async function impact(db: Db | Tx, device: { id: number; label: string }): Promise<DeviceDeletion> {
  const [[r], [t]] = await Promise.all([
    db
      .select({ sessions: sql<number>`count(*)::int`, files: sql<number>`count(${results.originalBlobId})::int` })
      .from(results)
      .where(eq(results.deviceId, device.id)),
    db
      .select({ files: sql<number>`count(*)::int` })
      .from(trainings)
      .where(and(eq(trainings.deviceId, device.id), isNotNull(trainings.originalBlobId))),
  ]);
  const files = r.files + t.files;
  const label = device.label || `Unit ${device.id}`;
  const refusal = files
    ? `${label} still holds ${count(files, "stored original file")}. Delete its files first (“Delete files”), then the unit.`
    : null;
  const statement =
    refusal ??
    (r.sessions
      ? `${keepTheirData(r.sessions, "session recorded with it", "sessions recorded with it")} and no longer name${r.sessions === 1 ? "s" : ""} a unit.`
      : "No session was recorded with this unit.");
  return { label, files, sessions: r.sessions, refusal, statement };
}

// Locked: counted and deleted with no upload from this unit in between.
const devicePlan = (userId: number, deviceId: number): DeletionPlan<{ id: number; label: string }, DeviceDeletion> => ({
  own: (db, lock) => ownDevice(db, userId, deviceId, lock),
  impact,
  remove: async (tx) => {
    await tx.delete(devices).where(eq(devices.id, deviceId));
  },
});

export async function deviceDeletion(db: Db, userId: number, deviceId: number): Promise<DeviceDeletion> {
  return describeDeletion(db, devicePlan(userId, deviceId));
}

export async function deleteDevice(db: Db, userId: number, deviceId: number): Promise<void> {
  await deleteWithImpact(db, devicePlan(userId, deviceId));
}
