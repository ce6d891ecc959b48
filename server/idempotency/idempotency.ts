import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { idempotencyKeys, type StoredOutcome } from "../db/schema";
import { AppError } from "../errors";

/**
 * Idempotency keys (docs/exports.md "Idempotency"), one store for every API
 * operation that creates something: export creation in the Data API today,
 * POST /results in the results API next.
 *
 * The key's row and the work it guards are written in ONE transaction: the
 * row is inserted first, so a concurrent request with the same key blocks on
 * the primary key until the first one commits (then replays its outcome) or
 * rolls back (then does the work itself). No request ever sees a half-done
 * key, and the work happens once however many requests race.
 */

export { type StoredOutcome } from "../db/schema";

/** Keys are replayable for at least this long (data-api.md "Limits"). */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** The same key was used for a different request (another body or path): 409 `idempotency_key_reused`. */
export class IdempotencyKeyReusedError extends Error {
  constructor() {
    super("Idempotency-Key: already used for a different request (another path or body); use a new key for a new request");
    this.name = "IdempotencyKeyReusedError";
  }
}

/**
 * The Idempotency-Key header, or null when absent. 1 to 255 printable ASCII
 * characters (no spaces at either end); anything else is a 400 naming the header.
 */
export function parseIdempotencyKey(header: string | null): string | null {
  if (header === null) return null;
  if (header.length === 0) throw new AppError("invalid", "Idempotency-Key: must not be empty");
  if (header.length > IDEMPOTENCY_KEY_MAX_LENGTH)
    throw new AppError("invalid", `Idempotency-Key: at most ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  if (!/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(header))
    throw new AppError("invalid", "Idempotency-Key: printable ASCII characters only");
  return header;
}

/** JSON with object keys sorted at every level, so `{a,b}` and `{b,a}` are one request. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** SHA-256 of method, path and canonical body: what "the identical operation" means. */
export function requestFingerprint(request: { method: string; path: string; body: unknown }): string {
  return createHash("sha256")
    .update(`${request.method.toUpperCase()}\n${request.path}\n${canonicalJson(request.body ?? null)}`)
    .digest("hex");
}

export interface IdempotencyClaim {
  /** Who may replay: `data:app:<id>:user:<id>`, `results:keypair:<id>`, … */
  scope: string;
  key: string;
  fingerprint: string;
}

export interface IdempotentResult<T extends StoredOutcome> {
  /** True when the outcome comes from an earlier request with the same key. */
  replayed: boolean;
  outcome: T;
}

/**
 * Runs `create` once per (scope, key): the first request runs it inside a
 * transaction that also stores its outcome; every later one with the same
 * fingerprint gets that outcome back (`replayed: true`); one with another
 * fingerprint throws IdempotencyKeyReusedError. An expired key counts as
 * absent. Without a key (`claim` null), `create` simply runs in a transaction.
 *
 * `create` must do all its writes through the transaction it is given
 * (events through the outbox), so a rollback leaves no trace of it.
 */
export async function withIdempotencyKey<T extends StoredOutcome>(
  db: Db,
  claim: IdempotencyClaim | null,
  create: (tx: Tx) => Promise<T>,
  options: { now?: Date } = {},
): Promise<IdempotentResult<T>> {
  if (!claim) return { replayed: false, outcome: await db.transaction(create) };
  const now = options.now ?? new Date();
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_KEY_LIFETIME_MS);
  return db.transaction(async (tx) => {
    // Take the key, or take it over when it has expired. A concurrent holder's
    // uncommitted row makes this statement wait for its transaction's end.
    const placeholder: StoredOutcome = { kind: "response", status: 0, body: null };
    const [taken] = await tx
      .insert(idempotencyKeys)
      .values({ scope: claim.scope, key: claim.key, fingerprint: claim.fingerprint, outcome: placeholder, createdAt: now, expiresAt })
      .onConflictDoUpdate({
        target: [idempotencyKeys.scope, idempotencyKeys.key],
        set: { fingerprint: claim.fingerprint, outcome: placeholder, createdAt: now, expiresAt },
        setWhere: lt(idempotencyKeys.expiresAt, now),
      })
      .returning({ key: idempotencyKeys.key });
    if (taken) {
      const outcome = await create(tx);
      await tx
        .update(idempotencyKeys)
        .set({ outcome })
        .where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key)));
      return { replayed: false, outcome };
    }
    const [existing] = await tx
      .select({ fingerprint: idempotencyKeys.fingerprint, outcome: idempotencyKeys.outcome })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, claim.scope), eq(idempotencyKeys.key, claim.key)));
    // Present at the insert and gone now: deleted by the sweeper in between. Ask the client to retry.
    if (!existing) throw new AppError("conflict", "Idempotency-Key: the key expired during the request; retry");
    if (existing.fingerprint !== claim.fingerprint) throw new IdempotencyKeyReusedError();
    return { replayed: true, outcome: existing.outcome as T };
  });
}

/** Housekeeping: deletes keys past their lifetime, at most `limit` per call. Returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Db, options: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = options.now ?? new Date();
  const rows = await db.execute<{ scope: string }>(sql`
    delete from idempotency_keys where (scope, key) in (
      select scope, key from idempotency_keys where expires_at < ${now.toISOString()}::timestamptz limit ${options.limit ?? 1000}
    ) returning scope`);
  return rowCount(rows);
}

function rowCount(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  return (result as { rows?: unknown[] }).rows?.length ?? 0;
}
