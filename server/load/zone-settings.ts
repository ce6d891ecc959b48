import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { INT4_MAX } from "../contract/values";
import { athleteAccessible } from "../access/access";
import type { Db } from "../db/client";
import { athletes, athleteZones } from "../db/schema";
import { AppError, notFound } from "../errors";
import { refreshAthleteLoads } from "./store-load";
import { DEFAULT_SPEED_ZONES, type SpeedZone } from "./zones";

/**
 * The zone editor (docs/load.md "Pages"): the lower bound of zones 2–6 in
 * percent of the reference speed; names and weights stay the defaults'. Only
 * the account that manages the athlete record may change them; saving and
 * resetting recompute every stored load of the athlete (refreshAthleteLoads)
 * in the same request, so the pages read the new figures at once.
 */
export const ZZoneBounds = z.object({
  athleteId: z.number().int().positive().max(INT4_MAX),
  /** Lower bounds of zones 2 to 6, %, strictly increasing. */
  lowerPct: z
    .array(z.number().int().min(1).max(200))
    .length(DEFAULT_SPEED_ZONES.length - 1)
    .refine((b) => b.every((v, k) => k === 0 || v > b[k - 1]), "Each zone must start above the one before it."),
});

export function zonesFromBounds(lowerPct: readonly number[]): SpeedZone[] {
  return DEFAULT_SPEED_ZONES.map((z, k) => ({
    ...z,
    fromPct: k === 0 ? 0 : lowerPct[k - 1],
    toPct: k === DEFAULT_SPEED_ZONES.length - 1 ? null : lowerPct[k],
  }));
}

async function requireManaged(db: Db, userId: number, athleteId: number): Promise<void> {
  const [row] = await db
    .select({ owner: athletes.ownerUserId })
    .from(athletes)
    .where(and(eq(athletes.id, athleteId), athleteAccessible(userId)));
  if (!row) throw notFound("Athlete");
  if (row.owner !== userId) throw new AppError("forbidden", "Only the account that manages this athlete can change their zones");
}

export async function setAthleteZones(db: Db, userId: number, input: z.infer<typeof ZZoneBounds>): Promise<{ refreshed: number }> {
  const { athleteId, lowerPct } = ZZoneBounds.parse(input);
  await requireManaged(db, userId, athleteId);
  const zones = zonesFromBounds(lowerPct);
  await db
    .insert(athleteZones)
    .values({ athleteId, zones, updatedByUserId: userId })
    .onConflictDoUpdate({ target: athleteZones.athleteId, set: { zones, updatedByUserId: userId, updatedAt: new Date() } });
  return { refreshed: await refreshAthleteLoads(db, athleteId) };
}

/** Back to the default zones; a maximum heart rate set on the record is kept. */
export async function resetAthleteZones(db: Db, userId: number, athleteId: number): Promise<{ refreshed: number }> {
  await requireManaged(db, userId, athleteId);
  const [row] = await db.select({ maxHr: athleteZones.maxHeartRateBpm }).from(athleteZones).where(eq(athleteZones.athleteId, athleteId));
  if (row?.maxHr != null)
    await db
      .update(athleteZones)
      .set({ zones: DEFAULT_SPEED_ZONES, updatedByUserId: userId, updatedAt: new Date() })
      .where(eq(athleteZones.athleteId, athleteId));
  else await db.delete(athleteZones).where(eq(athleteZones.athleteId, athleteId));
  return { refreshed: await refreshAthleteLoads(db, athleteId) };
}
