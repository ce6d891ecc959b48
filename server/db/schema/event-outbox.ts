import { sql } from "drizzle-orm";
import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The transactional outbox (docs/jobs.md "Outbox"): an event emitted inside a
 * transaction is a row here, committed with the caller's writes; a relay
 * sends it to Inngest after the commit and marks it sent. Nothing is lost
 * when the process dies between commit and send: the next relay pass sends it.
 */
export const eventOutbox = pgTable(
  "event_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** Event id, also Inngest's idempotency key: a resend after a crash starts nothing twice. */
    eventId: text("event_id").notNull().unique(),
    name: text("name").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set once Inngest accepted the event; sent rows are deleted after a day. */
    sentAt: timestamp("sent_at", { withTimezone: true }),
    /** Send attempts that failed so far, and the last error (the relay backs off). */
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** Earliest next send attempt. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("event_outbox_pending_idx")
      .on(t.nextAttemptAt)
      .where(sql`sent_at is null`),
  ],
);
