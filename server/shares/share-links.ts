import { createHash, createHmac, randomBytes } from "node:crypto";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { getOrCreateAppSecret } from "../auth/app-secrets";
import type { Db } from "../db/client";
import { resultShares } from "../db/schema";
import { AppError, notFound } from "../errors";
import { getAccessibleResultSummary } from "../results/query-results";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export const shareUrl = (appUrl: string, token: string) => `${appUrl}/share/${token}`;

/** Creates a share link for a result the user can access; the token is returned once. */
export async function createShareLink(
  db: Db,
  userId: number,
  resultId: number,
  origin: "web" | "report",
): Promise<{ id: number; token: string }> {
  await getAccessibleResultSummary(db, userId, resultId);
  const token = randomBytes(24).toString("base64url");
  const [row] = await db
    .insert(resultShares)
    .values({ resultId, createdByUserId: userId, tokenHash: hashToken(token), origin })
    .returning({ id: resultShares.id });
  return { id: row.id, token };
}

/**
 * The session's public link: the one its PDF reports and its page's QR code
 * carry, reused until revoked, so downloading a report again does not mint
 * another link. Its token is an HMAC of the link's id under a server secret:
 * only the hash is stored, yet the same token can be shown again. A lock per
 * session keeps two simultaneous downloads to one link.
 */
export async function sessionPublicLink(db: Db, userId: number, resultId: number): Promise<{ id: number; token: string }> {
  await getAccessibleResultSummary(db, userId, resultId);
  const secret = await getOrCreateAppSecret(db, "session-public-link");
  const tokenOf = (id: number) => createHmac("sha256", secret).update(`session-public-link:${id}`).digest("base64url");
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('session-public-link'), ${resultId}::int)`);
    const [live] = await tx
      .select({ id: resultShares.id })
      .from(resultShares)
      .where(and(eq(resultShares.resultId, resultId), eq(resultShares.origin, "report"), isNull(resultShares.revokedAt)))
      .orderBy(desc(resultShares.id))
      .limit(1);
    if (live) return { id: live.id, token: tokenOf(live.id) };
    // The id is known only after the insert: a random placeholder hash first, then the real one.
    const [row] = await tx
      .insert(resultShares)
      .values({ resultId, createdByUserId: userId, tokenHash: hashToken(randomBytes(24).toString("base64url")), origin: "report" })
      .returning({ id: resultShares.id });
    const token = tokenOf(row.id);
    await tx
      .update(resultShares)
      .set({ tokenHash: hashToken(token) })
      .where(eq(resultShares.id, row.id));
    return { id: row.id, token };
  });
}

export async function listShareLinks(db: Db, userId: number, resultId: number) {
  await getAccessibleResultSummary(db, userId, resultId);
  return db
    .select({ id: resultShares.id, origin: resultShares.origin, createdAt: resultShares.createdAt, revokedAt: resultShares.revokedAt })
    .from(resultShares)
    .where(eq(resultShares.resultId, resultId))
    .orderBy(desc(resultShares.createdAt), desc(resultShares.id));
}

/** Anyone who can access the result may revoke its links. */
export async function revokeShareLink(db: Db, userId: number, shareId: number): Promise<void> {
  const [share] = await db
    .select({ resultId: resultShares.resultId, revokedAt: resultShares.revokedAt })
    .from(resultShares)
    .where(eq(resultShares.id, shareId));
  if (!share) throw notFound("Share link");
  await getAccessibleResultSummary(db, userId, share.resultId);
  if (share.revokedAt) throw new AppError("conflict", "This link is already revoked");
  await db.update(resultShares).set({ revokedAt: new Date() }).where(eq(resultShares.id, shareId));
}

/** The result behind a live token, or null for an unknown or revoked one. */
export async function resolveShareToken(db: Db, token: string): Promise<number | null> {
  if (!/^[A-Za-z0-9_-]{20,64}$/.test(token)) return null;
  const [share] = await db
    .select({ resultId: resultShares.resultId })
    .from(resultShares)
    .where(and(eq(resultShares.tokenHash, hashToken(token)), isNull(resultShares.revokedAt)));
  return share?.resultId ?? null;
}
