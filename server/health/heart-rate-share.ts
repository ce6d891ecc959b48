import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { athletes, heartRateShares } from "../db/schema";
import { AppError } from "../errors";

/**
 * Heart-rate sharing (docs/access.md "Health data in every view"): a person
 * may let the coaches of their athlete record (its manager and the coaches
 * of its teams, the athlete_viewers view) see their heart rate and
 * heart-rate load in the web app. Off by default, revocable at any time, set
 * only by the account linked to the record; it lapses when that link ends.
 * The Data API's health rules do not read it.
 */

export interface HeartRateShareStatus {
  /** The person's own athlete record, or null (nothing to share from). */
  athleteId: number | null;
  shared: boolean;
}

export async function heartRateShareStatus(db: Db, userId: number): Promise<HeartRateShareStatus> {
  const [row] = await db
    .select({ athleteId: athletes.id, sharedBy: heartRateShares.userId })
    .from(athletes)
    .leftJoin(heartRateShares, eq(heartRateShares.athleteId, athletes.id))
    .where(eq(athletes.userId, userId));
  return { athleteId: row?.athleteId ?? null, shared: row?.sharedBy === userId };
}

export async function setHeartRateShare(db: Db, userId: number, shared: boolean): Promise<HeartRateShareStatus> {
  const { athleteId } = await heartRateShareStatus(db, userId);
  if (athleteId === null)
    throw new AppError("conflict", "Link an athlete profile to your account first: the heart rate you share is that athlete's.");
  if (shared)
    await db
      .insert(heartRateShares)
      .values({ athleteId, userId })
      .onConflictDoUpdate({ target: heartRateShares.athleteId, set: { userId, createdAt: new Date() } });
  else await db.delete(heartRateShares).where(eq(heartRateShares.athleteId, athleteId));
  return { athleteId, shared };
}

/**
 * Whether a viewer may read heart rate that belongs to `ownerUserId` (null:
 * nobody's): the owner always; a coach of the owner's athlete record while the
 * owner shares it with their coaches.
 */
export async function heartRateReadableBy(db: Db, ownerUserId: number | null, viewerId: number): Promise<boolean> {
  if (ownerUserId === null) return false;
  if (ownerUserId === viewerId) return true;
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(heartRateShares)
    .innerJoin(athletes, and(eq(athletes.id, heartRateShares.athleteId), eq(athletes.userId, heartRateShares.userId)))
    .where(
      and(
        eq(heartRateShares.userId, ownerUserId),
        sql`exists (select 1 from athlete_viewers hv where hv.athlete_id = ${athletes.id} and hv.user_id = ${viewerId} and not hv.own)`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The athletes among `athleteIds` whose heart rate the viewer may read (their own record, or shared with them as a coach). */
export async function heartRateReadableAthletes(db: Db, viewerId: number, athleteIds: number[]): Promise<Set<number>> {
  if (!athleteIds.length) return new Set();
  const rows = await db
    .select({ id: athletes.id })
    .from(athletes)
    .leftJoin(heartRateShares, and(eq(heartRateShares.athleteId, athletes.id), eq(heartRateShares.userId, athletes.userId)))
    .where(
      and(
        sql`${athletes.id} in ${athleteIds}`,
        sql`(${athletes.userId} = ${viewerId} or (${heartRateShares.athleteId} is not null and exists (
          select 1 from athlete_viewers hv where hv.athlete_id = ${athletes.id} and hv.user_id = ${viewerId} and not hv.own)))`,
      ),
    );
  return new Set(rows.map((r) => r.id));
}
