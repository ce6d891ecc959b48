import { and, asc, count, eq, gt, ilike } from "drizzle-orm";
import { athleteAccessible } from "../access/access";
import type { Db } from "../db/client";
import { athletes } from "../db/schema";
import { notFound } from "../errors";

const columns = {
  id: athletes.id,
  name: athletes.name,
  surname: athletes.surname,
  dateOfBirth: athletes.dateOfBirth,
  modality: athletes.modality,
};

/** LIKE wildcards in user text match literally. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Accessible athletes by id, a page at a time; `modality` is a partial, case-insensitive match. */
export async function listAccessibleAthletesPage(db: Db, userId: number, filters: { modality?: string }, limit: number, offset: number) {
  const where = and(
    athleteAccessible(userId),
    filters.modality ? ilike(athletes.modality, `%${escapeLike(filters.modality)}%`) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db.select(columns).from(athletes).where(where).orderBy(asc(athletes.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(athletes).where(where),
  ]);
  return { rows, total };
}

export async function getAccessibleAthleteSummary(db: Db, userId: number, athleteId: number) {
  const [row] = await db
    .select(columns)
    .from(athletes)
    .where(and(eq(athletes.id, athleteId), athleteAccessible(userId)));
  if (!row) throw notFound("Athlete");
  return row;
}

/**
 * Accessible athletes in id order after `afterId` (keyset on the primary key;
 * null = from the start). The columns above leave out weight (health data),
 * subscription dates and linked accounts.
 */
export async function listAccessibleAthletesAfter(db: Db, userId: number, page: { afterId: number | null; take: number }) {
  return db
    .select(columns)
    .from(athletes)
    .where(and(athleteAccessible(userId), page.afterId !== null ? gt(athletes.id, page.afterId) : undefined))
    .orderBy(asc(athletes.id))
    .limit(page.take);
}
