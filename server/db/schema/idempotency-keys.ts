import { index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * What a request carrying an Idempotency-Key produced, so that the same key
 * replays it instead of doing the work again (server/idempotency/,
 * docs/exports.md "Idempotency"). Shared by every instance through Postgres.
 */

/** A stored outcome: a reference to the created resource, or a whole response. */
export type StoredOutcome = { kind: "resource"; type: string; id: string } | { kind: "response"; status: number; body: unknown };

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    /** Who may replay it: e.g. `data:app:<application id>:user:<user id>` or `results:keypair:<key pair id>`. */
    scope: text("scope").notNull(),
    /** The client's Idempotency-Key header, 1 to 255 printable ASCII characters. */
    key: text("key").notNull(),
    /** Hex SHA-256 of method, path and canonical body: a different request under the same key is a 409. */
    fingerprint: text("fingerprint").notNull(),
    /** What the first request produced; written in the same transaction as the work itself. */
    outcome: jsonb("outcome").$type<StoredOutcome>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** After this instant the key may be reused for anything and the sweeper deletes the row (kept 24 hours). */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);
