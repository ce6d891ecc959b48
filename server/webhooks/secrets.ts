import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { getOrCreateAppSecret } from "../auth/app-secrets";
import type { Db } from "../db/client";

/**
 * Signing secrets (Standard Webhooks): "whsec_" + base64 of 32 random bytes.
 * Unlike a credential we only verify, a signing secret must be usable again
 * at every delivery, so it cannot be a hash: it is stored AES-256-GCM
 * encrypted with a key kept in the database's app secrets (generated on
 * first use, shared by every instance), and the portal shows it once.
 */
const PREFIX = "whsec_";

export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(32).toString("base64")}`;
}

/** What the portal shows after the one time: enough to recognise it. */
export const secretStart = (secret: string) => `${secret.slice(0, PREFIX.length + 4)}…`;

/** The key never changes once created, so each database handle reads it once (a transaction handle reads it again). */
const keys = new WeakMap<Db, Buffer>();

async function encryptionKey(db: Db): Promise<Buffer> {
  const known = keys.get(db);
  if (known) return known;
  const key = Buffer.from(await getOrCreateAppSecret(db, "webhooks:secret-key"), "base64url");
  keys.set(db, key);
  return key;
}

/** iv.tag.ciphertext, each base64url. */
export async function encryptSecret(db: Db, secret: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", await encryptionKey(db), iv);
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url")).join(".");
}

export async function decryptSecret(db: Db, stored: string): Promise<string> {
  const [iv, tag, body] = stored.split(".").map((part) => Buffer.from(part, "base64url"));
  const decipher = createDecipheriv("aes-256-gcm", await encryptionKey(db), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
}

/**
 * The `webhook-signature` header: one "v1,<base64 HMAC-SHA256>" per secret
 * (space-separated), over `${id}.${timestamp}.${body}` keyed with the
 * base64-decoded part of the secret. During a rotation's overlap both the new
 * and the previous secret sign, so a consumer holding either verifies.
 */
export function signatureHeader(secrets: readonly string[], messageId: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
      return `v1,${createHmac("sha256", key).update(`${messageId}.${timestampSeconds}.${body}`).digest("base64")}`;
    })
    .join(" ");
}
