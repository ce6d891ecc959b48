import { createHash, timingSafeEqual } from "node:crypto";
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { keyPairs, oauthApplications, sandboxAccounts, users } from "../db/schema";
import { AppError, notFound } from "../errors";
import type { Surface } from "../auth/oauth/scopes";
import { getSessionUser, type SessionUser } from "../users/users";
import { randomBase62 } from "../auth/random-base62";
import { INT4_MAX } from "../contract/values";

/** Recognisable prefixes: a leaked key is easy to spot in logs and by secret scanners. */
export const PUBLIC_KEY_PREFIX = "svcpk_";
export const SECRET_KEY_PREFIX = "svcsk_";

const sha256 = (value: string) => createHash("sha256").update(value).digest();

/**
 * "test": the key acts as a sandbox person (docs/sandbox.md "Test keys"), so it
 * reaches that person's simulated data only; "live": every other key.
 */
export type KeyMode = "test" | "live";
const keyModeOf = (accountKind: string): KeyMode => (accountKind === "sandbox" ? "test" : "live");

export const ZKeyPairName = z.object({
  name: z.string().trim().min(1, "Give the key pair a name").max(64, "At most 64 characters"),
});

export interface KeyPairView {
  id: number;
  name: string;
  publicKey: string;
  secretStart: string;
  applicationId: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * The key pairs `userId` manages: their own, and the test keys of their sandbox
 * people (docs/sandbox.md "Test keys"), which they made from an application's page.
 */
const managedBy = (userId: number) =>
  or(
    eq(keyPairs.ownerUserId, userId),
    sql`${keyPairs.ownerUserId} in (select ${sandboxAccounts.userId} from ${sandboxAccounts} where ${sandboxAccounts.ownerUserId} = ${userId})`,
  );

const viewColumns = {
  id: keyPairs.id,
  name: keyPairs.name,
  publicKey: keyPairs.publicKey,
  secretStart: keyPairs.secretStart,
  applicationId: keyPairs.applicationId,
  createdAt: keyPairs.createdAt,
  lastUsedAt: keyPairs.lastUsedAt,
  revokedAt: keyPairs.revokedAt,
};

/**
 * Creates a key pair acting as `userId`, bound to `applicationId` when given (the
 * caller checked it may be). The returned secret is the only copy that will ever exist.
 */
export async function createKeyPair(
  db: Db,
  userId: number,
  input: z.input<typeof ZKeyPairName>,
  applicationId: number | null = null,
): Promise<{ keyPair: KeyPairView; secretKey: string }> {
  const { name } = ZKeyPairName.parse(input);
  const publicKey = PUBLIC_KEY_PREFIX + randomBase62(24);
  const secretKey = SECRET_KEY_PREFIX + randomBase62(40);
  const [keyPair] = await db
    .insert(keyPairs)
    .values({
      ownerUserId: userId,
      name,
      publicKey,
      secretHash: sha256(secretKey).toString("hex"),
      secretStart: secretKey.slice(0, 10),
      applicationId,
    })
    .returning(viewColumns);
  return { keyPair, secretKey };
}

/** A key pair in the owner's list, with the application its uploads count as created by. */
export interface KeyPairListItem extends KeyPairView {
  application: { id: number; name: string; surface: Surface } | null;
  /** "test": it acts as a sandbox person and reaches that person's simulated data only. */
  mode: KeyMode;
  /** The person the key acts as. */
  ownerUserId: number;
  /** A test key of one of the owner's sandbox people (made from that application's page), not the owner's own key. */
  sandboxPerson: boolean;
}

/** The key pairs `userId` manages (their own and their sandbox people's), newest first. */
export async function listKeyPairs(db: Db, userId: number): Promise<KeyPairListItem[]> {
  const rows = await db
    .select({
      ...viewColumns,
      ownerUserId: keyPairs.ownerUserId,
      accountKind: users.accountKind,
      appName: oauthApplications.name,
      appSurface: oauthApplications.surface,
    })
    .from(keyPairs)
    .innerJoin(users, eq(users.id, keyPairs.ownerUserId))
    .leftJoin(oauthApplications, eq(oauthApplications.id, keyPairs.applicationId))
    .where(managedBy(userId))
    .orderBy(desc(keyPairs.createdAt), desc(keyPairs.id));
  return rows.map(({ appName, appSurface, accountKind, ...keyPair }) => ({
    ...keyPair,
    mode: keyModeOf(accountKind),
    sandboxPerson: keyPair.ownerUserId !== userId,
    application:
      keyPair.applicationId !== null && appName !== null && appSurface !== null
        ? { id: keyPair.applicationId, name: appName, surface: appSurface }
        : null,
  }));
}

/** A serial (32-bit) id: a larger one cannot exist, and Postgres would answer "integer out of range". */
const rowId = z.number().int().positive().max(INT4_MAX);

export const ZKeyPairBinding = z.object({
  id: rowId,
  /** null: uploads through the key count as created by no application. */
  applicationId: rowId.nullable(),
});

/**
 * Binds a key pair to one of the owner's OAuth applications, or unbinds it
 * (null). From the next upload on, sessions uploaded through the key record
 * the application as their creator (server/results/upload-result.ts), which is
 * what a session-surface application sees; sessions already uploaded keep the
 * creator they were recorded with. Another user's key pair or application is
 * the same 404 as a missing one; a revoked key pair stays as it was (conflict).
 */
export async function bindKeyPairToApplication(
  db: Db,
  userId: number,
  keyPairId: number,
  applicationId: number | null,
): Promise<KeyPairView> {
  const input = ZKeyPairBinding.parse({ id: keyPairId, applicationId });
  const ownApplication = sql`exists (select 1 from ${oauthApplications} where ${oauthApplications.id} = ${input.applicationId} and ${oauthApplications.ownerUserId} = ${userId})`;
  // One conditional statement: ownership of both rows and "not revoked" are checked where the write happens.
  const [updated] = await db
    .update(keyPairs)
    .set({ applicationId: input.applicationId })
    .where(
      and(
        eq(keyPairs.id, input.id),
        eq(keyPairs.ownerUserId, userId),
        isNull(keyPairs.revokedAt),
        input.applicationId === null ? undefined : ownApplication,
      ),
    )
    .returning(viewColumns);
  if (updated) return updated;
  // Nothing written: say why, without telling apart absent and not-yours.
  const [existing] = await db
    .select({ revokedAt: keyPairs.revokedAt })
    .from(keyPairs)
    .where(and(eq(keyPairs.id, input.id), eq(keyPairs.ownerUserId, userId)));
  if (!existing) throw notFound("Key pair");
  if (existing.revokedAt) throw new AppError("conflict", "A revoked key pair cannot be bound to an application");
  throw notFound("Application");
}

export async function revokeKeyPair(db: Db, userId: number, keyPairId: number): Promise<void> {
  const updated = await db
    .update(keyPairs)
    .set({ revokedAt: new Date() })
    .where(and(eq(keyPairs.id, keyPairId), managedBy(userId), isNull(keyPairs.revokedAt)))
    .returning({ id: keyPairs.id });
  if (updated.length === 0) {
    const [existing] = await db
      .select({ id: keyPairs.id })
      .from(keyPairs)
      .where(and(eq(keyPairs.id, keyPairId), managedBy(userId)));
    if (!existing) throw notFound("Key pair");
    throw new AppError("conflict", "This key pair is already revoked");
  }
}

/** What deleting a key pair does to the sessions it uploaded (docs/web-app.md "Deleting"). */
export async function keyPairDeletion(
  db: Db,
  userId: number,
  keyPairId: number,
): Promise<{ name: string; sessions: number; statement: string }> {
  const [row] = await db
    .select({
      name: keyPairs.name,
      revokedAt: keyPairs.revokedAt,
      sessions: sql<number>`(select count(*)::int from results r where r.key_pair_id = key_pairs.id)`,
    })
    .from(keyPairs)
    .where(and(eq(keyPairs.id, keyPairId), managedBy(userId)));
  if (!row) throw notFound("Key pair");
  const n = row.sessions;
  const statement = [
    row.revokedAt ? null : "Requests with it fail from now on.",
    n
      ? `${n} session${n === 1 ? "" : "s"} uploaded with it keep${n === 1 ? "s" : ""} ${n === 1 ? "its" : "their"} data.`
      : "No session was uploaded with it.",
  ]
    .filter(Boolean)
    .join(" ");
  return { name: row.name, sessions: n, statement };
}

/**
 * Removes the key pair from the list. Sessions it uploaded stay (results.key_pair_id
 * has no foreign key: it records which key uploaded, and a deleted key matches nothing).
 */
export async function deleteKeyPair(db: Db, userId: number, keyPairId: number): Promise<void> {
  const deleted = await db
    .delete(keyPairs)
    .where(and(eq(keyPairs.id, keyPairId), managedBy(userId)))
    .returning({ id: keyPairs.id });
  if (deleted.length === 0) throw notFound("Key pair");
}

export type KeyPairCredential = { publicKey: string; secretKey: string | null };

/** Splits "Bearer <PUBLIC>.<SECRET>" or "Bearer <PUBLIC>"; null when it is not a key-pair credential. */
export function parseKeyPairAuthorization(header: string | null): KeyPairCredential | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? "");
  if (!match || !match[1].startsWith(PUBLIC_KEY_PREFIX)) return null;
  const [publicKey, secretKey, ...rest] = match[1].split(".");
  if (rest.length > 0 || secretKey === "") return { publicKey: "", secretKey: null };
  return { publicKey, secretKey: secretKey ?? null };
}

export type KeyPairVerification =
  | { ok: true; keyPairId: number; applicationId: number | null; user: SessionUser; mode: KeyMode }
  | { ok: false; code: "secret_required" | "invalid_key" };

/**
 * Verifies a credential. Hot path: returns a result, never throws for a bad key.
 * `requireSecret` is false only for the reference endpoints, which accept a bare public key.
 */
export async function verifyKeyPair(
  db: Db,
  credential: KeyPairCredential,
  requireSecret: boolean,
  now = new Date(),
): Promise<KeyPairVerification> {
  if (!credential.publicKey) return { ok: false, code: "invalid_key" };
  const [row] = await db
    .select({
      id: keyPairs.id,
      ownerUserId: keyPairs.ownerUserId,
      secretHash: keyPairs.secretHash,
      applicationId: keyPairs.applicationId,
      revokedAt: keyPairs.revokedAt,
      accountKind: users.accountKind,
    })
    .from(keyPairs)
    .innerJoin(users, eq(users.id, keyPairs.ownerUserId))
    .where(eq(keyPairs.publicKey, credential.publicKey));
  if (!row || row.revokedAt) return { ok: false, code: "invalid_key" };
  if (credential.secretKey === null) {
    if (requireSecret) return { ok: false, code: "secret_required" };
  } else if (!timingSafeEqual(sha256(credential.secretKey), Buffer.from(row.secretHash, "hex"))) {
    return { ok: false, code: "invalid_key" };
  }
  const user = await getSessionUser(db, row.ownerUserId);
  if (!user) return { ok: false, code: "invalid_key" };
  // Bounded write load: last use is recorded at most once a minute per key.
  await db
    .update(keyPairs)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(keyPairs.id, row.id),
        or(isNull(keyPairs.lastUsedAt), lt(keyPairs.lastUsedAt, sql`${now.toISOString()}::timestamptz - interval '1 minute'`)),
      ),
    );
  return { ok: true, keyPairId: row.id, applicationId: row.applicationId, user, mode: keyModeOf(row.accountKind) };
}
