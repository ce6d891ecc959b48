import { and, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { comments, results, trainings } from "../db/schema";
import { notFound } from "../errors";
import { trainingVisible } from "../trainings/training-view";
import type { MomentTarget } from "./moments";

/** What a comment thread is about: a session (result) or a training. */
export const ZThread = z.object({ kind: z.enum(["session", "training"]), id: z.number().int().positive() });
export type Thread = z.infer<typeof ZThread>;

/** Comments the person may read and answer: those on sessions they may see (session_access) and trainings they may see. */
export function commentVisible(userId: number): SQL {
  return sql`((${comments.resultId} is not null and exists (select 1 from session_access cv_sa where cv_sa.user_id = ${userId} and cv_sa.result_id = ${comments.resultId}))
    or (${comments.trainingId} is not null and exists (select 1 from trainings where trainings.id = ${comments.trainingId} and ${trainingVisible(userId)})))`;
}

/** The comments of one thread, as a condition on `comments`. */
export const inThread = (thread: Thread): SQL =>
  thread.kind === "session" ? eq(comments.resultId, thread.id) : eq(comments.trainingId, thread.id);

/**
 * The thread's session or training as the person may see it (docs/access.md: the session's
 * session_access row, the training's trainingVisible), with what a moment is checked against.
 * Not theirs is the same not-found as absent.
 */
export async function openThread(db: Db, userId: number, thread: Thread): Promise<MomentTarget> {
  if (thread.kind === "session") {
    const [row] = await db
      .select({ durationMs: results.durationMs })
      .from(results)
      .where(
        and(
          eq(results.id, thread.id),
          sql`exists (select 1 from session_access ot_sa where ot_sa.user_id = ${userId} and ot_sa.result_id = ${results.id})`,
        ),
      );
    if (!row) throw notFound("Session");
    return { kind: "session", durationMs: row.durationMs };
  }
  const [row] = await db
    .select({ workSetCount: trainings.workSetCount, status: trainings.status })
    .from(trainings)
    .where(and(eq(trainings.id, thread.id), trainingVisible(userId)));
  if (!row) throw notFound("Training");
  return { kind: "training", workSetCount: row.status === "ready" ? row.workSetCount : null };
}
