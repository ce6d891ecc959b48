import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { results, vessels } from "../db/schema";

/**
 * Performance records of a person (Data API /records, the records page):
 * for each boat type and distance, the sessions that improved the best time
 * when they happened — the record's history. Distance efforts only; the
 * person owns the session or sits in its crew.
 */
export interface RecordEntry {
  resultId: number;
  vesselType: string;
  distanceM: number;
  durationMs: number;
  date: string;
  /** True for the current record of its boat and distance. */
  current: boolean;
}

export async function listRecordHistory(db: Db, userId: number): Promise<RecordEntry[]> {
  const rows = await db
    .select({ resultId: results.id, vesselType: vessels.type, distanceM: results.distanceM, durationMs: results.durationMs, date: results.date, startAt: results.startAt })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .where(
      and(
        isNotNull(results.targetDistanceM),
        eq(results.status, "processed"),
        sql`(${results.ownerUserId} = ${userId} or exists (select 1 from result_crew rc join athletes a on a.id = rc.athlete_id where rc.result_id = ${results.id} and a.user_id = ${userId}))`,
      ),
    )
    .orderBy(asc(vessels.type), asc(results.distanceM), asc(results.startAt), asc(results.id));
  const history: RecordEntry[] = [];
  const best = new Map<string, RecordEntry>();
  for (const row of rows) {
    const key = `${row.vesselType}:${row.distanceM}`;
    const previous = best.get(key);
    if (!previous || row.durationMs < previous.durationMs) {
      if (previous) previous.current = false;
      const entry = { resultId: row.resultId, vesselType: row.vesselType, distanceM: row.distanceM, durationMs: row.durationMs, date: row.date, current: true };
      best.set(key, entry);
      history.push(entry);
    }
  }
  return history;
}
