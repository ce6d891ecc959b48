import { and, eq, gte, ilike, lte, ne, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { athleteAccessible } from "../access/access";
import { escapeLike } from "../athletes/paged-athletes";
import type { Db } from "../db/client";
import { results } from "../db/schema";
import { notFound } from "../errors";

/**
 * The web app's sessions log (docs/web-app.md "Sessions log"): every session
 * the user may see under the web rule (owns it, or an athlete they manage,
 * are, or coach sits in the crew; server/access/access.ts), paged by keyset.
 *
 * session_access holds only "owns or paddled in" (the Data API's subject), not
 * the coach rule, so a page is the merge of two keyset branches, each read in
 * index order:
 * - owned: results by (owner, sort key, id), the results_owner_* indexes;
 * - crew: sessions someone else owns in which an accessible athlete sits,
 *   via result_crew (athlete, result).
 * With `athlete` set, one branch: that athlete's crew seats.
 */

export const LOG_SORTS = ["date", "distance", "time", "speed"] as const;
export type LogSort = (typeof LOG_SORTS)[number];
export const LOG_PAGE_SIZE = 25;

const optionalId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .refine((n) => n <= 2_147_483_647)
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
  view: z.enum(["list", "week"]).catch("list").default("list"),
});
export type LogQuery = z.output<typeof ZLogQuery>;

/** The query string values as Next.js hands them over (a repeated key keeps its first value). */
export function parseLogQuery(params: Record<string, string | string[] | undefined>): LogQuery {
  const flat = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]).filter(([, v]) => v !== undefined && v !== ""));
  return ZLogQuery.parse(flat);
}

/** Speed has no column: m/s computed from the two, in the same form as the results_owner_speed_idx expression. */
export const speedExpression = (table: { distance: SQL | string; duration: SQL | string }) => sql.raw(`(${table.distance}::double precision / greatest(${table.duration}, 1))`);

const SORT_SQL: Record<LogSort, (alias: string) => SQL> = {
  date: (a) => sql.raw(`${a}.start_at`),
  distance: (a) => sql.raw(`${a}.distance_m`),
  time: (a) => sql.raw(`${a}.duration_ms`),
  speed: (a) => speedExpression({ distance: `${a}.distance_m`, duration: `${a}.duration_ms` }),
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
    const schema = z.tuple([sort === "date" ? z.string().max(40).refine((s) => !Number.isNaN(Date.parse(s))) : z.number().finite(), z.number().int().positive().max(2_147_483_647)]);
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

function seekSql(q: LogQuery, after: LogPosition | null): SQL | undefined {
  if (!after) return undefined;
  const key = SORT_SQL[q.sort]("results");
  const value = q.sort === "date" ? sql`${String(after[0])}::timestamptz` : q.sort === "speed" ? sql`${Number(after[0])}::double precision` : sql`${Number(after[0])}::int`;
  return q.order === "asc" ? sql`(${key}, results.id) > (${value}, ${after[1]}::int)` : sql`(${key}, results.id) < (${value}, ${after[1]}::int)`;
}

const direction = (q: LogQuery) => sql.raw(q.order === "asc" ? "asc" : "desc");

/**
 * The ids and sort keys of one page, unexecuted (the benchmark runs this very
 * statement). `take` is one more than shown, to know whether a next page exists.
 */
export function logPageIdsQuery(userId: number, q: LogQuery, after: LogPosition | null, take: number): SQL {
  const key = SORT_SQL[q.sort]("results");
  const order = direction(q);
  const where = and(filterSql(q), seekSql(q, after));
  const sortKeyText = q.sort === "date" ? sql`${key}::text` : sql`${key}`;
  // Distinct in the crew branch: two accessible athletes in one crew are two crew rows of one session.
  const branch = (from: SQL, condition: SQL | undefined, distinct = false) =>
    sql`(select ${sql.raw(distinct ? "distinct " : "")}results.id, ${sortKeyText} as sort_key, ${key} as sort_value from ${from} where ${and(condition, where) ?? sql`true`} order by ${key} ${order}, results.id ${order} limit ${take})`;
  const crewOf = (athleteCondition: SQL) => sql`result_crew log_rc join results on results.id = log_rc.result_id and ${athleteCondition}`;
  if (q.athlete !== undefined) {
    return sql`select id, sort_key from ${branch(crewOf(sql`log_rc.athlete_id = ${q.athlete}`), undefined)} page order by sort_value ${order}, id ${order}`;
  }
  const owned = branch(sql`results`, eq(results.ownerUserId, userId));
  const crew = branch(crewOf(athleteAccessible(userId, sql`log_rc.athlete_id`)), ne(results.ownerUserId, userId), true);
  return sql`select id, sort_key from (${owned} union all ${crew}) page order by sort_value ${order}, id ${order} limit ${take}`;
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
 * last). An athlete filter outside the user's reach is a 404.
 */
export async function readLogPage(db: Db, userId: number, q: LogQuery, pageSize = LOG_PAGE_SIZE): Promise<{ rows: LogRow[]; nextCursor: string | null }> {
  if (q.athlete !== undefined) {
    const visible = await db.execute(sql`select 1 from athletes where id = ${q.athlete} and ${athleteAccessible(userId, sql`${q.athlete}::int`)}`);
    if (!rowsOf(visible).length) throw notFound("Athlete");
  }
  const after = decodeLogCursor(q.after, q.sort);
  const page = rowsOf<{ id: number; sort_key: string | number }>(await db.execute(logPageIdsQuery(userId, q, after, pageSize + 1)));
  const shown = page.slice(0, pageSize);
  if (!shown.length) return { rows: [], nextCursor: null };
  const details = rowsOf<Omit<LogRow, "sortKey">>(
    await db.execute(sql`
      select r.id, r.date::text as "date", r.time_of_day as "timeOfDay", v.type as "boatClass", t.name as "trackName",
        r.distance_m as "distanceM", r.duration_ms as "durationMs", r.competition, r.description, r.important, r.status,
        coalesce((select array_agg(coalesce(trim(a.name || ' ' || a.surname), trim(rc.external_name || ' ' || coalesce(rc.external_surname, ''))) order by rc.seat)
          from result_crew rc left join athletes a on a.id = rc.athlete_id where rc.result_id = r.id), '{}') as crew
      from results r join vessels v on v.id = r.vessel_id join tracks t on t.id = r.track_id
      where r.id in (${sql.join(
        shown.map((p) => sql`${p.id}::int`),
        sql`, `,
      )})`),
  );
  const byId = new Map(details.map((d) => [Number(d.id), d]));
  const rows = shown.map((p) => ({ ...byId.get(Number(p.id))!, id: Number(p.id), sortKey: q.sort === "date" ? String(p.sort_key) : Number(p.sort_key) }));
  const last = rows.at(-1)!;
  return { rows, nextCursor: page.length > pageSize ? encodeLogCursor([last.sortKey, last.id]) : null };
}

/** postgres.js returns an array, PGlite an object with rows. */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
