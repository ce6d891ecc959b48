import { createHmac } from "node:crypto";

/**
 * OpenID Connect pairwise subject (Core §8.1): the same person gets a
 * different, stable `sub` in every sector (the host of the application's
 * redirect URIs), so two applications cannot correlate their users, and the
 * internal user id never leaves. HMAC-SHA256 keyed with a secret kept in the
 * database, so the value cannot be reversed or recomputed outside.
 */
export function pairwiseSubject(key: string, sectorIdentifier: string, accountId: string): string {
  return createHmac("sha256", key).update(`${sectorIdentifier}\n${accountId}`).digest("base64url");
}

/**
 * The `sub` an application sees for a user: the same value its ID tokens and
 * userinfo carry (oidc-provider's sector is the host of the first redirect URI).
 */
export function sectorOf(redirectUris: string[], clientId: string): string {
  return redirectUris[0] ? new URL(redirectUris[0]).host : clientId;
}
