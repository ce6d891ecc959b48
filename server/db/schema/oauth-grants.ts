import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { oauthApplications } from "./oauth-applications";
import { users } from "./users";

/**
 * What a user consented to, one row per oidc-provider Grant (keyed by its id).
 * The queryable side of a grant: connected apps, the Data API's
 * GET/DELETE /authorization and access-token checks read it. The Grant
 * model itself (in oauth_models) is oidc-provider's copy.
 */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    /** oidc-provider's Grant id (the grantId inside every token of this grant). */
    grantId: text("grant_id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    applicationId: integer("application_id")
      .notNull()
      .references(() => oauthApplications.id, { onDelete: "cascade" }),
    /** Scopes the user allowed (OpenID and Data API scopes together). */
    scopes: text("scopes").array().notNull(),
    /** Scopes that were asked for and left unticked (health:read), recorded as declined. */
    declinedScopes: text("declined_scopes").array().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Last consent given for this grant (a new consent may change the scopes). */
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** The grant ends here unless renewed by a new consent. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set when the user, the application or a refresh-token replay revoked it; its tokens are gone. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("oauth_grants_user_idx").on(t.userId, t.applicationId), index("oauth_grants_application_idx").on(t.applicationId)],
);
