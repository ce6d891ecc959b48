import { createHash, timingSafeEqual } from "node:crypto";
import { randomBase62 } from "../auth/random-base62";

/**
 * Application identifiers and secrets (conventions: a recognisable prefix and
 * random bytes; only a SHA-256 hash and a short display start are stored;
 * the full secret is shown once). SHA-256 without a salt is enough here:
 * the secret is 256 bits of randomness, not a password a person chose.
 */
export const CLIENT_ID_PREFIX = "svcapp_";
export const CLIENT_SECRET_PREFIX = "svcas_";

export function newClientId(): string {
  return CLIENT_ID_PREFIX + randomBase62(24);
}

export interface NewClientSecret {
  secret: string;
  hash: string;
  start: string;
}

/** 43 base62 characters: more than 256 bits. */
export function newClientSecret(): NewClientSecret {
  const secret = CLIENT_SECRET_PREFIX + randomBase62(43);
  return { secret, hash: hashClientSecret(secret), start: secret.slice(0, 12) };
}

export function hashClientSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function clientSecretMatches(storedHash: string | null | undefined, presented: unknown): boolean {
  if (typeof storedHash !== "string" || storedHash.length !== 64 || typeof presented !== "string" || presented.length === 0) return false;
  return timingSafeEqual(Buffer.from(hashClientSecret(presented), "hex"), Buffer.from(storedHash, "hex"));
}
