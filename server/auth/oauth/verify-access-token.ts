import { and, eq, isNull } from "drizzle-orm";
import { getEnv } from "../../config/env";
import type { Db } from "../../db/client";
import { oauthApplications, oauthGrants, oauthModels, users } from "../../db/schema";
import { AUTHORIZABLE_REVIEW_STATES } from "./clients";
import { apiResource, tokenAudiences } from "./config";
import { storedModelId } from "./adapter";
import { revokeGrant } from "./grants";
import type { Surface } from "./scopes";

export type AccessTokenVerification =
  | {
      ok: true;
      userId: number;
      applicationId: number;
      clientId: string;
      surface: Surface;
      scopes: string[];
      grantId: string;
      /** When the token or its grant expires, whichever is first (how long a verification may be reused). */
      validUntil: Date;
    }
  /** `wrong_audience`: a live token of ours, issued for another audience; worth telling the client. */
  | { ok: false; reason?: "wrong_audience" };

/** Longest opaque token we issue is 43 characters; anything far longer is not ours. */
const MAX_TOKEN_LENGTH = 256;

/**
 * Checks a bearer token for one audience (data-api.md "Authentication"):
 * the Data API's by default, or the userinfo endpoint's. Hot path: one
 * indexed query, returns a result, never throws for a bad token.
 *
 * Accepted only when the token exists (revocation deletes it), has not
 * expired, names the audience among its own (`tokenAudiences`: a Data API
 * token with `openid` names the userinfo endpoint too; a userinfo-only token
 * is refused by the Data API), its grant is neither
 * revoked nor expired, and its application may still be used. The scopes
 * are the token's, narrowed to what the grant holds now.
 */
export async function verifyAccessToken(
  db: Db,
  token: string,
  now = new Date(),
  audience = apiResource(getEnv().appUrl),
  appUrl = getEnv().appUrl,
): Promise<AccessTokenVerification> {
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_LENGTH) return { ok: false };
  const [row] = await db
    .select({
      payload: oauthModels.payload,
      expiresAt: oauthModels.expiresAt,
      grantId: oauthGrants.grantId,
      userId: oauthGrants.userId,
      grantScopes: oauthGrants.scopes,
      grantExpiresAt: oauthGrants.expiresAt,
      grantRevokedAt: oauthGrants.revokedAt,
      applicationId: oauthApplications.id,
      clientId: oauthApplications.clientId,
      surface: oauthApplications.surface,
      reviewStatus: oauthApplications.reviewStatus,
    })
    .from(oauthModels)
    .innerJoin(oauthGrants, eq(oauthGrants.grantId, oauthModels.grantId))
    .innerJoin(oauthApplications, eq(oauthApplications.id, oauthGrants.applicationId))
    // A disabled account's tokens stop working (and work again if it is enabled, until they expire).
    .innerJoin(users, and(eq(users.id, oauthGrants.userId), isNull(users.disabledAt)))
    .where(and(eq(oauthModels.model, "AccessToken"), eq(oauthModels.id, storedModelId("AccessToken", token))));
  if (!row) return { ok: false };
  const { payload } = row;
  const nowMs = now.getTime();
  if (row.expiresAt && row.expiresAt.getTime() <= nowMs) return { ok: false };
  if (typeof payload.exp !== "number" || payload.exp * 1000 <= nowMs) return { ok: false };
  if (!tokenAudiences(payload, appUrl).includes(audience)) return { ok: false, reason: "wrong_audience" };
  if (payload.clientId !== row.clientId || payload.accountId !== String(row.userId) || payload.grantId !== row.grantId)
    return { ok: false };
  if (row.grantRevokedAt || row.grantExpiresAt.getTime() <= nowMs) return { ok: false };
  if (!(AUTHORIZABLE_REVIEW_STATES as readonly string[]).includes(row.reviewStatus)) return { ok: false };
  const granted = new Set(row.grantScopes);
  const scopes = String(payload.scope ?? "")
    .split(" ")
    .filter((s) => s && granted.has(s));
  const validUntil = new Date(
    Math.min(payload.exp * 1000, row.grantExpiresAt.getTime(), row.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY),
  );
  return {
    ok: true,
    userId: row.userId,
    applicationId: row.applicationId,
    clientId: row.clientId,
    surface: row.surface,
    scopes,
    grantId: row.grantId,
    validUntil,
  };
}

export { revokeGrant };
