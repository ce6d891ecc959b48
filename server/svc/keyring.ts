import { createHash } from "node:crypto";
import type { Keyring } from "./types";

/** Key id 0: the published development key (docs/svc-format.md "Encryption"). */
export const DEV_KEY_ID = 0;
export const DEV_MASTER_KEY = new Uint8Array(createHash("sha256").update("svc development master key v1").digest());

/**
 * A keyring from configuration values: SVC_KEYRING is base64 of a JSON object
 * {"<keyId>": "<base64 32-byte key>"}; SVC_DISABLE_DEV_KEY=1 drops key 0.
 * The core never reads configuration itself: its edges (uploads, jobs, the
 * CLI) pass the keyring in; the service's own is server/config/keyring.ts.
 */
export function loadKeyring(env: { SVC_KEYRING?: string; SVC_DISABLE_DEV_KEY?: string }): Keyring {
  const keys = new Map<number, Uint8Array>();
  const disableDev = env.SVC_DISABLE_DEV_KEY === "1" || env.SVC_DISABLE_DEV_KEY === "true";
  if (!disableDev) keys.set(DEV_KEY_ID, DEV_MASTER_KEY);
  if (env.SVC_KEYRING) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(env.SVC_KEYRING, "base64").toString("utf8"));
    } catch {
      throw new Error("SVC_KEYRING must be base64 of a JSON object mapping key ids to base64 keys");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new Error("SVC_KEYRING must be base64 of a JSON object mapping key ids to base64 keys");
    }
    for (const [id, value] of Object.entries(parsed)) {
      const keyId = Number(id);
      if (!/^\d+$/.test(id) || keyId > 0xffffffff) throw new Error(`SVC_KEYRING: key id "${id}" is not an unsigned 32-bit integer`);
      const key = typeof value === "string" ? Buffer.from(value, "base64") : null;
      if (!key || key.length !== 32) throw new Error(`SVC_KEYRING: key ${id} must be 32 bytes, base64`);
      // Anyone can seal with the published key: under another id its files would pass for a production key's (benchmarks count those).
      if (keyId !== DEV_KEY_ID && key.equals(DEV_MASTER_KEY))
        throw new Error(`SVC_KEYRING: key ${id} is the published development key, which only id 0 may hold`);
      if (keyId === DEV_KEY_ID && disableDev) continue;
      keys.set(keyId, new Uint8Array(key));
    }
  }
  return keys;
}
