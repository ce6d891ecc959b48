import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { webhookDeliveries } from "./webhooks";

/** A header as sent or received, in wire order: [name, value]. */
export type HeaderPair = [string, string];

/**
 * The delivery log (docs/webhooks.md "The delivery log"): one row per HTTP
 * attempt of a webhook delivery — the request as sent, the response as
 * received (status, headers, the first 4 KiB of the body) or the reason
 * there was none, in words. Deleted with its delivery, which goes with its
 * event after 30 days (server/webhooks/sweep.ts).
 */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: bigint("delivery_id", { mode: "number" })
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    /** 1 for the first attempt of this delivery, then 2, 3 … (a redelivery is a new delivery and starts at 1). */
    attemptNumber: integer("attempt_number").notNull(),
    /** When the request was signed and sent. */
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    /** From the start of the attempt (resolution included) to its outcome, in ms. */
    durationMs: integer("duration_ms").notNull(),
    /** The endpoint URL the request went to. */
    requestUrl: text("request_url").notNull(),
    /** Request headers as sent, signature included (the secret never is: only the HMAC). */
    requestHeaders: jsonb("request_headers").$type<HeaderPair[]>().notNull(),
    /** The exact body sent (the event's payload as JSON). */
    requestBody: text("request_body").notNull(),
    /** The URL that answered when redirects were followed (null: the request URL itself). */
    finalUrl: text("final_url"),
    /** HTTP status of the answer (null: no response, see error_code and error). */
    responseStatus: integer("response_status"),
    /** Response headers as received (sanitized, bounded); null without a response. */
    responseHeaders: jsonb("response_headers").$type<HeaderPair[]>(),
    /** The first 4 KiB of the response body: UTF-8 text, or base64 when the bytes are not text (`response_body_kind`). */
    responseBody: text("response_body"),
    /** text | binary (base64 in response_body). */
    responseBodyKind: text("response_body_kind", { enum: ["text", "binary"] }),
    /** The body went on past the 4 KiB kept (and was not read further). */
    responseBodyTruncated: boolean("response_body_truncated").notNull().default(false),
    /** Short machine code of the failure: dns_not_found, connection_refused, timeout, tls, blocked, http_status, … (null: a 2xx). */
    errorCode: text("error_code"),
    /** The failure in words a person understands (null: a 2xx). */
    error: text("error"),
    /** The technical message behind it, e.g. "getaddrinfo ENOTFOUND example.com". */
    errorDetail: text("error_detail"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.id)],
);
