import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { privateNotes, users } from "../db/schema";
import { notFound } from "../errors";

/**
 * Coach-private notes (docs/comments.md "Private notes"): on a session, a
 * training or an athlete, read and written by the coaches of the athletes
 * concerned only. A coach of an athlete is a person who may see the athlete
 * record (athlete_viewers, docs/access.md) as its manager or as a coach of
 * its team, and is not the athlete themselves. On a session or a training,
 * the coaches of any athlete of its crew (or its named paddler), unless they
 * paddled in it themselves. Everything else, the athlete included, gets the
 * same not-found as for a note that does not exist, and no page says notes exist.
 *
 * Nothing else reads this table: exports, share pages, both APIs, webhooks
 * and the replay are built from other tables, so a note cannot reach them.
 */
export const ZNoteTarget = z.object({ kind: z.enum(["session", "training", "athlete"]), id: z.number().int().positive() });
export type NoteTarget = z.infer<typeof ZNoteTarget>;
const ZBody = z.string().trim().min(1, "Write something first").max(2000, "At most 2,000 characters");
export const ZNewNote = z.object({ target: ZNoteTarget, body: ZBody });
export const ZEditNote = z.object({ id: z.number().int().positive(), body: ZBody });

export interface PrivateNoteView {
  id: number;
  authorName: string;
  mine: boolean;
  body: string;
  createdAt: string;
  edited: boolean;
}

/** The person coaches the athlete `athleteId`: manager or team coach, and not the athlete's own account. */
function coachOf(userId: number, athleteId: SQL): SQL {
  return sql`exists (select 1 from athlete_viewers co_v join athletes co_a on co_a.id = co_v.athlete_id
    where co_v.athlete_id = ${athleteId} and co_v.user_id = ${userId} and not co_v.own and co_a.user_id is distinct from ${userId})`;
}

/** The athletes of a session (its crew) or a training (its named paddler and its crew), as a subquery of athlete ids. */
function athletesOf(target: NoteTarget): SQL {
  if (target.kind === "session")
    return sql`select rc.athlete_id from result_crew rc where rc.result_id = ${target.id} and rc.athlete_id is not null`;
  if (target.kind === "training")
    return sql`select t.athlete_id from trainings t where t.id = ${target.id} and t.athlete_id is not null
      union select tc.athlete_id from training_crew tc where tc.training_id = ${target.id}`;
  return sql`select ${target.id}::int`;
}

/** The person may keep private notes on the target: a coach of one of its athletes, and none of them themselves. */
function mayKeepNotes(userId: number, target: NoteTarget): SQL {
  return sql`(exists (select 1 from (${athletesOf(target)}) kn(athlete_id) where ${coachOf(userId, sql`kn.athlete_id`)})
    and not exists (select 1 from (${athletesOf(target)}) kn2(athlete_id) join athletes kn_a on kn_a.id = kn2.athlete_id where kn_a.user_id = ${userId}))`;
}

export async function mayKeepPrivateNotes(db: Db, userId: number, target: NoteTarget): Promise<boolean> {
  const rows = await db.execute<{ ok: boolean }>(sql`select ${mayKeepNotes(userId, target)} as ok`);
  const list = Array.isArray(rows) ? rows : (rows as unknown as { rows: { ok: boolean }[] }).rows;
  return list[0]?.ok === true;
}

async function requireNotes(db: Db, userId: number, target: NoteTarget) {
  if (!(await mayKeepPrivateNotes(db, userId, target)))
    throw notFound(target.kind === "athlete" ? "Athlete" : target.kind === "session" ? "Session" : "Training");
}

const onTarget = (target: NoteTarget): SQL =>
  target.kind === "session"
    ? eq(privateNotes.resultId, target.id)
    : target.kind === "training"
      ? eq(privateNotes.trainingId, target.id)
      : eq(privateNotes.athleteId, target.id);

/** The target's private notes, oldest first; not found for anyone who is not one of its coaches. */
export async function listPrivateNotes(db: Db, userId: number, target: NoteTarget): Promise<PrivateNoteView[]> {
  await requireNotes(db, userId, target);
  const rows = await db
    .select({
      id: privateNotes.id,
      authorUserId: privateNotes.authorUserId,
      authorName: users.name,
      body: privateNotes.body,
      createdAt: privateNotes.createdAt,
      editedAt: privateNotes.editedAt,
    })
    .from(privateNotes)
    .innerJoin(users, eq(users.id, privateNotes.authorUserId))
    .where(onTarget(target))
    .orderBy(asc(privateNotes.id));
  return rows.map((r) => ({
    id: r.id,
    authorName: r.authorName,
    mine: r.authorUserId === userId,
    body: r.body,
    createdAt: r.createdAt.toISOString(),
    edited: r.editedAt !== null,
  }));
}

/** The private notes the person may read on the target, or null when they are not one of its coaches (the page shows no section then). */
export async function privateNotesFor(db: Db, userId: number, target: NoteTarget): Promise<PrivateNoteView[] | null> {
  return (await mayKeepPrivateNotes(db, userId, target)) ? listPrivateNotes(db, userId, target) : null;
}

export async function addPrivateNote(db: Db, userId: number, input: z.input<typeof ZNewNote>): Promise<{ id: number }> {
  const { target, body } = ZNewNote.parse(input);
  await requireNotes(db, userId, target);
  const [row] = await db
    .insert(privateNotes)
    .values({
      authorUserId: userId,
      resultId: target.kind === "session" ? target.id : null,
      trainingId: target.kind === "training" ? target.id : null,
      athleteId: target.kind === "athlete" ? target.id : null,
      body,
    })
    .returning({ id: privateNotes.id });
  return row;
}

/** The person's own note on a target they still coach; otherwise not found. */
async function ownNote(db: Db, userId: number, id: number) {
  const [row] = await db
    .select({ resultId: privateNotes.resultId, trainingId: privateNotes.trainingId, athleteId: privateNotes.athleteId })
    .from(privateNotes)
    .where(and(eq(privateNotes.id, id), eq(privateNotes.authorUserId, userId)));
  if (!row) throw notFound("Note");
  const target: NoteTarget =
    row.resultId !== null
      ? { kind: "session", id: row.resultId }
      : row.trainingId !== null
        ? { kind: "training", id: row.trainingId }
        : { kind: "athlete", id: row.athleteId! };
  if (!(await mayKeepPrivateNotes(db, userId, target))) throw notFound("Note");
}

export async function editPrivateNote(db: Db, userId: number, input: z.input<typeof ZEditNote>): Promise<void> {
  const { id, body } = ZEditNote.parse(input);
  await ownNote(db, userId, id);
  await db.update(privateNotes).set({ body, editedAt: new Date() }).where(eq(privateNotes.id, id));
}

export async function deletePrivateNote(db: Db, userId: number, id: number): Promise<void> {
  await ownNote(db, userId, id);
  await db.delete(privateNotes).where(and(eq(privateNotes.id, id), eq(privateNotes.authorUserId, userId)));
}
