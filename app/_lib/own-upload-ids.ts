import { listAccessibleAthletes } from "@/server/athletes/athletes";
import type { Db } from "@/server/db/client";
import { listAccessibleTracks } from "@/server/tracks/tracks";

/**
 * The first track and athlete the person may upload with (lowest ids, their own tracks before other
 * people's public ones), for the portal's upload samples (the guide and the results API's Try it panel);
 * null when they have no track or no athlete yet, so no sample prints ids that would answer 403.
 */
export async function ownUploadIds(db: Db, userId: number): Promise<{ trackId: number; athleteId: number } | null> {
  const [tracks, athletes] = await Promise.all([listAccessibleTracks(db, userId), listAccessibleAthletes(db, userId)]);
  const track = tracks.toSorted((a, b) => Number(b.editable) - Number(a.editable) || a.id - b.id)[0];
  const athlete = athletes.toSorted((a, b) => a.id - b.id)[0];
  return track && athlete ? { trackId: track.id, athleteId: athlete.id } : null;
}
