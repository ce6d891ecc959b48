import { desc, eq, sql } from "drizzle-orm";
import { resultAccessible } from "../access/access";
import type { Db } from "../db/client";
import { results, tracks, vessels } from "../db/schema";

export interface ResultListItem {
  id: number;
  date: string;
  timeOfDay: string;
  vesselType: string;
  trackName: string;
  distanceM: number;
  durationMs: number;
  competition: string;
  description: string;
  important: boolean;
  status: "pending" | "processing" | "processed" | "failed";
  crew: string[];
}

/** The newest results the user can access, for the home page. */
export async function listRecentResults(db: Db, userId: number, limit = 50): Promise<ResultListItem[]> {
  return db
    .select({
      id: results.id,
      date: results.date,
      timeOfDay: results.timeOfDay,
      vesselType: vessels.type,
      trackName: tracks.name,
      distanceM: results.distanceM,
      durationMs: results.durationMs,
      competition: results.competition,
      description: results.description,
      important: results.important,
      status: results.status,
      crew: sql<
        string[]
      >`coalesce((select array_agg(coalesce(trim(a.name || ' ' || a.surname), trim(rc.external_name || ' ' || coalesce(rc.external_surname, ''))) order by rc.seat)
        from result_crew rc left join athletes a on a.id = rc.athlete_id where rc.result_id = ${results.id}), '{}')`,
    })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .innerJoin(tracks, eq(tracks.id, results.trackId))
    .where(resultAccessible(userId))
    .orderBy(desc(results.startAt), desc(results.id))
    .limit(limit);
}
