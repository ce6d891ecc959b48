import { and, asc, count, eq, gt } from "drizzle-orm";
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
  const [row] = await db
    .select({ id: tracks.id, name: tracks.name })
    .from(tracks)
    .where(and(eq(tracks.id, trackId), trackAccessible(userId)));
  if (!row) throw notFound("Track");
  return row;
}

/** A track as course metadata: where it is and its start line; never its owner or the teams it is shared with. */
const courseColumns = {
  id: tracks.id,
  name: tracks.name,
  location: tracks.location,
  latitude: tracks.latitude,
  longitude: tracks.longitude,
  isPublic: tracks.isPublic,
};
export type TrackCourse = Awaited<ReturnType<typeof getAccessibleTrackCourse>>;

/** Accessible tracks in id order after `afterId` (keyset on the primary key; null = from the start). */
export async function listAccessibleTrackCourses(db: Db, userId: number, page: { afterId: number | null; take: number }) {
  return db
    .select(courseColumns)
    .from(tracks)
    .where(and(trackAccessible(userId), page.afterId !== null ? gt(tracks.id, page.afterId) : undefined))
    .orderBy(asc(tracks.id))
    .limit(page.take);
}

export async function getAccessibleTrackCourse(db: Db, userId: number, trackId: number) {
  const [row] = await db
    .select(courseColumns)
    .from(tracks)
    .where(and(eq(tracks.id, trackId), trackAccessible(userId)));
  if (!row) throw notFound("Track");
  return row;
}
