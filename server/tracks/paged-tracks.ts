import { and, asc, count, eq } from "drizzle-orm";
import { trackAccessible } from "../access/access";
import type { Db } from "../db/client";
import { tracks } from "../db/schema";
import { notFound } from "../errors";

/** Accessible tracks by id, a page at a time, for the APIs. */
export async function listAccessibleTracksPage(db: Db, userId: number, limit: number, offset: number) {
  const where = trackAccessible(userId);
  const [rows, [{ total }]] = await Promise.all([
    db.select({ id: tracks.id, name: tracks.name }).from(tracks).where(where).orderBy(asc(tracks.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(tracks).where(where),
  ]);
  return { rows, total };
}

export async function getAccessibleTrackSummary(db: Db, userId: number, trackId: number) {
  const [row] = await db.select({ id: tracks.id, name: tracks.name }).from(tracks).where(and(eq(tracks.id, trackId), trackAccessible(userId)));
  if (!row) throw notFound("Track");
  return row;
}
