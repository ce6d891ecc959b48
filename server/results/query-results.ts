import { and, asc, count, desc, eq, gte, ilike, lte, sql, type SQL } from "drizzle-orm";
import { resultAccessible } from "../access/access";
import { escapeLike } from "../athletes/paged-athletes";
import type { Db } from "../db/client";
import { categories, paces, results, tracks, users, vessels } from "../db/schema";
import { notFound } from "../errors";

/**
 * Filters and sort of GET /results (docs/results-api.md), already validated:
 * the results API's parameter layer (server/http/results-api/contract.ts)
 * bounds every id to int4, refuses NUL in text and impossible dates.
 */
export interface ResultFilters {
  start_date?: string;
  end_date?: string;
  /** ISO 8601 with a T separator; without an offset it is the session's local time. */
  start_datetime?: string;
  end_datetime?: string;
  vessel_id?: number;
  track_id?: number;
  category_id?: number;
  pace_id?: number;
  hardware_id?: number;
  athlete_id?: number;
  dist?: number;
  competition?: string;
  description?: string;
  sort: "date" | "dist" | "time" | "creation_date";
  order: "asc" | "desc";
}

/** A date-time without an offset is the session's local wall-clock time; with one, an instant. */
function dateTimeCondition(value: string, op: ">=" | "<="): SQL {
  const hasOffset = /Z|[+-]\d{2}:\d{2}$/.test(value);
  const column = hasOffset
    ? sql`${results.startAt}`
    : sql`((${results.startAt} at time zone 'UTC') + make_interval(mins => ${results.utcOffsetMin}::int))`;
  const bound = hasOffset ? sql`${value}::timestamptz` : sql`${value}::timestamp`;
  return op === ">=" ? sql`${column} >= ${bound}` : sql`${column} <= ${bound}`;
}

function filterConditions(userId: number, f: ResultFilters): SQL {
  return and(
    resultAccessible(userId),
    f.start_date ? gte(results.date, f.start_date) : undefined,
    f.end_date ? lte(results.date, f.end_date) : undefined,
    f.start_datetime ? dateTimeCondition(f.start_datetime, ">=") : undefined,
    f.end_datetime ? dateTimeCondition(f.end_datetime, "<=") : undefined,
    f.vessel_id !== undefined ? eq(results.vesselId, f.vessel_id) : undefined,
    f.track_id !== undefined ? eq(results.trackId, f.track_id) : undefined,
    f.category_id !== undefined ? eq(results.categoryId, f.category_id) : undefined,
    f.pace_id !== undefined ? eq(results.paceId, f.pace_id) : undefined,
    f.hardware_id !== undefined ? eq(results.deviceId, f.hardware_id) : undefined,
    f.dist !== undefined ? eq(results.distanceM, f.dist) : undefined,
    f.athlete_id !== undefined ? sql`exists (select 1 from result_crew f_rc where f_rc.result_id = ${results.id} and f_rc.athlete_id = ${f.athlete_id})` : undefined,
    f.competition ? ilike(results.competition, `%${escapeLike(f.competition)}%`) : undefined,
    f.description ? ilike(results.description, `%${escapeLike(f.description)}%`) : undefined,
  )!;
}

const SORT_COLUMNS = { date: results.startAt, dist: results.distanceM, time: results.durationMs, creation_date: results.createdAt } as const;

/** Everything the results API shows of a result row, joined (explicit columns, never a whole row). */
export const resultSummaryColumns = {
  id: results.id,
  distanceM: results.distanceM,
  date: results.date,
  timeOfDay: results.timeOfDay,
  competition: results.competition,
  description: results.description,
  durationMs: results.durationMs,
  createdAt: results.createdAt,
  softwareVersion: results.softwareVersion,
  hardware: results.hardware,
  important: results.important,
  ownerId: users.id,
  ownerName: users.name,
  trackId: tracks.id,
  trackName: tracks.name,
  categoryId: categories.id,
  categoryName: categories.name,
  vesselId: vessels.id,
  vesselType: vessels.type,
  vesselNpeople: vessels.npeople,
  paceId: paces.id,
  paceName: paces.name,
  athletes: sql<{ id: number; full_name: string }[]>`coalesce((select json_agg(json_build_object('id', a.id, 'full_name', trim(a.name || ' ' || a.surname)) order by rc.seat)
    from result_crew rc join athletes a on a.id = rc.athlete_id where rc.result_id = ${results.id}), '[]'::json)`,
};
function joined(db: Db) {
  return db
    .select(resultSummaryColumns)
    .from(results)
    .innerJoin(users, eq(users.id, results.ownerUserId))
    .innerJoin(tracks, eq(tracks.id, results.trackId))
    .innerJoin(categories, eq(categories.id, results.categoryId))
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .innerJoin(paces, eq(paces.id, results.paceId));
}
export type ResultSummaryRow = Awaited<ReturnType<typeof joined>>[number];

/** The two statements of a page (rows and total), unexecuted: the benchmark runs the same SQL directly. */
export function resultsPageQueries(db: Db, userId: number, filters: ResultFilters, limit: number, offset: number) {
  const where = filterConditions(userId, filters);
  const direction = filters.order === "asc" ? asc : desc;
  return {
    rows: joined(db).where(where).orderBy(direction(SORT_COLUMNS[filters.sort]), direction(results.id)).limit(limit).offset(offset),
    total: db.select({ total: count() }).from(results).where(where),
  };
}

export async function listResultsPage(db: Db, userId: number, filters: ResultFilters, limit: number, offset: number) {
  const queries = resultsPageQueries(db, userId, filters, limit, offset);
  const [rows, [{ total }]] = await Promise.all([queries.rows, queries.total]);
  return { rows, total };
}

export async function getAccessibleResultSummary(db: Db, userId: number, resultId: number): Promise<ResultSummaryRow> {
  const [row] = await joined(db).where(and(eq(results.id, resultId), resultAccessible(userId)));
  if (!row) throw notFound("Result");
  return row;
}
