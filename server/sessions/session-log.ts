import { and, eq, gte, ilike, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { athleteAccessible } from "../access/access";
import { escapeLike } from "../athletes/paged-athletes";
import type { Db } from "../db/client";
import { results } from "../db/schema";
import { literalLimit } from "../db/literal-limit";
import { notFound } from "../errors";
import { INT4_MAX } from "../contract/values";

/**
 * The web app's sessions log (docs/web-app.md "Sessions log"): every session
 * the user may see under the web rule (owns it, or an athlete they manage,
 * are, or coach sits in the crew; server/access/access.ts), paged by keyset.
 *
 * session_access holds exactly that rule, one row per session and person
 * with copies of the sort keys (drizzle/0013, 0022), so a page is one range
 * of its (person, sort key, session) index: it costs the same on page 1 and
 * page 800, however many sessions the user's athletes have. With `athlete`
 * set, the page walks that athlete's crew seats instead. The page and its
 * rows' details are one statement.
 */

export const LOG_SORTS = ["date", "distance", "time", "speed"] as const;
export type LogSort = (typeof LOG_SORTS)[number];
export const LOG_PAGE_SIZE = 25;

const optionalId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .refine((n) => n <= INT4_MAX)
  .optional()
  .catch(undefined);
const optionalDate = z.iso
  .date()
  .refine((d) => !Number.isNaN(Date.parse(d)))
  .optional()
  .catch(undefined);

/**
 * The log's filters as they stand in the URL. A value that does not parse is
 * dropped rather than refused: a hand-edited link still opens the log.
 */
export const ZLogQuery = z.object({
  sort: z.enum(LOG_SORTS).catch("date").default("date"),
  order: z.enum(["asc", "desc"]).catch("desc").default("desc"),
  athlete: optionalId,
  boat: optionalId,
  track: optionalId,
  distance: optionalId,
  from: optionalDate,
  to: optionalDate,
  competition: z.string().trim().max(64).optional().catch(undefined),
  important: z.literal("1").optional().catch(undefined),
  after: z.string().max(200).optional().catch(undefined),
  view: z.enum(["list", "week", "calendar"]).catch("list").default("list"),
  /** The calendar view's month, YYYY-MM. */
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional()
    .catch(undefined),
});
export type LogQuery = z.output<typeof ZLogQuery>;

/** The query string values as Next.js hands them over (a repeated key keeps its first value). */
export function parseLogQuery(params: Record<string, string | string[] | undefined>): LogQuery {
  const flat = Object.fromEntries(
    Object.entries(params)
      .map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])
      .filter(([, v]) => v !== undefined && v !== ""),
  );
  return ZLogQuery.parse(flat);
}

/** Speed has no column: m/s computed from the two, in the same form as the results_owner_speed_idx expression. */
export const speedExpression = (table: { distance: SQL | string; duration: SQL | string }) =>
  sql.raw(`(${table.distance}::double precision / greatest(${table.duration}, 1))`);

/** The sort keys on session_access's copies, in the form of its indexes (speed: session_access_speed_idx's expression). */
const ACCESS_SORT_SQL: Record<LogSort, SQL> = {
  date: sql.raw("log_sa.start_at"),
  distance: sql.raw("log_sa.distance_m"),
  time: sql.raw("log_sa.duration_ms"),
  speed: speedExpression({ distance: "log_sa.distance_m", duration: "log_sa.duration_ms" }),
};

/** A position in the log: the last row's sort key (timestamps as exact text) and id. */
type LogPosition = [string | number, number];

export function encodeLogCursor(position: LogPosition): string {
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

/** A cursor from the URL; anything that is not one this log wrote reads as "first page". */
export function decodeLogCursor(cursor: string | undefined, sort: LogSort): LogPosition | null {
  if (!cursor) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    const schema = z.tuple([
      sort === "date"
        ? z
            .string()
            .max(40)
            .refine((s) => !Number.isNaN(Date.parse(s)))
        : z.number().finite(),
      z.number().int().positive().max(INT4_MAX),
    ]);
    const parsed = schema.safeParse(value);
    return parsed.success ? (parsed.data as LogPosition) : null;
  } catch {
    return null;
  }
}

/** The log's filters, as conditions on the results table (every branch reads it under its own name). */
export function filterSql(q: LogQuery): SQL | undefined {
  return and(
    q.boat !== undefined ? eq(results.vesselId, q.boat) : undefined,
    q.track !== undefined ? eq(results.trackId, q.track) : undefined,
    q.distance !== undefined ? eq(results.distanceM, q.distance) : undefined,
    q.from ? gte(results.date, q.from) : undefined,
    q.to ? lte(results.date, q.to) : undefined,
    q.competition ? ilike(results.competition, `%${escapeLike(q.competition)}%`) : undefined,
    q.important ? eq(results.important, true) : undefined,
  );
}

/**
 * A session's local date lies within its UTC offset (a smallint of minutes) of
 * its instant, so a date filter also bounds session_access.start_at: a sound,
 * loose range that lets the date-sorted index skip what lies outside it (the
 * exact date filter on results still applies).
 */
const MAX_OFFSET_MS = 32_768 * 60_000;
function startAtBounds(q: LogQuery): SQL | undefined {
  return and(
    q.from ? sql`log_sa.start_at >= ${new Date(Date.parse(`${q.from}T00:00:00Z`) - MAX_OFFSET_MS).toISOString()}::timestamptz` : undefined,
    q.to
      ? sql`log_sa.start_at < ${new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000 + MAX_OFFSET_MS).toISOString()}::timestamptz`
      : undefined,
  );
}

function seekSql(q: LogQuery, after: LogPosition | null, key: SQL, id: SQL): SQL | undefined {
  if (!after) return undefined;
  const value =
    q.sort === "date"
      ? sql`${String(after[0])}::timestamptz`
      : q.sort === "speed"
        ? sql`${Number(after[0])}::double precision`
        : sql`${Number(after[0])}::int`;
  return q.order === "asc" ? sql`(${key}, ${id}) > (${value}, ${after[1]}::int)` : sql`(${key}, ${id}) < (${value}, ${after[1]}::int)`;
}

const direction = (q: LogQuery) => sql.raw(q.order === "asc" ? "asc" : "desc");

/**
 * The ids and sort keys of one page, unexecuted. `take` is one more than
 * shown, to know whether a next page exists. A range of session_access by
 * (user, sort key, result), joined to results by primary key for the
 * filters. An athlete filter is a semi-join on their crew seats: the planner
 * walks the index and checks each session while the athlete is common in the
 * user's log, or sorts the athlete's few sessions when they are rare. (The
 * athlete is visible to the user, checked before, so every session of theirs
 * is in the user's session_access.)
 */
export function logPageIdsQuery(userId: number, q: LogQuery, after: LogPosition | null, take: number): SQL {
  const order = direction(q);
  const key = ACCESS_SORT_SQL[q.sort];
  const sortKeyText = q.sort === "date" ? sql`${key}::text` : key;
  const where = and(
    sql`log_sa.user_id = ${userId}`,
    q.athlete !== undefined
      ? sql`exists (select 1 from result_crew log_rc where log_rc.result_id = log_sa.result_id and log_rc.athlete_id = ${q.athlete})`
      : undefined,
    startAtBounds(q),
    filterSql(q),
    seekSql(q, after, key, sql.raw("log_sa.result_id")),
  );
  return sql`select log_sa.result_id as id, ${sortKeyText} as sort_key, ${key} as sort_value
    from session_access log_sa join results on results.id = log_sa.result_id
    where ${where} order by ${key} ${order}, log_sa.result_id ${order} limit ${literalLimit(take)}`;
}

export interface LogRow {
  id: number;
  date: string;
  timeOfDay: string;
  boatClass: string;
  trackName: string;
  distanceM: number;
  durationMs: number;
  competition: string;
  description: string;
  important: boolean;
  status: string;
  crew: string[];
  sortKey: string | number;
}

/**
 * One page of the log: rows, and the cursor of the next page (null on the
 * last). An athlete filter outside the user's reach is a 404. The page's ids
 * and their rows' details come from one statement.
 */
export async function readLogPage(
  db: Db,
  userId: number,
  q: LogQuery,
  pageSize = LOG_PAGE_SIZE,
): Promise<{ rows: LogRow[]; nextCursor: string | null }> {
  if (q.athlete !== undefined) {
    const visible = await db.execute(
      sql`select 1 from athletes where id = ${q.athlete} and ${athleteAccessible(userId, sql`${q.athlete}::int`)}`,
    );
    if (!rowsOf(visible).length) throw notFound("Athlete");
  }
  const after = decodeLogCursor(q.after, q.sort);
  const order = direction(q);
  const page = rowsOf<Omit<LogRow, "sortKey"> & { sortKey: string | number }>(
    await db.execute(sql`
      select r.id, r.date::text as "date", r.time_of_day as "timeOfDay", v.type as "boatClass", t.name as "trackName",
        r.distance_m as "distanceM", r.duration_ms as "durationMs", r.competition, r.description, r.important, r.status,
        coalesce((select array_agg(coalesce(trim(a.name || ' ' || a.surname), trim(rc.external_name || ' ' || coalesce(rc.external_surname, ''))) order by rc.seat)
          from result_crew rc left join athletes a on a.id = rc.athlete_id where rc.result_id = r.id), '{}') as crew,
        page.sort_key as "sortKey"
      from (${logPageIdsQuery(userId, q, after, pageSize + 1)}) page
      join results r on r.id = page.id join vessels v on v.id = r.vessel_id join tracks t on t.id = r.track_id
      order by page.sort_value ${order}, page.id ${order}`),
  );
  const rows = page
    .slice(0, pageSize)
    .map((p) => ({ ...p, id: Number(p.id), sortKey: q.sort === "date" ? String(p.sortKey) : Number(p.sortKey) }));
  if (!rows.length) return { rows: [], nextCursor: null };
  const last = rows.at(-1)!;
  return { rows, nextCursor: page.length > pageSize ? encodeLogCursor([last.sortKey, last.id]) : null };
}

/** postgres.js returns an array, PGlite an object with rows. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
