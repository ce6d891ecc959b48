import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { oauthApplications, sandboxAccounts } from "../../db/schema";
import { isApiScope, isOidcScope, type Surface } from "./scopes";

/**
 * Our extra client metadata (oidc-provider keeps unknown keys as they are).
 * Read by the provider configuration: the owner check, the resource server's
 * scopes for this client, introspection approval.
 */
export const EXTRA_CLIENT_PROPERTIES = [
  "appId",
  "appOwnerUserId",
  "appSandboxUserId",
  "appSurface",
  "appApiScopes",
  "appIntrospectionAllowed",
] as const;

export interface AppClientFields {
  appId: number;
  appOwnerUserId: number;
  /** The owner's sandbox person for this application (docs/sandbox.md), who may authorize it too; null when none. */
  appSandboxUserId: number | null;
  appSurface: Surface;
  appApiScopes: string[];
  appIntrospectionAllowed: boolean;
}

/** Review states in which an application may be authorized and get tokens. */
export const AUTHORIZABLE_REVIEW_STATES = ["not_required", "approved"] as const;

/**
 * The oidc-provider client metadata of an application, or undefined when it
 * does not exist or may not be used (a partner application awaiting review or
 * rejected). Read on every request, so portal edits apply at once.
 *
 * `client_secret` holds the SHA-256 hash, never the secret: the provider's
 * compareClientSecret is replaced to hash what the client presents
 * (server/auth/oauth/provider.ts). Nothing that would need the plain secret
 * (HS* signatures, client_secret_jwt, symmetric encryption) is enabled.
 */
export async function findClientMetadata(db: Db, clientId: string): Promise<Record<string, unknown> | undefined> {
  if (!clientId || clientId.length > 100) return undefined;
  const [row] = await db
    .select({ app: oauthApplications, sandboxUserId: sandboxAccounts.userId })
    .from(oauthApplications)
    .leftJoin(sandboxAccounts, eq(sandboxAccounts.applicationId, oauthApplications.id))
    .where(eq(oauthApplications.clientId, clientId));
  const app = row?.app;
  if (!app || !(AUTHORIZABLE_REVIEW_STATES as readonly string[]).includes(app.reviewStatus)) return undefined;
  const confidential = app.clientType === "confidential";
  const oidcScopes = app.scopes.filter(isOidcScope);
  const extra: AppClientFields = {
    appId: app.id,
    appOwnerUserId: app.ownerUserId,
    appSandboxUserId: row.sandboxUserId ?? null,
    appSurface: app.surface,
    appApiScopes: app.scopes.filter(isApiScope),
    appIntrospectionAllowed: confidential && app.introspectionAllowed,
  };
  return {
    client_id: app.clientId,
    client_name: app.name,
    ...(confidential ? { client_secret: app.clientSecretHash } : {}),
    token_endpoint_auth_method: confidential ? "client_secret_basic" : "none",
    application_type: "web",
    redirect_uris: app.redirectUris,
    response_types: ["code"],
    grant_types: oidcScopes.includes("offline_access") ? ["authorization_code", "refresh_token"] : ["authorization_code"],
    subject_type: "pairwise",
    id_token_signed_response_alg: "RS256",
    // Restricts the OpenID scopes (the provider's own check); the scope parameter
    // validator in provider.ts rejects every scope the application did not register.
    ...(oidcScopes.length ? { scope: oidcScopes.join(" ") } : {}),
    ...extra,
  };
}

/**
 * Who may authorize an application: its owner (data-api.md "Authentication"
 * 7) and, as the owner's own test identity, the owner's sandbox person for
 * that application (docs/sandbox.md). Nobody else.
 */
export function mayAuthorize(app: { ownerUserId: number; sandboxUserId: number | null }, accountId: string | undefined): boolean {
  return (
    accountId !== undefined &&
    (String(app.ownerUserId) === accountId || (app.sandboxUserId !== null && String(app.sandboxUserId) === accountId))
  );
}
