import { and, asc, eq, gt } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { equipmentPaddles, equipmentVessels, vessels } from "../db/schema";
import { AppError, notFound } from "../errors";

const optionalNumber = (min: number, max: number, label: string) =>
  z
    .union([
      z.literal(""),
      z.null(),
      z.coerce.number({ error: "Enter a number" }).min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`),
    ])
    .optional()
    .transform((v) => (v === "" || v === undefined || v === null ? null : v));
const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`).default("");

export const ZVesselInput = z.object({
  name: z.string().trim().min(1, "Enter a name").max(64, "At most 64 characters"),
  vesselTypeId: z.number({ error: "Choose the boat type" }).int().positive("Choose the boat type"),
  brand: text(64),
  model: text(64),
  weightKg: optionalNumber(1, 200, "Weight"),
});
export const ZPaddleInput = z.object({
  name: z.string().trim().min(1, "Enter a name").max(64, "At most 64 characters"),
  kind: z.enum(["kayak", "canoe"], { error: "Choose kayak or canoe" }),
  brand: text(64),
  model: text(64),
  lengthCm: optionalNumber(100, 260, "Length"),
  bladeAreaCm2: optionalNumber(300, 1500, "Blade area"),
});

const vesselColumns = {
  id: equipmentVessels.id,
  name: equipmentVessels.name,
  vesselTypeId: equipmentVessels.vesselTypeId,
  vesselType: vessels.type,
  brand: equipmentVessels.brand,
  model: equipmentVessels.model,
  weightKg: equipmentVessels.weightKg,
};

/** A keyset page in id order: rows after `afterId` (null = from the start), at most `take`. */
export interface IdPage {
  afterId: number | null;
  take: number;
}

/** The user's boats in id order; all of them, or one keyset page (index equipment_vessels_owner_idx). */
export async function listOwnVessels(db: Db, userId: number, page?: IdPage) {
  const query = db
    .select(vesselColumns)
    .from(equipmentVessels)
    .innerJoin(vessels, eq(vessels.id, equipmentVessels.vesselTypeId))
    .where(and(eq(equipmentVessels.ownerUserId, userId), page?.afterId != null ? gt(equipmentVessels.id, page.afterId) : undefined))
    .orderBy(asc(equipmentVessels.id));
  return page ? query.limit(page.take) : query;
}

export async function getOwnVessel(db: Db, userId: number, id: number) {
  const [row] = await db
    .select(vesselColumns)
    .from(equipmentVessels)
    .innerJoin(vessels, eq(vessels.id, equipmentVessels.vesselTypeId))
    .where(and(eq(equipmentVessels.id, id), eq(equipmentVessels.ownerUserId, userId)));
  if (!row) throw notFound("Boat");
  return row;
}

export async function createOwnVessel(db: Db, userId: number, input: z.input<typeof ZVesselInput>) {
  const values = ZVesselInput.parse(input);
  const [type] = await db.select({ id: vessels.id }).from(vessels).where(eq(vessels.id, values.vesselTypeId));
  if (!type) throw new AppError("invalid", "Unknown boat type", { vesselTypeId: ["Unknown boat type"] });
  const [row] = await db
    .insert(equipmentVessels)
    .values({ ...values, ownerUserId: userId })
    .returning({ id: equipmentVessels.id });
  return getOwnVessel(db, userId, row.id);
}

export async function deleteOwnVessel(db: Db, userId: number, id: number) {
  const deleted = await db
    .delete(equipmentVessels)
    .where(and(eq(equipmentVessels.id, id), eq(equipmentVessels.ownerUserId, userId)))
    .returning({ id: equipmentVessels.id });
  if (!deleted.length) throw notFound("Boat");
}

const paddleColumns = {
  id: equipmentPaddles.id,
  name: equipmentPaddles.name,
  kind: equipmentPaddles.kind,
  brand: equipmentPaddles.brand,
  model: equipmentPaddles.model,
  lengthCm: equipmentPaddles.lengthCm,
  bladeAreaCm2: equipmentPaddles.bladeAreaCm2,
};

/** The user's paddles in id order; all of them, or one keyset page (index equipment_paddles_owner_idx). */
export async function listOwnPaddles(db: Db, userId: number, page?: IdPage) {
  const query = db
    .select(paddleColumns)
    .from(equipmentPaddles)
    .where(and(eq(equipmentPaddles.ownerUserId, userId), page?.afterId != null ? gt(equipmentPaddles.id, page.afterId) : undefined))
    .orderBy(asc(equipmentPaddles.id));
  return page ? query.limit(page.take) : query;
}

export async function getOwnPaddle(db: Db, userId: number, id: number) {
  const [row] = await db
    .select(paddleColumns)
    .from(equipmentPaddles)
    .where(and(eq(equipmentPaddles.id, id), eq(equipmentPaddles.ownerUserId, userId)));
  if (!row) throw notFound("Paddle");
  return row;
}

export async function createOwnPaddle(db: Db, userId: number, input: z.input<typeof ZPaddleInput>) {
  const values = ZPaddleInput.parse(input);
  const [row] = await db
    .insert(equipmentPaddles)
    .values({ ...values, ownerUserId: userId })
    .returning({ id: equipmentPaddles.id });
  return getOwnPaddle(db, userId, row.id);
}

export async function deleteOwnPaddle(db: Db, userId: number, id: number) {
  const deleted = await db
    .delete(equipmentPaddles)
    .where(and(eq(equipmentPaddles.id, id), eq(equipmentPaddles.ownerUserId, userId)))
    .returning({ id: equipmentPaddles.id });
  if (!deleted.length) throw notFound("Paddle");
}
