import { index, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * oidc-provider's storage: every model instance (Session, Interaction, Grant,
 * AuthorizationCode, AccessToken, RefreshToken, …) as one row with its
 * payload (server/auth/oauth/adapter.ts). Clients are not stored here: they
 * come from oauth_applications.
 */
export const oauthModels = pgTable(
  "oauth_models",
  {
    /** oidc-provider model name, e.g. "AccessToken". */
    model: text("model").notNull(),
    /** The instance id; for tokens and codes its SHA-256 (hex), never the value a client presents (adapter.ts). */
    id: text("id").notNull(),
    /** The model's payload exactly as oidc-provider gave it. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** payload.grantId, indexed so a grant's tokens are revoked in one statement. */
    grantId: text("grant_id"),
    /** payload.uid (sessions), for findByUid. */
    uid: text("uid"),
    /** payload.userCode (device flow; unused, kept for the adapter contract). */
    userCode: text("user_code"),
    /** After this instant the row is dead and is deleted by the cleanup. Null: no expiry. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** Set once, atomically, when a code or refresh token is used; a second use is a replay. */
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index("oauth_models_grant_idx").on(t.grantId),
    index("oauth_models_uid_idx").on(t.uid),
    index("oauth_models_user_code_idx").on(t.userCode),
    index("oauth_models_expires_idx").on(t.expiresAt),
  ],
);
