import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { comments, results, trainings, users, vessels } from "../db/schema";
import { commentVisible } from "./threads";

/** A thread with comments the person has not read, for the home page. */
export interface UnreadThread {
  kind: "session" | "training";
  id: number;
  /** What the effort is: "K1 500 m · 2026-10-01", a training's title and date. */
  label: string;
  unread: number;
  /** The newest unread comment: its author and its first words. */
  latest: { authorName: string; excerpt: string; createdAt: string };
}

export interface UnreadComments {
  total: number;
  threads: UnreadThread[];
}

/** Comments the person may see, did not write and has not read; only these count. */
const unreadBy = (userId: number) =>
  and(
    ne(comments.authorUserId, userId),
    sql`not exists (select 1 from comment_reads ur where ur.user_id = ${userId} and ur.comment_id = ${comments.id})`,
    commentVisible(userId),
  );

const excerpt = (body: string) => (body.length > 120 ? `${body.slice(0, 117).trimEnd()}…` : body);

/** The person's unread comments: the total, and the threads with the newest, at most `limit`. */
export async function readUnreadComments(db: Db, userId: number, limit = 6): Promise<UnreadComments> {
  const threadKey = sql<string>`coalesce('s' || ${comments.resultId}, 't' || ${comments.trainingId})`;
  const grouped = await db
    .select({ key: threadKey, unread: sql<number>`count(*)::int`, newest: sql<number>`max(${comments.id})` })
    .from(comments)
    .where(unreadBy(userId))
    .groupBy(threadKey)
    .orderBy(desc(sql`max(${comments.id})`));
  if (!grouped.length) return { total: 0, threads: [] };
  const shown = grouped.slice(0, limit);
  const latest = await db
    .select({
      id: comments.id,
      resultId: comments.resultId,
      trainingId: comments.trainingId,
      body: comments.body,
      createdAt: comments.createdAt,
      authorName: users.name,
      sessionVessel: vessels.type,
      sessionDistance: results.distanceM,
      sessionDate: results.date,
      trainingTitle: trainings.title,
      trainingDate: trainings.date,
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorUserId))
    .leftJoin(results, eq(results.id, comments.resultId))
    .leftJoin(vessels, eq(vessels.id, results.vesselId))
    .leftJoin(trainings, eq(trainings.id, comments.trainingId))
    .where(
      inArray(
        comments.id,
        shown.map((g) => Number(g.newest)),
      ),
    );
  const byId = new Map(latest.map((r) => [r.id, r]));
  const threads = shown.map((g): UnreadThread => {
    const r = byId.get(Number(g.newest))!;
    const session = r.resultId !== null;
    return {
      kind: session ? "session" : "training",
      id: session ? r.resultId! : r.trainingId!,
      label: session
        ? `${r.sessionVessel} ${r.sessionDistance} m · ${r.sessionDate}`
        : `${r.trainingTitle || "Training"}${r.trainingDate ? ` · ${r.trainingDate}` : ""}`,
      unread: Number(g.unread),
      latest: { authorName: r.authorName, excerpt: excerpt(r.body), createdAt: r.createdAt.toISOString() },
    };
  });
  return { total: grouped.reduce((sum, g) => sum + Number(g.unread), 0), threads };
}
