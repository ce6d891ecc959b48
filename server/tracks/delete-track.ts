import { and, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { isForeignKeyViolation } from "../db/pg-errors";
import { results, trackTeamShares, tracks, trainings } from "../db/schema";
import { deleteWithImpact, describeDeletion, type DeletionPlan } from "../deletion/guarded-delete";
import { count, keepTheirData } from "../deletion/plural";
import { AppError, notFound } from "../errors";

/**
 * Deleting a track (docs/web-app.md "Deleting"). A session must have a track
 * (results.track_id is NOT NULL, no cascade), and silently moving someone's
 * sessions to another track would change their records. So a track any
 * session uses is refused with the count, naming the way out (correct those
 * sessions' track first). Trainings only lose the reference (ON DELETE SET NULL).
 */
export interface TrackDeletion {
  name: string;
  sessions: number;
  trainings: number;
  teams: number;
  /** Why it cannot be deleted now, or null. */
  refusal: string | null;
  statement: string;
}

async function ownTrack(db: Db | Tx, userId: number, trackId: number, lock: boolean) {
  const query = db
    .select({ id: tracks.id, name: tracks.name })
    .from(tracks)
    .where(and(eq(tracks.id, trackId), eq(tracks.ownerUserId, userId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Track");
  return row;
}

async function impact(db: Db | Tx, track: { id: number; name: string }): Promise<TrackDeletion> {
  const n = sql<number>`count(*)::int`;
  const [[s], [t], [m]] = await Promise.all([
    // Every owner's sessions count: a public or team-shared track is used by others too.
    db.select({ n }).from(results).where(eq(results.trackId, track.id)),
    db.select({ n }).from(trainings).where(eq(trainings.trackId, track.id)),
    db.select({ n }).from(trackTeamShares).where(eq(trackTeamShares.trackId, track.id)),
  ]);
  const refusal = s.n
    ? `“${track.name}” is the track of ${count(s.n, "session")}. A session always has a track: change theirs first (session page, Actions, “Correct this session”), then delete this one.`
    : null;
  const statement =
    refusal ??
    [
      "No session uses this track.",
      t.n ? `${keepTheirData(t.n, "training")} without a track.` : null,
      m.n ? `It stops being shared with ${count(m.n, "team")}.` : null,
    ]
      .filter(Boolean)
      .join(" ");
  return { name: track.name, sessions: s.n, trainings: t.n, teams: m.n, refusal, statement };
}

const trackPlan = (userId: number, trackId: number): DeletionPlan<{ id: number; name: string }, TrackDeletion> => ({
  own: (db, lock) => ownTrack(db, userId, trackId, lock),
  impact,
  remove: async (tx) => {
    await tx.delete(tracks).where(eq(tracks.id, trackId));
  },
});

export async function trackDeletion(db: Db, userId: number, trackId: number): Promise<TrackDeletion> {
  return describeDeletion(db, trackPlan(userId, trackId));
}

export async function deleteTrack(db: Db, userId: number, trackId: number): Promise<void> {
  try {
    // An upload or correction storing a session with this track holds a key-share lock on it
    // (lockUploadReferences): FOR UPDATE waits for it to commit, and the count then sees that session.
    await deleteWithImpact(db, trackPlan(userId, trackId));
  } catch (error) {
    // Should a session still slip in, the foreign key refuses the delete; it is the same 409, never a 500 or an orphan.
    if (!isForeignKeyViolation(error)) throw error;
    const { refusal } = await trackDeletion(db, userId, trackId);
    throw new AppError("conflict", refusal ?? "A session used this track while it was being deleted; try again.");
  }
}
