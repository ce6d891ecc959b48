import { and, asc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import { teamAccessible, trackAccessible } from "../access/access";
import type { Db } from "../db/client";
import { teams, trackTeamShares, tracks } from "../db/schema";
import { AppError, notFound } from "../errors";

const optionalCoordinate = (min: number, max: number, label: string) =>
  z
    .union([
      z.literal(""),
      z.null(),
      z.coerce
        .number({ error: "Enter a number" })
        .min(min, `${label} must be between ${min} and ${max}`)
        .max(max, `${label} must be between ${min} and ${max}`),
    ])
    .optional()
    .transform((v) => (v === "" || v === undefined || v === null ? null : v));

export const ZTrackInput = z
  .object({
    name: z.string().trim().min(1, "Enter a name").max(128, "At most 128 characters"),
    location: z.string().trim().max(128, "At most 128 characters").default(""),
    latitude: optionalCoordinate(-90, 90, "Latitude"),
    longitude: optionalCoordinate(-180, 180, "Longitude"),
    isPublic: z.boolean().default(false),
    /** Teams of the owner to share the track with. */
    sharedTeamIds: z.array(z.number().int().positive()).max(100).default([]),
  })
  .refine((v) => (v.latitude === null) === (v.longitude === null), {
    message: "Give both latitude and longitude, or neither",
    path: ["longitude"],
  });
export type TrackInput = z.input<typeof ZTrackInput>;

export interface TrackView {
  id: number;
  name: string;
  location: string;
  latitude: number | null;
  longitude: number | null;
  isPublic: boolean;
  sharedTeamIds: number[];
  editable: boolean;
}

const columns = {
  id: tracks.id,
  name: tracks.name,
  location: tracks.location,
  latitude: tracks.latitude,
  longitude: tracks.longitude,
  isPublic: tracks.isPublic,
  ownerUserId: tracks.ownerUserId,
};

type TrackRow = Omit<TrackView, "sharedTeamIds" | "editable"> & { ownerUserId: number };

async function withShares(db: Db, userId: number, rows: TrackRow[]): Promise<TrackView[]> {
  const ids = rows.map((r) => r.id);
  const shares = ids.length ? await db.select().from(trackTeamShares).where(inArray(trackTeamShares.trackId, ids)) : [];
  return rows.map(({ ownerUserId, ...r }) => ({
    ...r,
    // Only the owner sees which teams a track is shared with.
    sharedTeamIds: ownerUserId === userId ? shares.filter((s) => s.trackId === r.id).map((s) => s.teamId) : [],
    editable: ownerUserId === userId,
  }));
}

export async function listAccessibleTracks(db: Db, userId: number): Promise<TrackView[]> {
  const rows = await db.select(columns).from(tracks).where(trackAccessible(userId)).orderBy(asc(tracks.name), asc(tracks.id));
  return withShares(db, userId, rows);
}

export async function getAccessibleTrack(db: Db, userId: number, trackId: number): Promise<TrackView> {
  const rows = await db
    .select(columns)
    .from(tracks)
    .where(and(eq(tracks.id, trackId), trackAccessible(userId)));
  if (rows.length === 0) throw notFound("Track");
  return (await withShares(db, userId, rows))[0];
}

/** A track may only be shared with teams the user owns. */
async function assertOwnTeams(db: Db, userId: number, teamIds: number[]): Promise<void> {
  if (teamIds.length === 0) return;
  const owned = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(inArray(teams.id, teamIds), eq(teams.ownerUserId, userId)));
  if (owned.length !== new Set(teamIds).size) {
    throw new AppError("invalid", "A track can only be shared with your own teams", {
      sharedTeamIds: ["A track can only be shared with your own teams"],
    });
  }
}

export async function createTrack(db: Db, userId: number, input: TrackInput): Promise<TrackView> {
  const { sharedTeamIds, ...values } = ZTrackInput.parse(input);
  await assertOwnTeams(db, userId, sharedTeamIds);
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(tracks)
      .values({ ...values, ownerUserId: userId })
      .returning({ id: tracks.id });
    if (sharedTeamIds.length) {
      await tx.insert(trackTeamShares).values([...new Set(sharedTeamIds)].map((teamId) => ({ trackId: row.id, teamId })));
    }
    return row.id;
  });
  return getAccessibleTrack(db, userId, id);
}

export async function updateTrack(db: Db, userId: number, trackId: number, input: TrackInput): Promise<TrackView> {
  const { sharedTeamIds, ...values } = ZTrackInput.parse(input);
  const existing = await getAccessibleTrack(db, userId, trackId);
  if (!existing.editable) throw new AppError("forbidden", "Only the owner of this track can edit it");
  await assertOwnTeams(db, userId, sharedTeamIds);
  await db.transaction(async (tx) => {
    await tx
      .update(tracks)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(tracks.id, trackId));
    await tx.delete(trackTeamShares).where(eq(trackTeamShares.trackId, trackId));
    if (sharedTeamIds.length) {
      await tx.insert(trackTeamShares).values([...new Set(sharedTeamIds)].map((teamId) => ({ trackId, teamId })));
    }
  });
  return getAccessibleTrack(db, userId, trackId);
}

/** Teams the user may share tracks with (their own). */
export async function listOwnTeamsForSharing(db: Db, userId: number) {
  return db
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(and(eq(teams.ownerUserId, userId), teamAccessible(userId)))
    .orderBy(asc(teams.name));
}
