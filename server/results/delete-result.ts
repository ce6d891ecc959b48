import { emitSessionEvent } from "../webhooks/emit-event";
import { and, eq, like } from "drizzle-orm";
import type { Db } from "../db/client";
import { blobs, results } from "../db/schema";
import { releaseResultLoads } from "../load/store-load";
import { AppError } from "../errors";
import type { SessionUser } from "../users/users";
import { getAccessibleResultSummary } from "./query-results";

/** Blob keys of a result all start with this prefix (original file, replay artifact, reports). */
export const resultBlobPrefix = (resultId: number) => `results/${resultId}/`;

/**
 * Deletes a result with its crew, weather, strokes, derived data (cascades)
 * and its blobs, in one transaction. Needs the delete permission; only the
 * owner may delete (others who can see it get 403).
 */
export async function deleteResult(db: Db, user: SessionUser, resultId: number): Promise<void> {
  if (!user.canDeleteSessions) throw new AppError("forbidden", "Your role does not allow deleting sessions");
  const summary = await getAccessibleResultSummary(db, user.id, resultId);
  if (summary.ownerId !== user.id) throw new AppError("forbidden", "Only the owner of a session can delete it");
  await db.transaction(async (tx) => {
    await emitSessionEvent(tx, "session.deleted", resultId);
    await releaseResultLoads(tx, resultId);
    await tx.delete(results).where(and(eq(results.id, resultId), eq(results.ownerUserId, user.id)));
    await tx.delete(blobs).where(like(blobs.key, `${resultBlobPrefix(resultId)}%`));
  });
}
