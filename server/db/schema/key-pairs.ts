import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { oauthApplications } from "./oauth-applications";
import { users } from "./users";

/**
 * Key pairs of the results API. The public key identifies; the secret is
 * shown once at creation and stored only as a SHA-256 hash with a short
 * display start (docs/results-api.md).
 */
export const keyPairs = pgTable(
  "key_pairs",
  {
    id: serial("id").primaryKey(),
    /** The key acts with this user's role and access. */
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Owner's label, e.g. "Club laptop uploader". */
    name: text("name").notNull(),
    /** "svcpk_" + random; safe to show and log. */
    publicKey: text("public_key").notNull().unique(),
    /** Hex SHA-256 of the full secret ("svcsk_" + random). */
    secretHash: text("secret_hash").notNull(),
    /** First characters of the secret, to recognise it in lists. */
    secretStart: text("secret_start").notNull(),
    /**
     * OAuth application this key uploads for: results it creates count as
     * created by that application on the Data API's "session" surface.
     */
    applicationId: integer("application_id").references(() => oauthApplications.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Updated at most once a minute. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    /** Set on revocation; the key is refused from the next request on. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("key_pairs_owner_idx").on(t.ownerUserId, t.id)],
);
