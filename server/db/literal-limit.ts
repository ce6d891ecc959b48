import { sql } from "drizzle-orm";

/**
 * A page size written into the statement's text instead of sent as a
 * parameter. Reads are prepared (server/db/client.ts), and Postgres' generic
 * plan for a prepared statement assumes nothing about a `LIMIT $n`: it
 * estimates a tenth of the rows and picks a hash join over a whole table
 * (8.8 ms) where the keyset walk takes 0.6 ms, so it keeps planning every
 * run instead (about 1.4 ms of planning for GET /sessions). With the size in
 * the text the generic plan is the index walk and is reused. Page sizes are
 * few (1–101), so the statement caches stay small.
 */
export function literalLimit(take: number): number {
  if (!Number.isSafeInteger(take) || take < 0 || take > 10_000) throw new Error(`literalLimit: not a page size: ${take}`);
  // drizzle types limit() as number | placeholder; an SQL chunk is rendered as it stands.
  return sql.raw(String(take)) as unknown as number;
}
