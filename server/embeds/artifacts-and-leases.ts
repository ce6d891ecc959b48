import { and, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/client";
import { replayArtifactTokens, replayEmbeds } from "../db/schema";
import { openReplayArtifact } from "../replay/read-replay-artifact";
import { embedLive, LEASE_TTL_MS, timestampSql } from "./embed-live";
import { hashEmbedToken, isEmbedTokenShape } from "./tokens";

/**
 * GET /svcsim/artifacts/{token}: the first use of an unexpired token of a
 * live embed streams the stored gzip bytes of the schema-1 artifact; every
 * other use is null (404). Single use by one atomic UPDATE … RETURNING.
 */
export async function consumeArtifactToken(
  db: Db,
  token: string,
  now = new Date(),
): Promise<{ stream: ReadableStream<Uint8Array>; byteSize: number } | null> {
  if (!isEmbedTokenShape(token)) return null;
  const [row] = await db
    .update(replayArtifactTokens)
    .set({ consumedAt: now })
    .from(replayEmbeds)
    .where(
      and(
        eq(replayArtifactTokens.tokenHash, hashEmbedToken(token)),
        isNull(replayArtifactTokens.consumedAt),
        gt(replayArtifactTokens.expiresAt, timestampSql(now)),
        eq(replayEmbeds.id, replayArtifactTokens.embedId),
        embedLive(now),
      ),
    )
    .returning({ resultId: replayArtifactTokens.resultId });
  if (!row) return null;
  return openReplayArtifact(db, row.resultId);
}

/**
 * POST /svcsim/leases: renews an unexpired lease of a live embed for ten
 * minutes from now. Null for an unknown, expired or revoked credential (401).
 */
export async function renewLease(db: Db, credential: unknown, now = new Date()): Promise<{ expiresAt: Date } | null> {
  if (!isEmbedTokenShape(credential)) return null;
  const expiresAt = new Date(now.getTime() + LEASE_TTL_MS);
  const [row] = await db
    .update(replayEmbeds)
    .set({ leaseExpiresAt: expiresAt })
    .where(and(eq(replayEmbeds.leaseHash, hashEmbedToken(credential)), gt(replayEmbeds.leaseExpiresAt, timestampSql(now)), embedLive(now)))
    .returning({ expiresAt: replayEmbeds.leaseExpiresAt });
  return row?.expiresAt ? { expiresAt: row.expiresAt } : null;
}

/**
 * DELETE /svcsim/embeds/{embed_id}: the application withdraws one of its
 * embeds; its unused launch and artifact tokens and its lease end at once.
 * Idempotent for the embed's own application and subject; any other is 404.
 */
export async function revokeEmbed(
  db: Db,
  input: { embedId: number; subjectId: number; applicationId: number; now: Date },
): Promise<boolean> {
  const [row] = await db
    .select({ id: replayEmbeds.id, revokedAt: replayEmbeds.revokedAt })
    .from(replayEmbeds)
    .where(
      and(
        eq(replayEmbeds.id, input.embedId),
        eq(replayEmbeds.subjectUserId, input.subjectId),
        eq(replayEmbeds.applicationId, input.applicationId),
      ),
    );
  if (!row) return false;
  if (!row.revokedAt)
    await db
      .update(replayEmbeds)
      .set({ revokedAt: input.now })
      .where(and(eq(replayEmbeds.id, row.id), isNull(replayEmbeds.revokedAt)));
  return true;
}
