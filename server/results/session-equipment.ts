import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { resultAccessible } from "../access/access";
import type { Db } from "../db/client";
import { equipmentPaddles, equipmentVessels, results, vessels } from "../db/schema";
import { AppError, notFound } from "../errors";
import { INT4_MAX } from "../contract/values";

/** A serial (32-bit) id: a larger one cannot exist, and Postgres would answer "integer out of range". */
const rowId = z.number().int().positive().max(INT4_MAX);

/**
 * The boat and paddle used in a session: the owner's own equipment (the
 * equipment page), shown on the session page and, through the Data API, as
 * the session's equipment. null means "not recorded".
 */
export const ZSessionEquipment = z.object({
  vesselId: rowId.nullable(),
  paddleId: rowId.nullable(),
});
export type SessionEquipment = z.output<typeof ZSessionEquipment>;

/** The session's owner, or not-found when the user cannot see the session at all. */
async function ownerOf(db: Db, userId: number, resultId: number): Promise<number> {
  const [row] = await db
    .select({ ownerUserId: results.ownerUserId })
    .from(results)
    .where(and(eq(results.id, resultId), resultAccessible(userId)));
  if (!row) throw notFound("Result");
  return row.ownerUserId;
}

/** The recorded boat and paddle; only the owner may read them here (they are the owner's equipment). */
export async function readSessionEquipment(db: Db, userId: number, resultId: number): Promise<SessionEquipment> {
  if ((await ownerOf(db, userId, resultId)) !== userId)
    throw new AppError("forbidden", "Only the owner of a session can see its equipment");
  const [row] = await db
    .select({ vesselId: results.equipmentVesselId, paddleId: results.equipmentPaddleId })
    .from(results)
    .where(and(eq(results.id, resultId), eq(results.ownerUserId, userId)));
  return row;
}

/**
 * Records the boat and paddle used. Only the session's owner may (a coach who
 * can see the session gets forbidden); each must be the owner's own equipment,
 * else a field error — another user's boat is refused like a missing one.
 */
export async function setSessionEquipment(
  db: Db,
  userId: number,
  resultId: number,
  input: z.input<typeof ZSessionEquipment>,
): Promise<SessionEquipment> {
  const { vesselId, paddleId } = ZSessionEquipment.parse(input);
  if ((await ownerOf(db, userId, resultId)) !== userId)
    throw new AppError("forbidden", "Only the owner of a session can set its equipment");
  return db.transaction(async (tx) => {
    // KEY SHARE: a boat or paddle deleted meanwhile waits for this write instead of breaking it.
    const [session] = await tx
      .select({ vesselTypeId: results.vesselId, type: vessels.type, hull: vessels.hull })
      .from(results)
      .innerJoin(vessels, eq(vessels.id, results.vesselId))
      .where(eq(results.id, resultId));
    const [vessel] =
      vesselId === null
        ? [null]
        : await tx
            .select({ id: equipmentVessels.id, vesselTypeId: equipmentVessels.vesselTypeId })
            .from(equipmentVessels)
            .where(and(eq(equipmentVessels.id, vesselId), eq(equipmentVessels.ownerUserId, userId)))
            .for("key share");
    const [paddle] =
      paddleId === null
        ? [null]
        : await tx
            .select({ id: equipmentPaddles.id, kind: equipmentPaddles.kind })
            .from(equipmentPaddles)
            .where(and(eq(equipmentPaddles.id, paddleId), eq(equipmentPaddles.ownerUserId, userId)))
            .for("key share");
    const fieldErrors: Record<string, string[]> = {};
    if (vesselId !== null && !vessel) fieldErrors.vesselId = ["Choose one of your boats"];
    if (paddleId !== null && !paddle) fieldErrors.paddleId = ["Choose one of your paddles"];
    // Equipment must fit the session's boat class: a K2 boat for a K2 session, a kayak paddle for a kayak.
    if (session && vessel && vessel.vesselTypeId !== session.vesselTypeId)
      fieldErrors.vesselId = [`This boat is not a ${session.type}; choose a ${session.type} boat`];
    if (session && paddle && paddle.kind !== session.hull)
      fieldErrors.paddleId = [`A ${paddle.kind} paddle does not fit a ${session.type}; choose a ${session.hull} paddle`];
    if (Object.keys(fieldErrors).length) throw new AppError("invalid", "Please correct the highlighted fields.", fieldErrors);
    const [updated] = await tx
      .update(results)
      .set({ equipmentVesselId: vesselId, equipmentPaddleId: paddleId })
      .where(and(eq(results.id, resultId), eq(results.ownerUserId, userId)))
      .returning({ vesselId: results.equipmentVesselId, paddleId: results.equipmentPaddleId });
    // Deleted between the check and the write.
    if (!updated) throw notFound("Result");
    return updated;
  });
}
