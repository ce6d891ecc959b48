import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { commentReads, comments, users } from "../db/schema";
import { notFound } from "../errors";
import { checkMoment, readMoment, ZMoment, type Moment } from "./moments";
import { commentVisible, inThread, openThread, ZThread, type Thread } from "./threads";

/**
 * Comments on sessions and trainings (docs/comments.md): anyone who may see
 * the effort reads and writes them; each person edits and deletes their own.
 * A comment that is not the person's is the same not-found as one that does
 * not exist.
 */
const ZBody = z.string().trim().min(1, "Write something first").max(2000, "At most 2,000 characters");
export const ZNewComment = z.object({ thread: ZThread, body: ZBody, moment: ZMoment.nullish() });
export const ZEditComment = z.object({ id: z.number().int().positive(), body: ZBody, moment: ZMoment.nullish() });

/** One comment as the web app shows it: the author's display name, never their account's other facts. */
export interface CommentView {
  id: number;
  authorName: string;
  /** Written by the viewer: they may edit and delete it. */
  mine: boolean;
  body: string;
  moment: Moment | null;
  createdAt: string;
  edited: boolean;
}

/** The thread's comments, oldest first, after checking the person may see the effort. */
export async function listComments(db: Db, userId: number, thread: Thread): Promise<CommentView[]> {
  await openThread(db, userId, thread);
  const rows = await db
    .select({
      id: comments.id,
      authorUserId: comments.authorUserId,
      authorName: users.name,
      body: comments.body,
      moment: comments.moment,
      createdAt: comments.createdAt,
      editedAt: comments.editedAt,
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.authorUserId))
    .where(inThread(thread))
    .orderBy(asc(comments.id));
  return rows.map((r) => ({
    id: r.id,
    authorName: r.authorName,
    mine: r.authorUserId === userId,
    body: r.body,
    moment: readMoment(r.moment),
    createdAt: r.createdAt.toISOString(),
    edited: r.editedAt !== null,
  }));
}

/** Writes a comment; the writer has read it. */
export async function addComment(db: Db, userId: number, input: z.input<typeof ZNewComment>): Promise<{ id: number }> {
  const { thread, body, moment } = ZNewComment.parse(input);
  const target = await openThread(db, userId, thread);
  const stored = checkMoment(moment, target);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(comments)
      .values({
        authorUserId: userId,
        resultId: thread.kind === "session" ? thread.id : null,
        trainingId: thread.kind === "training" ? thread.id : null,
        body,
        moment: stored,
      })
      .returning({ id: comments.id });
    await tx.insert(commentReads).values({ userId, commentId: row.id });
    return row;
  });
}

/** The person's own comment on an effort they still may see, with its thread; otherwise not found. */
async function ownComment(db: Db, userId: number, id: number): Promise<Thread> {
  const [row] = await db
    .select({ resultId: comments.resultId, trainingId: comments.trainingId })
    .from(comments)
    .where(and(eq(comments.id, id), eq(comments.authorUserId, userId), commentVisible(userId)));
  if (!row) throw notFound("Comment");
  return row.resultId !== null ? { kind: "session", id: row.resultId } : { kind: "training", id: row.trainingId! };
}

export async function editComment(db: Db, userId: number, input: z.input<typeof ZEditComment>): Promise<void> {
  const { id, body, moment } = ZEditComment.parse(input);
  const thread = await ownComment(db, userId, id);
  const stored = checkMoment(moment, await openThread(db, userId, thread));
  await db.update(comments).set({ body, moment: stored, editedAt: new Date() }).where(eq(comments.id, id));
}

export async function deleteComment(db: Db, userId: number, id: number): Promise<void> {
  await ownComment(db, userId, id);
  await db.delete(comments).where(and(eq(comments.id, id), eq(comments.authorUserId, userId)));
}

/** Marks every comment of the thread read for the person (opening the session or training does it). */
export async function markThreadRead(db: Db, userId: number, thread: Thread): Promise<void> {
  await openThread(db, userId, thread);
  await markRead(db, userId, sql`${inThread(thread)}`);
}

/** Marks every comment the person may see read (the home page's "Mark all read"). */
export async function markAllCommentsRead(db: Db, userId: number): Promise<void> {
  await markRead(db, userId, commentVisible(userId));
}

async function markRead(db: Db, userId: number, where: ReturnType<typeof sql>) {
  await db.execute(sql`insert into comment_reads (user_id, comment_id)
    select ${userId}, ${comments.id} from ${comments}
    where ${where} and not exists (select 1 from comment_reads mr where mr.user_id = ${userId} and mr.comment_id = ${comments.id})
    on conflict do nothing`);
}
