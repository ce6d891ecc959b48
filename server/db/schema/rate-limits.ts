import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Fixed-window request counters shared by every app instance
 * (server/rate-limit/rate-limit.ts). Old windows are deleted as they expire.
 */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    /** What is limited and for whom, e.g. "results:key:12" or "oauth-token:client:abc". */
    bucket: text("bucket").notNull(),
    /** Start of the window this count belongs to. */
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    /** Requests counted in the window. */
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);
