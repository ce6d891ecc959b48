import { and, desc, eq, gt, inArray, isNull, notInArray, sql } from "drizzle-orm";
import { emitAuthorizationRevoked } from "../../webhooks/emit-event";
import type { Db } from "../../db/client";
import { oauthApplications, oauthGrants, oauthModels, users } from "../../db/schema";
import { notFound } from "../../errors";
import { sortScopes } from "./scopes";

/**
 * The grant model shared by the consent screen, connected apps and the Data
 * API's GET/DELETE /authorization (data-api.md "States and transitions":
 * a revoked grant's access tokens are rejected immediately; user data stays).
 */

/**
 * Revokes a grant: deletes oidc-provider's Grant and every code, access token
 * and refresh token issued from it (one statement on the grant_id index), and
 * marks the grant revoked. Idempotent.
 */
export async function revokeGrant(db: Db, grantId: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    await emitRevokedIfLast(tx as unknown as Db, [grantId], now);
    await tx.delete(oauthModels).where(eq(oauthModels.grantId, grantId));
    await tx
      .update(oauthGrants)
      .set({ revokedAt: now })
      .where(and(eq(oauthGrants.grantId, grantId), isNull(oauthGrants.revokedAt)));
  });
}

export interface ConsentRecord {
  grantId: string;
  userId: number;
  applicationId: number;
  scopes: string[];
  declinedScopes: string[];
  expiresAt: Date;
}

/** Saves what the user decided on the consent screen (a new consent replaces the scopes of the same grant). */
export async function recordConsent(db: Db, record: ConsentRecord, now = new Date()): Promise<void> {
  const scopes = sortScopes(record.scopes);
  const declinedScopes = sortScopes(record.declinedScopes);
  await db
    .insert(oauthGrants)
    .values({ ...record, scopes, declinedScopes, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: oauthGrants.grantId,
      set: { scopes, declinedScopes, updatedAt: now, expiresAt: record.expiresAt, revokedAt: null },
    });
}

/**
 * `authorization.revoked` (docs/webhooks.md), in the revoking transaction and
 * before the revocation is written: for each person whose last active grant
 * to the application is among `grantIds`, so a person with two grants gets
 * one event, when the second goes.
 */
async function emitRevokedIfLast(tx: Db, grantIds: string[], now: Date): Promise<void> {
  const revoking = await tx
    .select({ userId: oauthGrants.userId, applicationId: oauthGrants.applicationId })
    .from(oauthGrants)
    .where(and(inArray(oauthGrants.grantId, grantIds), activeGrant(now)));
  const seen = new Set<string>();
  for (const { userId, applicationId } of revoking) {
    if (seen.has(`${userId}:${applicationId}`)) continue;
    seen.add(`${userId}:${applicationId}`);
    const others = await tx
      .select({ grantId: oauthGrants.grantId })
      .from(oauthGrants)
      .where(
        and(
          eq(oauthGrants.userId, userId),
          eq(oauthGrants.applicationId, applicationId),
          activeGrant(now),
          notInArray(oauthGrants.grantId, grantIds),
        ),
      )
      .limit(1);
    if (!others.length) await emitAuthorizationRevoked(tx, userId, applicationId);
  }
}

const activeGrant = (now: Date) => and(isNull(oauthGrants.revokedAt), gt(oauthGrants.expiresAt, sql`${now.toISOString()}::timestamptz`));

/** The id of the user's newest active grant for an application, so consent is remembered across browser sessions. */
export async function findActiveGrantId(db: Db, userId: number, applicationId: number, now = new Date()): Promise<string | null> {
  const [row] = await db
    .select({ grantId: oauthGrants.grantId })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.userId, userId), eq(oauthGrants.applicationId, applicationId), activeGrant(now)))
    .orderBy(desc(oauthGrants.updatedAt))
    .limit(1);
  return row?.grantId ?? null;
}

export interface GrantView {
  grantId: string;
  userId: number;
  applicationId: number;
  clientId: string;
  applicationName: string;
  surface: "data" | "partner" | "session";
  scopes: string[];
  declinedScopes: string[];
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

const grantColumns = {
  grantId: oauthGrants.grantId,
  userId: oauthGrants.userId,
  applicationId: oauthGrants.applicationId,
  clientId: oauthApplications.clientId,
  applicationName: oauthApplications.name,
  surface: oauthApplications.surface,
  scopes: oauthGrants.scopes,
  declinedScopes: oauthGrants.declinedScopes,
  createdAt: oauthGrants.createdAt,
  updatedAt: oauthGrants.updatedAt,
  expiresAt: oauthGrants.expiresAt,
  revokedAt: oauthGrants.revokedAt,
};

/** One grant (for GET /authorization of the Data API), or null. */
export async function getGrant(db: Db, grantId: string): Promise<GrantView | null> {
  const [row] = await db
    .select(grantColumns)
    .from(oauthGrants)
    .innerJoin(oauthApplications, eq(oauthApplications.id, oauthGrants.applicationId))
    .where(eq(oauthGrants.grantId, grantId));
  return row ?? null;
}

export interface ConnectedApp {
  applicationId: number;
  name: string;
  ownerName: string;
  surface: "data" | "partner" | "session";
  /** Union of the scopes of the user's active grants for this application. */
  scopes: string[];
  declinedScopes: string[];
  firstAuthorizedAt: Date;
  lastAuthorizedAt: Date;
}

/** Applications holding an active grant of the user, with what they may read. */
export async function listConnectedApps(db: Db, userId: number, now = new Date()): Promise<ConnectedApp[]> {
  const rows = await db
    .select({ ...grantColumns, ownerName: users.name })
    .from(oauthGrants)
    .innerJoin(oauthApplications, eq(oauthApplications.id, oauthGrants.applicationId))
    .innerJoin(users, eq(users.id, oauthApplications.ownerUserId))
    .where(and(eq(oauthGrants.userId, userId), activeGrant(now)))
    .orderBy(desc(oauthGrants.updatedAt));
  const byApp = new Map<number, ConnectedApp>();
  for (const row of rows) {
    const app = byApp.get(row.applicationId);
    if (!app) {
      byApp.set(row.applicationId, {
        applicationId: row.applicationId,
        name: row.applicationName,
        ownerName: row.ownerName,
        surface: row.surface,
        scopes: row.scopes,
        declinedScopes: row.declinedScopes,
        firstAuthorizedAt: row.createdAt,
        lastAuthorizedAt: row.updatedAt,
      });
      continue;
    }
    app.scopes = sortScopes([...app.scopes, ...row.scopes]);
    if (row.createdAt < app.firstAuthorizedAt) app.firstAuthorizedAt = row.createdAt;
  }
  return [...byApp.values()];
}

/** Connected apps: the user withdraws every grant an application holds. Absent and not-yours are the same 404. */
export async function revokeApplicationAccess(db: Db, userId: number, applicationId: number, now = new Date()): Promise<void> {
  const rows = await db
    .select({ grantId: oauthGrants.grantId })
    .from(oauthGrants)
    .where(and(eq(oauthGrants.userId, userId), eq(oauthGrants.applicationId, applicationId), activeGrant(now)));
  if (rows.length === 0) throw notFound("Connected application");
  for (const { grantId } of rows) await revokeGrant(db, grantId, now);
}

/** Revokes every grant of an application (before its deletion, or when its review is withdrawn). */
export async function revokeAllGrantsOfApplication(db: Db, applicationId: number, now = new Date()): Promise<void> {
  const rows = await db.select({ grantId: oauthGrants.grantId }).from(oauthGrants).where(eq(oauthGrants.applicationId, applicationId));
  if (rows.length === 0) return;
  await db.transaction(async (tx) => {
    await emitRevokedIfLast(
      tx as unknown as Db,
      rows.map((r) => r.grantId),
      now,
    );
    await tx.delete(oauthModels).where(
      inArray(
        oauthModels.grantId,
        rows.map((r) => r.grantId),
      ),
    );
    await tx
      .update(oauthGrants)
      .set({ revokedAt: now })
      .where(and(eq(oauthGrants.applicationId, applicationId), isNull(oauthGrants.revokedAt)));
  });
}
