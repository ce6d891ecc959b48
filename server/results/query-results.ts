import { and, asc, count, desc, eq, gte, ilike, lte, sql, type SQL } from "drizzle-orm";
import { resultAccessible } from "../access/access";
import { escapeLike } from "../athletes/paged-athletes";
import type { Db } from "../db/client";
import { literalLimit } from "../db/literal-limit";
import { categories, paces, results, sessionAccess, tracks, users, vessels } from "../db/schema";
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

/** The query string's filters, without the access rule. */
function filterConditions(f: ResultFilters): SQL | undefined {
  return and(
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
    f.athlete_id !== undefined
      ? sql`exists (select 1 from result_crew f_rc where f_rc.result_id = ${results.id} and f_rc.athlete_id = ${f.athlete_id})`
      : undefined,
    f.competition ? ilike(results.competition, `%${escapeLike(f.competition)}%`) : undefined,
    f.description ? ilike(results.description, `%${escapeLike(f.description)}%`) : undefined,
  );
}

const RESULT_SORT_COLUMNS = {
  date: results.startAt,
  dist: results.distanceM,
  time: results.durationMs,
  creation_date: results.createdAt,
} as const;
/**
 * A result's local date and time lie within its UTC offset of its instant,
 * and the offset is a smallint of minutes: so a date filter also bounds
 * session_access.start_at, which its (person, start, result) index can
 * serve. A sound, loose range: the exact filter on results still applies.
 */
const MAX_OFFSET_MS = 32_768 * 60_000;
const DAY_MS = 86_400_000;
function accessStartRange(f: ResultFilters): SQL | undefined {
  const instant = (value: string) => (/Z|[+-]\d{2}:\d{2}$/.test(value) ? Date.parse(value) : null);
  const local = (value: string) => Date.parse(/Z|[+-]\d{2}:\d{2}$/.test(value) ? value : `${value}Z`);
  const lower = [
    f.start_date ? Date.parse(`${f.start_date}T00:00:00Z`) - MAX_OFFSET_MS : null,
    f.start_datetime ? (instant(f.start_datetime) ?? local(f.start_datetime) - MAX_OFFSET_MS) : null,
  ].filter((v): v is number => v !== null && Number.isFinite(v));
  const upper = [
    f.end_date ? Date.parse(`${f.end_date}T00:00:00Z`) + DAY_MS + MAX_OFFSET_MS : null,
    f.end_datetime ? (instant(f.end_datetime) ?? local(f.end_datetime) + MAX_OFFSET_MS) : null,
  ].filter((v): v is number => v !== null && Number.isFinite(v));
  return and(
    lower.length ? gte(sessionAccess.startAt, new Date(Math.max(...lower))) : undefined,
    upper.length ? lte(sessionAccess.startAt, new Date(Math.min(...upper))) : undefined,
  );
}

/** The sort keys as session_access copies them, in the order of its (person, key, result) indexes. */
const SORT_COLUMNS = {
  date: sessionAccess.startAt,
  dist: sessionAccess.distanceM,
  time: sessionAccess.durationMs,
  creation_date: sessionAccess.createdAt,
} as const;

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
  athletes: sql<
    { id: number; full_name: string }[]
  >`coalesce((select json_agg(json_build_object('id', a.id, 'full_name', trim(a.name || ' ' || a.surname)) order by rc.seat)
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

/**
 * The two statements of a page (rows and total), unexecuted: the benchmark
 * runs the same SQL directly. Both read session_access, the trigger-kept list
 * of who may see each result (drizzle/0015), by its (person, sort key,
 * result) index: a page walks the index in order, so it costs about
 * offset + page rows, not the person's whole history; the total counts the
 * person's index entries, joined to results only when a filter needs them.
 */
export function resultsPageQueries(db: Db, userId: number, filters: ResultFilters, limit: number, offset: number) {
  const filtered = filterConditions(filters);
  const direction = filters.order === "asc" ? asc : desc;
  const visible = and(eq(sessionAccess.userId, userId), accessStartRange(filters))!;
  const page = db
    .select({ id: sessionAccess.resultId })
    .from(sessionAccess)
    .innerJoin(results, eq(results.id, sessionAccess.resultId))
    .where(and(visible, filtered))
    .orderBy(direction(SORT_COLUMNS[filters.sort]), direction(sessionAccess.resultId))
    .limit(literalLimit(limit))
    .offset(offset);
  const total = filtered
    ? db
        .select({ total: count() })
        .from(sessionAccess)
        .innerJoin(results, eq(results.id, sessionAccess.resultId))
        .where(and(visible, filtered))
    : db.select({ total: count() }).from(sessionAccess).where(visible);
  return {
    rows: joined(db)
      .where(sql`${results.id} in (${page})`)
      .orderBy(direction(RESULT_SORT_COLUMNS[filters.sort]), direction(results.id)),
    total,
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
