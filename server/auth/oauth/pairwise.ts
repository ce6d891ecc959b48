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
