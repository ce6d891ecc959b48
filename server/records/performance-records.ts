import { and, asc, eq, isNotNull, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { results, vessels } from "../db/schema";

/**
 * Performance records of a person (Data API /records, the records page):
 * for each boat type and distance, the sessions that improved the best time
 * when they happened — the record's history. Distance efforts only, among
 * the sessions `sessions` admits: the caller passes the boundary of its
 * audience (sessionsAboutSubject for the Data API, sessionOfSubject for the
 * person's own pages), so the history is computed over what they may see.
 */
export interface RecordEntry {
  resultId: number;
  vesselId: number;
  vesselType: string;
  crewSize: number;
  distanceM: number;
  durationMs: number;
  date: string;
  /** Instant of the effort start. */
  startAt: Date;
  /** True for the current record of its boat and distance. */
  current: boolean;
}

export async function listRecordHistory(db: Db, sessions: SQL): Promise<RecordEntry[]> {
  const rows = await db
    .select({
      resultId: results.id,
      vesselId: vessels.id,
      vesselType: vessels.type,
      crewSize: vessels.npeople,
      distanceM: results.distanceM,
      durationMs: results.durationMs,
      date: results.date,
      startAt: results.startAt,
    })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .where(and(isNotNull(results.targetDistanceM), eq(results.status, "processed"), sessions))
    .orderBy(asc(vessels.type), asc(results.distanceM), asc(results.startAt), asc(results.id));
  const history: RecordEntry[] = [];
  const best = new Map<string, RecordEntry>();
  for (const row of rows) {
    const key = `${row.vesselType}:${row.distanceM}`;
    const previous = best.get(key);
    if (!previous || row.durationMs < previous.durationMs) {
      if (previous) previous.current = false;
      const entry: RecordEntry = { ...row, current: true };
      best.set(key, entry);
      history.push(entry);
    }
  }
  return history;
}

/**
 * Where an entry sits in the history's order: boat class, distance, start
 * instant (ISO 8601), session id. Total (the session id breaks every tie),
 * so a keyset page after a position is stable while sessions are added.
 */
export type RecordPosition = [vesselType: string, distanceM: number, startAt: string, resultId: number];

export const recordPosition = (entry: RecordEntry): RecordPosition => [
  entry.vesselType,
  entry.distanceM,
  entry.startAt.toISOString(),
  entry.resultId,
];

// Plain code-point order, not the database collation: the page filter below uses the same comparison.
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function compareRecordPositions(a: RecordPosition, b: RecordPosition): number {
  return compareText(a[0], b[0]) || a[1] - b[1] || compareText(a[2], b[2]) || a[3] - b[3];
}

/**
 * One keyset page of the record history: the entries after `after` (null =
 * from the start), at most `take`. The history is computed whole (it is
 * derived from every distance effort), then ordered and cut.
 */
export async function listRecordHistoryPage(
  db: Db,
  sessions: SQL,
  page: { after: RecordPosition | null; take: number },
): Promise<RecordEntry[]> {
  const ordered = (await listRecordHistory(db, sessions))
    .map((entry) => ({ entry, position: recordPosition(entry) }))
    .sort((a, b) => compareRecordPositions(a.position, b.position));
  const after = page.after;
  return ordered
    .filter(({ position }) => after === null || compareRecordPositions(position, after) > 0)
    .slice(0, page.take)
    .map(({ entry }) => entry);
}
