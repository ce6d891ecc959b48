import { and, eq, inArray, lt, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { deleteBlobs } from "./blob-store";
import type { Db } from "../db/client";

/** A job table whose succeeded jobs hold a file (blob) until `expiresAt`: exports, device fetches. */
type JobFileTable = PgTable & { id: PgColumn; state: PgColumn; blobKey: PgColumn; expiresAt: PgColumn };

/**
 * Deletes the files of succeeded jobs past their lifetime (at most `limit`,
 * rows locked with SKIP LOCKED so two sweeps never fight), marking the jobs
 * expired; returns how many. `where` narrows the jobs (e.g. one kind).
 */
export async function expireJobFiles(db: Db, table: JobFileTable, options: { now: Date; limit?: number; where?: SQL }): Promise<number> {
  return db.transaction(async (tx) => {
    const due = (await tx
      .select({ id: table.id, blobKey: table.blobKey })
      .from(table)
      .where(and(options.where, eq(table.state, "succeeded"), lt(table.expiresAt, options.now)))
      .limit(options.limit ?? 100)
      .for("update", { skipLocked: true })) as { id: number | string; blobKey: string | null }[];
    if (!due.length) return 0;
    await deleteBlobs(
      tx,
      due.flatMap((job) => (job.blobKey ? [job.blobKey] : [])),
    );
    // Both tables name these columns the same; drizzle cannot type `set` over a generic table.
    await tx
      .update(table)
      .set({ state: "expired", blobKey: null } as never)
      .where(
        inArray(
          table.id,
          due.map((job) => job.id),
        ),
      );
    return due.length;
  });
}
