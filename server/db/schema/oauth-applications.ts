import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * OAuth applications registered in the developer portal (docs/oauth.md).
 * oidc-provider reads its clients from here (server/auth/oauth/adapter.ts);
 * nothing about a client lives anywhere else.
 */
export const oauthApplications = pgTable(
  "oauth_applications",
  {
    id: serial("id").primaryKey(),
    /** The only account that may authorize this application. */
    ownerUserId: integer("owner_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Public identifier, "svcapp_" + random; safe to show and log. */
    clientId: text("client_id").notNull().unique(),
    /** Shown on the consent screen. */
    name: text("name").notNull(),
    /** Data API surface: data | partner | session (data-api.md "Three surfaces"). */
    surface: text("surface", { enum: ["data", "partner", "session"] }).notNull(),
    /** confidential: client_secret_basic at the token endpoint; public: PKCE only, no secret. */
    clientType: text("client_type", { enum: ["confidential", "public"] }).notNull(),
    /** Hex SHA-256 of the secret ("svcas_" + random); null for public clients. */
    clientSecretHash: text("client_secret_hash"),
    /** First characters of the secret, to recognise it in lists. */
    clientSecretStart: text("client_secret_start"),
    /** When the current secret was issued (rotation replaces it at once). */
    clientSecretCreatedAt: timestamp("client_secret_created_at", { withTimezone: true }),
    /** Exact redirect URIs: HTTPS, or HTTP on a loopback host; all on one host (the pairwise sector). */
    redirectUris: text("redirect_uris").array().notNull(),
    /** Scopes the application may request (a subset of the Data API scopes allowed on its surface). */
    scopes: text("scopes").array().notNull(),
    /**
     * Operator review: not_required (data, session) | pending | approved | rejected (partner).
     * Only not_required and approved applications can be authorized.
     */
    reviewStatus: text("review_status", { enum: ["not_required", "pending", "approved", "rejected"] }).notNull(),
    /** Operator's note to the owner, e.g. why an application was rejected. */
    reviewNote: text("review_note"),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedByUserId: integer("reviewed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** Set by an operator: this confidential client may call the introspection endpoint. */
    introspectionAllowed: boolean("introspection_allowed").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("oauth_applications_owner_idx").on(t.ownerUserId, t.id),
    index("oauth_applications_review_idx").on(t.reviewStatus),
    check(
      "oauth_applications_secret_chk",
      sql`(${t.clientType} = 'confidential' and ${t.clientSecretHash} is not null) or (${t.clientType} = 'public' and ${t.clientSecretHash} is null)`,
    ),
  ],
);

/**
 * Origins allowed to embed the replay player for an application
 * (data-api.md "Embed creation body"). The owner approves them for data
 * applications when registering; an operator reviews them for partner ones.
 */
export const oauthApplicationOrigins = pgTable(
  "oauth_application_origins",
  {
    id: serial("id").primaryKey(),
    applicationId: integer("application_id")
      .notNull()
      .references(() => oauthApplications.id, { onDelete: "cascade" }),
    /** Exact HTTPS origin, e.g. https://club.example (no path, no trailing slash). */
    origin: text("origin").notNull(),
    /** pending | approved | rejected; only approved origins may host an embed. */
    status: text("status", { enum: ["pending", "approved", "rejected"] }).notNull(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("oauth_application_origins_uq").on(t.applicationId, t.origin)],
);
