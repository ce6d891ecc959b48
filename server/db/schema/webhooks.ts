import { sql } from "drizzle-orm";
import { bigint, bigserial, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { oauthApplications } from "./oauth-applications";
import { users } from "./users";

/**
 * Signed webhooks (docs/webhooks.md, Standard Webhooks). An application's
 * owner registers endpoints; every event a subject's change produces for an
 * application is a row in `webhook_events`, written in the transaction of the
 * change, and each endpoint that subscribes to its type gets a
 * `webhook_deliveries` row, sent by the endpoint's `dispatch-webhooks` run
 * (one run per endpoint with work, not per delivery: docs/webhooks.md "Dispatch").
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    /** Public id shown in the portal ("we_" + base62). */
    publicId: text("public_id").notNull().unique(),
    applicationId: integer("application_id")
      .notNull()
      .references(() => oauthApplications.id, { onDelete: "cascade" }),
    /** HTTPS URL (plain HTTP only to loopback when WEBHOOK_ALLOW_LOOPBACK=1). */
    url: text("url").notNull(),
    /** Event types this endpoint receives, e.g. {session.created, training.ready}. */
    eventTypes: text("event_types").array().notNull(),
    /** Current signing secret ("whsec_…"), AES-256-GCM encrypted with the app's webhook key; never shown again. */
    secretCiphertext: text("secret_ciphertext").notNull(),
    /** First characters of the current secret, to recognise it. */
    secretStart: text("secret_start").notNull(),
    /** The secret before the last rotation: it still signs (second signature) until `previous_secret_expires_at`. */
    previousSecretCiphertext: text("previous_secret_ciphertext"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    /** Start of the current run of failed deliveries (null after a 2xx); 5 days of failures disable the endpoint. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    /** Set when deliveries stopped: by the owner or after 5 days of failures; `disabled_reason` says why. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    disabledReason: text("disabled_reason"),
    /**
     * Set while a `dispatch-webhooks` run is responsible for this endpoint's pending deliveries
     * (heartbeat: renewed by each batch); null when none is, so the next emission starts one.
     */
    dispatchQueuedAt: timestamp("dispatch_queued_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_application_idx").on(t.applicationId)],
);

/** One event for one application (the payload it receives), written in the transaction of the change. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /** The Standard Webhooks message id ("msg_" + base62): the `webhook-id` of every delivery and redelivery of this event. */
    messageId: text("message_id").notNull().unique(),
    applicationId: integer("application_id")
      .notNull()
      .references(() => oauthApplications.id, { onDelete: "cascade" }),
    /** The subject whose change this is (null for a test event); for the grant check before each attempt. */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    /** The exact JSON body sent: type, timestamp, data (subject's pairwise sub and resource ids only). */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The writing transaction's id (pg_current_xact_id). The listen stream
     * (server/webhooks/listen-stream.ts) reads events in (tx_id, id) order and
     * only from transactions older than every running one, so an event that
     * commits late is never skipped by a cursor that moved past its id.
     */
    txId: bigint("tx_id", { mode: "number" })
      .notNull()
      .default(sql`(pg_current_xact_id()::text)::bigint`),
  },
  (t) => [
    index("webhook_events_application_idx").on(t.applicationId, t.id),
    index("webhook_events_application_tx_idx").on(t.applicationId, t.txId, t.id),
  ],
);

/**
 * Listen tokens (docs/webhooks.md "Local development"): what `paddle-results
 * listen` authenticates with to stream one application's events. Made by the
 * application's owner on its portal page, shown once, stored as a SHA-256
 * hash; not an OAuth grant.
 */
export const webhookListenTokens = pgTable(
  "webhook_listen_tokens",
  {
    id: serial("id").primaryKey(),
    /** Public id shown in the portal ("wl_" + base62). */
    publicId: text("public_id").notNull().unique(),
    applicationId: integer("application_id")
      .notNull()
      .references(() => oauthApplications.id, { onDelete: "cascade" }),
    /** Owner's label, e.g. "Laptop". */
    name: text("name").notNull(),
    /** Hex SHA-256 of the whole token ("prl_" + base62). */
    tokenHash: text("token_hash").notNull().unique(),
    /** First characters of the token, to recognise it in the list. */
    tokenStart: text("token_start").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set at each connection. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    /** Set on revocation: refused from then on, and open streams end at their next poll. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("webhook_listen_tokens_application_idx").on(t.applicationId, t.id)],
);

/** One endpoint's delivery of one event: attempts, outcome, next attempt. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    eventId: bigint("event_id", { mode: "number" })
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** pending (attempts left) | succeeded (a 2xx) | failed (attempts exhausted or endpoint disabled) | cancelled (grant revoked). */
    status: text("status", { enum: ["pending", "succeeded", "failed", "cancelled"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** HTTP status of the last attempt (null: no response, see last_error). */
    lastResponseStatus: integer("last_response_status"),
    /** Time from the request's start to the response headers of the last attempt, in ms. */
    lastLatencyMs: integer("last_latency_ms"),
    lastError: text("last_error"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** The dispatcher (its run id) sending this delivery now, until `claimed_until`; another dispatcher skips it meanwhile. */
    claimedBy: text("claimed_by"),
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    index("webhook_deliveries_pending_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    // The dispatcher's claim: an endpoint's pending deliveries in id order.
    index("webhook_deliveries_endpoint_pending_idx")
      .on(t.endpointId, t.id)
      .where(sql`status = 'pending'`),
  ],
);
