import { createHash } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { rowsOf } from "../sessions/session-log";
import { z } from "zod";
import { randomBase62 } from "../auth/random-base62";
import type { Db } from "../db/client";
import { webhookEvents, webhookListenTokens } from "../db/schema";
import { AppError, notFound } from "../errors";
import { ownedApplicationId } from "./endpoints";
import { TEST_EVENT_TYPE } from "./event-types";

/**
 * Listen tokens and the events they read (docs/webhooks.md "Local
 * development"). A token belongs to one application, is made by its owner on
 * the application's page, shown once and stored as a SHA-256 hash. It reads
 * nothing but that application's webhook events: it is not an OAuth grant and
 * reaches no API.
 */
export const LISTEN_TOKEN_PREFIX = "prl_";
export const MAX_LISTEN_TOKENS_PER_APPLICATION = 10;

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

export const ZListenTokenName = z.object({
  name: z.string().trim().min(1, "Give the token a name").max(64, "At most 64 characters"),
});

export interface ListenTokenView {
  id: string;
  name: string;
  tokenStart: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const viewColumns = {
  id: webhookListenTokens.publicId,
  name: webhookListenTokens.name,
  tokenStart: webhookListenTokens.tokenStart,
  createdAt: webhookListenTokens.createdAt,
  lastUsedAt: webhookListenTokens.lastUsedAt,
  revokedAt: webhookListenTokens.revokedAt,
};

/** Makes a token; the returned `token` is the only copy that will ever exist. */
export async function createListenToken(
  db: Db,
  ownerUserId: number,
  applicationId: number,
  input: z.input<typeof ZListenTokenName>,
): Promise<{ listenToken: ListenTokenView; token: string }> {
  const { name } = ZListenTokenName.parse(input);
  await ownedApplicationId(db, ownerUserId, applicationId);
  const live = await db.$count(
    webhookListenTokens,
    and(eq(webhookListenTokens.applicationId, applicationId), isNull(webhookListenTokens.revokedAt)),
  );
  if (live >= MAX_LISTEN_TOKENS_PER_APPLICATION)
    throw new AppError("conflict", `An application has at most ${MAX_LISTEN_TOKENS_PER_APPLICATION} listen tokens: revoke one first`);
  const token = LISTEN_TOKEN_PREFIX + randomBase62(40);
  const [listenToken] = await db
    .insert(webhookListenTokens)
    .values({
      publicId: `wl_${randomBase62(20)}`,
      applicationId,
      name,
      tokenHash: hashToken(token),
      tokenStart: `${token.slice(0, LISTEN_TOKEN_PREFIX.length + 6)}…`,
    })
    .returning(viewColumns);
  return { listenToken, token };
}

/** The application's tokens, newest first, revoked ones included (with their date). */
export async function listListenTokens(db: Db, ownerUserId: number, applicationId: number): Promise<ListenTokenView[]> {
  await ownedApplicationId(db, ownerUserId, applicationId);
  return db
    .select(viewColumns)
    .from(webhookListenTokens)
    .where(eq(webhookListenTokens.applicationId, applicationId))
    .orderBy(desc(webhookListenTokens.id));
}

/** Revokes a token: refused from now on; an open stream ends at its next poll. Revoking twice is harmless. */
export async function revokeListenToken(db: Db, ownerUserId: number, applicationId: number, tokenId: string): Promise<void> {
  await ownedApplicationId(db, ownerUserId, applicationId);
  const [row] = await db
    .update(webhookListenTokens)
    .set({ revokedAt: sql`coalesce(${webhookListenTokens.revokedAt}, now())` })
    .where(and(eq(webhookListenTokens.publicId, tokenId), eq(webhookListenTokens.applicationId, applicationId)))
    .returning({ id: webhookListenTokens.id });
  if (!row) throw notFound("Listen token");
}

export interface ListenCredential {
  tokenId: number;
  applicationId: number;
}

const refused = () => new AppError("unauthenticated", "The listen token is missing, unknown or revoked");

/** The token of an `Authorization: Bearer prl_…` header, or a 401. Marks it used. */
export async function authenticateListenToken(db: Db, authorization: string | null): Promise<ListenCredential> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1];
  if (!token?.startsWith(LISTEN_TOKEN_PREFIX) || token.length > 200) throw refused();
  const [row] = await db
    .update(webhookListenTokens)
    .set({ lastUsedAt: new Date() })
    .where(and(eq(webhookListenTokens.tokenHash, hashToken(token)), isNull(webhookListenTokens.revokedAt)))
    .returning({ tokenId: webhookListenTokens.id, applicationId: webhookListenTokens.applicationId });
  if (!row) throw refused();
  return row;
}

/** False once the token is revoked (or its application deleted). */
export async function listenTokenActive(db: Db, tokenId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: webhookListenTokens.id })
    .from(webhookListenTokens)
    .where(and(eq(webhookListenTokens.id, tokenId), isNull(webhookListenTokens.revokedAt)));
  return Boolean(row);
}

/**
 * A position in an application's events: (transaction id, event id). Events
 * are read in that order and only from transactions older than every running
 * one (the snapshot's xmin), so an event whose transaction commits after a
 * later-numbered one is still read: its tx_id is at least the xmin the cursor
 * stopped below.
 */
export interface ListenCursor {
  txId: number;
  id: number;
}

/** Where a new stream starts: every event committed from now on (and none before). */
export async function currentListenCursor(db: Db): Promise<ListenCursor> {
  const [row] = rowsOf<{ xmin: string }>(await db.execute(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`));
  return { txId: Number(row.xmin), id: 0 };
}

/**
 * Where a stream resumes after `Last-Event-ID` (an event's `msg_…` id): just
 * after that event, if it is one of this application's; null otherwise (an
 * unknown, swept or foreign id: the caller starts from now).
 */
export async function cursorAfter(db: Db, applicationId: number, messageId: string): Promise<ListenCursor | null> {
  if (!/^msg_[0-9A-Za-z]{1,64}$/.test(messageId)) return null;
  const [row] = await db
    .select({ txId: webhookEvents.txId, id: webhookEvents.id })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.messageId, messageId), eq(webhookEvents.applicationId, applicationId)));
  return row ?? null;
}

export interface ListenedEvent {
  messageId: string;
  type: string;
  /** The exact body a delivery sends (the same string `attemptWebhookDelivery` signs). */
  body: string;
}

/**
 * The application's events after `cursor`, oldest first. Which events an
 * application gets was decided when they were written (`emitWebhookEvent`:
 * active grants, scopes, surface — the same rows its endpoints' deliveries
 * come from); as at each delivery attempt, an event whose grant is no longer
 * active is skipped (`authorization.revoked` excepted), and the portal's
 * per-endpoint test events are not part of the stream.
 */
export async function readListenEvents(
  db: Db,
  applicationId: number,
  cursor: ListenCursor,
  limit = 100,
): Promise<{ events: ListenedEvent[]; cursor: ListenCursor }> {
  const rows = rowsOf<{ tx_id: string; id: string; message_id: string; type: string; payload: Record<string, unknown>; sendable: boolean }>(
    await db.execute(sql`
      select e.tx_id::text as tx_id, e.id::text as id, e.message_id, e.type, e.payload,
        e.type <> ${TEST_EVENT_TYPE} and (e.type = 'authorization.revoked' or exists (
          select 1 from oauth_grants g
          where g.user_id = e.user_id and g.application_id = e.application_id
            and g.revoked_at is null and g.expires_at > now())) as sendable
      from webhook_events e
      where e.application_id = ${applicationId}
        and (e.tx_id, e.id) > (${cursor.txId}::bigint, ${cursor.id}::bigint)
        and e.tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
      order by e.tx_id, e.id
      limit ${limit}`),
  );
  if (!rows.length) return { events: [], cursor };
  const last = rows[rows.length - 1];
  const events = rows
    .filter((r) => r.sendable)
    .map((r) => ({
      messageId: r.message_id,
      type: r.type,
      body: JSON.stringify(typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload),
    }));
  return { events, cursor: { txId: Number(last.tx_id), id: Number(last.id) } };
}
