import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import { credentialEpoch } from "../db/schema";
import { verifyAccessToken, type AccessTokenVerification } from "../auth/oauth/verify-access-token";
import { verifyKeyPair, type KeyPairCredential, type KeyPairVerification } from "../keys/key-pairs";
import { hitRateLimit, type RateLimitDecision, type RateLimitPolicy } from "../rate-limit/rate-limit";

/**
 * Admission of one API request: its credential and its rate limit, in one
 * database round trip when the credential was verified recently
 * (docs/architecture.md "Request admission").
 *
 * Each instance keeps the credentials it verified for up to a minute (never
 * past their expiry). Staleness is ruled out by the credential epoch, a
 * counter that database triggers raise on every change that may invalidate a
 * credential (drizzle/0015): the rate-limit statement every request runs
 * returns it, and an epoch other than the one a cached verification was made
 * under drops the whole cache and verifies again. So a revocation committed
 * before a request starts is seen by that request on every instance, with no
 * extra round trip, on Postgres and PGlite alike.
 */
const CACHE_TTL_MS = 60_000;
const CACHE_MAX_ENTRIES = 10_000;

interface CacheEntry<V> {
  value: V;
  /** The credential epoch read before the verification that produced `value`. */
  epoch: number;
  expiresAtMs: number;
}

class CredentialCache<V> {
  private readonly entries = new Map<string, CacheEntry<V>>();

  get(key: string, nowMs: number): CacheEntry<V> | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAtMs <= nowMs) this.entries.delete(key);
    return entry && entry.expiresAtMs > nowMs ? entry : undefined;
  }

  set(key: string, entry: CacheEntry<V>): void {
    // Oldest first: a Map iterates in insertion order.
    if (this.entries.size >= CACHE_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.delete(key);
    this.entries.set(key, entry);
  }

  clear(): void {
    this.entries.clear();
  }
}

interface Caches {
  accessTokens: CredentialCache<Extract<AccessTokenVerification, { ok: true }>>;
  keyPairs: CredentialCache<Extract<KeyPairVerification, { ok: true }>>;
  /** Caches of admitCredential, by name. */
  named: Map<string, CredentialCache<unknown>>;
}
// Per database handle (tests open several); kept on globalThis because Next.js may load this module in more than one bundle.
const cachesKey = Symbol.for("svc-results.credential-caches");
type GlobalWithCaches = typeof globalThis & { [cachesKey]?: WeakMap<Db, Caches> };

function cachesOf(db: Db): Caches {
  const g = globalThis as GlobalWithCaches;
  g[cachesKey] ??= new WeakMap();
  let caches = g[cachesKey].get(db);
  if (!caches) {
    caches = { accessTokens: new CredentialCache(), keyPairs: new CredentialCache(), named: new Map() };
    g[cachesKey].set(db, caches);
  }
  return caches;
}

/** Drops every cached verification of this handle (tests; a revocation needs no call: the epoch does it). */
export function clearCredentialCaches(db: Db): void {
  cachesOf(db).accessTokens.clear();
  cachesOf(db).keyPairs.clear();
  for (const cache of cachesOf(db).named.values()) cache.clear();
}

async function readCredentialEpoch(db: Db): Promise<number> {
  const [row] = await db.select({ value: credentialEpoch.value }).from(credentialEpoch);
  return row?.value ?? 0;
}

export interface RateLimitBucket {
  bucket: string;
  policy: RateLimitPolicy;
}

/**
 * The shared flow of both credentials: a cached verification or a fresh one,
 * then the request counted in each bucket; when the epoch moved since the
 * verification, a fresh verification decides. Exported for a kernel that
 * declares `authenticate` and `rateLimits` separately: `verify` returns the
 * principal (null when refused) and how long it stays valid, and `key` must
 * identify the credential (a hash, never the secret itself).
 */
export async function admitCredential<V>(
  db: Db,
  cacheName: string,
  key: string,
  now: Date,
  verify: () => Promise<{ value: V; validUntilMs: number } | null>,
  bucketsOf: (value: V) => RateLimitBucket[],
): Promise<{ value: V; decisions: RateLimitDecision[] } | null> {
  const named = namedCachesOf(db);
  let cache = named.get(cacheName) as CredentialCache<V> | undefined;
  if (!cache) {
    cache = new CredentialCache<V>();
    named.set(cacheName, cache);
  }
  return admit(db, cache, key, now, verify, bucketsOf);
}

const namedCachesOf = (db: Db) => cachesOf(db).named;

/** A cache key for a credential: a SHA-256 of its parts, so no secret is kept in memory as a key. */
export const credentialCacheKey = (...parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("base64url");

async function admit<V>(
  db: Db,
  cache: CredentialCache<V>,
  key: string,
  now: Date,
  verify: () => Promise<{ value: V; validUntilMs: number } | null>,
  bucketsOf: (value: V) => RateLimitBucket[],
): Promise<{ value: V; decisions: RateLimitDecision[] } | null> {
  const nowMs = now.getTime();
  const store = (value: V, validUntilMs: number, epoch: number) => {
    const entry = { value, epoch, expiresAtMs: Math.min(validUntilMs, nowMs + CACHE_TTL_MS) };
    cache.set(key, entry);
    return entry;
  };
  let entry = cache.get(key, nowMs);
  if (!entry) {
    const epoch = await readCredentialEpoch(db);
    const verified = await verify();
    if (!verified) return null;
    entry = store(verified.value, verified.validUntilMs, epoch);
  }
  const [first, ...more] = bucketsOf(entry.value);
  const hit = await hitRateLimit(db, first.bucket, first.policy, now);
  let value = entry.value;
  if (hit.credentialEpoch !== entry.epoch) {
    // Something may have been revoked since: no cached verification of this instance can be trusted.
    cache.clear();
    const verified = await verify();
    if (!verified) return null;
    // The epoch was read (by the hit) before this verification, so a later change is noticed next time.
    value = store(verified.value, verified.validUntilMs, hit.credentialEpoch).value;
  }
  const decisions = [hit.decision];
  for (const extra of more) decisions.push((await hitRateLimit(db, extra.bucket, extra.policy, now)).decision);
  return { value, decisions };
}

/**
 * A Data API bearer token: verified (verifyAccessToken) or taken from the
 * cache, and counted in its bucket. `decision` is absent when the token is
 * refused (a refused token is never counted).
 */
export async function admitAccessToken(
  db: Db,
  token: string,
  bucketOf: (verified: Extract<AccessTokenVerification, { ok: true }>) => RateLimitBucket,
  now = new Date(),
): Promise<{ verified: AccessTokenVerification; decision?: RateLimitDecision }> {
  let refusal: AccessTokenVerification | null = null;
  const admitted = await admit(
    db,
    cachesOf(db).accessTokens,
    credentialCacheKey("access-token", token),
    now,
    async () => {
      const verified = await verifyAccessToken(db, token, now);
      if (!verified.ok) refusal = verified;
      return verified.ok ? { value: verified, validUntilMs: verified.validUntil.getTime() } : null;
    },
    (verified) => [bucketOf(verified)],
  );
  // A refusal keeps its reason (a token for another audience is worth telling the client).
  return admitted ? { verified: admitted.value, decision: admitted.decisions[0] } : { verified: refusal ?? { ok: false } };
}

/**
 * A results API key pair: verified (verifyKeyPair) or taken from the cache,
 * and counted in each of its buckets (general first). A refused key carries
 * its refusal code and no decisions.
 */
export async function admitKeyPair(
  db: Db,
  credential: KeyPairCredential,
  requireSecret: boolean,
  bucketsOf: (verified: Extract<KeyPairVerification, { ok: true }>) => RateLimitBucket[],
  now = new Date(),
): Promise<{ verified: KeyPairVerification; decisions: RateLimitDecision[] }> {
  // A bare public key never opens what needs the secret, cached or not.
  if (requireSecret && credential.secretKey === null)
    return { verified: await verifyKeyPair(db, credential, requireSecret, now), decisions: [] };
  let refusal: KeyPairVerification | null = null;
  const admitted = await admit(
    db,
    cachesOf(db).keyPairs,
    credentialCacheKey("key-pair", credential.publicKey, credential.secretKey ?? ""),
    now,
    async () => {
      const verified = await verifyKeyPair(db, credential, requireSecret, now);
      if (!verified.ok) refusal = verified;
      return verified.ok ? { value: verified, validUntilMs: Number.POSITIVE_INFINITY } : null;
    },
    bucketsOf,
  );
  return admitted
    ? { verified: admitted.value, decisions: admitted.decisions }
    : { verified: refusal ?? { ok: false, code: "invalid_key" }, decisions: [] };
}
