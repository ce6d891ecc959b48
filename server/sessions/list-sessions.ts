import { and, asc, desc, eq, gte, ilike, lte, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { escapeLike } from "../athletes/paged-athletes";
import type { Db } from "../db/client";
import { athletes, categories, paces, results, sessionAccess, tracks, vessels } from "../db/schema";
import { literalLimit } from "../db/literal-limit";
import { notFound } from "../errors";
import type { KeysetPosition } from "../contract/keyset";
import { athleteVisibleTo, sessionListed, type SessionAudience } from "./session-boundary";

/** Filters and order of GET /sessions (data-api.md "Filters of GET /sessions"). */
export interface SessionFilters {
  date_from?: string;
  date_to?: string;
  track_id?: number;
  category_id?: number;
  pace_id?: number;
  distance_m?: number;
  boat_class_id?: number;
  vessel_id?: number;
  athlete_id?: number;
  competition?: string;
  description?: string;
  important?: boolean;
  sort: SessionSort;
  order: "asc" | "desc";
}
export const SESSION_SORTS = ["date", "distance", "duration", "created"] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];

/**
 * The results columns behind each sort (session_access keeps copies, indexed per
 * person); timestamps travel in cursors as exact text.
 */
const SORT_COLUMNS = {
  date: { column: results.startAt, timestamp: true },
  distance: { column: results.distanceM, timestamp: false },
  duration: { column: results.durationMs, timestamp: false },
  created: { column: results.createdAt, timestamp: true },
} as const;

/** Columns of a session as lists and reads show it: explicit, never a whole row. */
export const sessionColumns = {
  id: results.id,
  ownerUserId: results.ownerUserId,
  date: results.date,
  timeOfDay: results.timeOfDay,
  startAt: results.startAt,
  utcOffsetMin: results.utcOffsetMin,
  distanceM: results.distanceM,
  durationMs: results.durationMs,
  targetDistanceM: results.targetDistanceM,
  targetDurationMs: results.targetDurationMs,
  competition: results.competition,
  description: results.description,
  important: results.important,
  status: results.status,
  createdAt: results.createdAt,
  equipmentVesselId: results.equipmentVesselId,
  equipmentPaddleId: results.equipmentPaddleId,
  boatClassId: vessels.id,
  boatClass: vessels.type,
  crewSize: vessels.npeople,
  hull: vessels.hull,
  trackId: tracks.id,
  trackName: tracks.name,
  categoryId: categories.id,
  categoryName: categories.name,
  paceId: paces.id,
  paceName: paces.name,
};

export function selectSessions(db: Db) {
  return db
    .select(sessionColumns)
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .innerJoin(tracks, eq(tracks.id, results.trackId))
    .innerJoin(categories, eq(categories.id, results.categoryId))
    .innerJoin(paces, eq(paces.id, results.paceId));
}
export type SessionRow = Awaited<ReturnType<typeof selectSessions>>[number];

/** The filters of the query string, without the subject boundary. */
function filterConditions(f: SessionFilters): SQL | undefined {
  return and(
    f.date_from ? gte(results.date, f.date_from) : undefined,
    f.date_to ? lte(results.date, f.date_to) : undefined,
    f.track_id !== undefined ? eq(results.trackId, f.track_id) : undefined,
    f.category_id !== undefined ? eq(results.categoryId, f.category_id) : undefined,
    f.pace_id !== undefined ? eq(results.paceId, f.pace_id) : undefined,
    f.distance_m !== undefined ? eq(results.distanceM, f.distance_m) : undefined,
    f.boat_class_id !== undefined ? eq(results.vesselId, f.boat_class_id) : undefined,
    f.vessel_id !== undefined ? eq(results.equipmentVesselId, f.vessel_id) : undefined,
    f.competition ? ilike(results.competition, `%${escapeLike(f.competition)}%`) : undefined,
    f.description ? ilike(results.description, `%${escapeLike(f.description)}%`) : undefined,
    f.important !== undefined ? eq(results.important, f.important) : undefined,
  );
}

/** `(column, id) > / < position`: the keyset seek, on the given columns. */
function seekAfter(
  after: KeysetPosition | null,
  sort: SessionSort,
  order: "asc" | "desc",
  column: SQL | AnyPgColumn,
  id: AnyPgColumn,
): SQL | undefined {
  if (!after) return undefined;
  const [key, lastId] = after;
  const value = SORT_COLUMNS[sort].timestamp ? sql`${String(key)}::timestamptz` : sql`${Number(key)}`;
  return order === "asc"
    ? sql`(${column}, ${id}) > (${value}, ${Number(lastId)})`
    : sql`(${column}, ${id}) < (${value}, ${Number(lastId)})`;
}

/** The keyset statement of one page, unexecuted (the benchmark runs the same SQL directly). */
export function sessionsPageQuery(db: Db, audience: SessionAudience, filters: SessionFilters, after: KeysetPosition | null, take: number) {
  const { column, timestamp } = SORT_COLUMNS[filters.sort];
  const direction = filters.order === "asc" ? asc : desc;
  const sortKey = timestamp ? sql<string>`${column}::text` : sql<number>`${column}`;
  return db
    .select({ ...sessionColumns, sortKey })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .innerJoin(tracks, eq(tracks.id, results.trackId))
    .innerJoin(categories, eq(categories.id, results.categoryId))
    .innerJoin(paces, eq(paces.id, results.paceId))
    .where(pageCondition(db, audience, filters, after, take))
    .orderBy(direction(column), direction(results.id))
    .limit(literalLimit(take));
}

/** The copies of the sort keys in session_access, which its indexes order. */
const ACCESS_SORT_COLUMNS = {
  date: sessionAccess.startAt,
  distance: sessionAccess.distanceM,
  duration: sessionAccess.durationMs,
  created: sessionAccess.createdAt,
} as const;

/**
 * Which rows make the page. The subject's own list ("owns it OR paddled in
 * it") reads session_access, the trigger-kept list of whose each session is,
 * by its (person, sort key, session) index: a page costs the same however
 * many sessions the person has (docs/benchmarks.md). Other lists (an
 * athlete's sessions, the session surface) are one condition on results.
 */
function pageCondition(db: Db, audience: SessionAudience, filters: SessionFilters, after: KeysetPosition | null, take: number): SQL {
  const filtered = filterConditions(filters);
  if (audience.surface === "session" || filters.athlete_id !== undefined) {
    const seek = seekAfter(after, filters.sort, filters.order, SORT_COLUMNS[filters.sort].column, results.id);
    return and(sessionListed(audience, filters.athlete_id), filtered, seek)!;
  }
  const column = ACCESS_SORT_COLUMNS[filters.sort];
  const direction = filters.order === "asc" ? asc : desc;
  const page = db
    .select({ id: sessionAccess.resultId })
    .from(sessionAccess)
    .innerJoin(results, eq(results.id, sessionAccess.resultId))
    // `subject` literally (not a parameter), so the planner picks the partial indexes of the subject's rows.
    .where(
      and(
        eq(sessionAccess.userId, audience.subjectId),
        sql`${sessionAccess.subject}`,
        filtered,
        seekAfter(after, filters.sort, filters.order, column, sessionAccess.resultId),
      ),
    )
    .orderBy(direction(column), direction(sessionAccess.resultId))
    .limit(literalLimit(take));
  return sql`${results.id} in (${page})`;
}

export type SessionListRow = Awaited<ReturnType<typeof sessionsPageQuery>>[number];
export const sessionPosition = (row: SessionListRow): KeysetPosition => [row.sortKey, row.id];

/**
 * One keyset page of the subject's sessions. An `athlete_id` outside the
 * subject's reach is a 404, like any id the subject may not see.
 */
export async function listSessionsPage(
  db: Db,
  audience: SessionAudience,
  filters: SessionFilters,
  after: KeysetPosition | null,
  take: number,
) {
  if (filters.athlete_id !== undefined) {
    const [visible] = await db
      .select({ id: athletes.id })
      .from(athletes)
      .where(and(eq(athletes.id, filters.athlete_id), athleteVisibleTo(audience.subjectId, filters.athlete_id)));
    if (!visible) throw notFound("Athlete");
  }
  return sessionsPageQuery(db, audience, filters, after, take);
}
