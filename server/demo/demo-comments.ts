import { and, desc, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { athletes, commentReads, comments, privateNotes, resultCrew, results, trainings } from "../db/schema";
import type { Moment } from "../comments/moments";

/**
 * The demo season's conversation (docs/comments.md): the coach and Lucía (the athlete with an account) talk
 * about her latest sessions and trainings, pointing at splits, replay times and work sets; the coach keeps a
 * few private notes on them and on two athletes. Lucía has the coach's newest comments unread, the coach
 * Lucía's newest, so both homes show some.
 */
export async function seedDemoComments(db: Db, people: { coachUserId: number; athleteUserId: number }): Promise<void> {
  const { coachUserId: coach, athleteUserId: lucia } = people;
  const [own] = await db.select({ id: athletes.id }).from(athletes).where(eq(athletes.userId, lucia));
  if (!own) return;
  const sessions = await db
    .select({ id: results.id, startAt: results.startAt, durationMs: results.durationMs })
    .from(results)
    .innerJoin(resultCrew, eq(resultCrew.resultId, results.id))
    .where(eq(resultCrew.athleteId, own.id))
    .orderBy(desc(results.startAt))
    .limit(3);
  const practices = await db
    .select({ id: trainings.id, startAt: trainings.startAt, workSetCount: trainings.workSetCount })
    .from(trainings)
    .where(and(eq(trainings.athleteId, own.id), eq(trainings.status, "ready"), isNotNull(trainings.startAt)))
    .orderBy(desc(trainings.startAt))
    .limit(2);
  const at = (start: Date, hours: number) => new Date(start.getTime() + hours * 3_600_000);
  type Row = { author: number; resultId?: number; trainingId?: number; body: string; moment?: Moment; createdAt: Date };
  const rows: Row[] = [];
  sessions.forEach((s, k) => {
    const replayS = Math.round(s.durationMs * 0.6) / 1000;
    rows.push(
      {
        author: coach,
        resultId: s.id,
        body: k === 0 ? "Third quarter dropped off again: look at the rate there." : "Good rhythm through the middle.",
        moment: { kind: "split", index: 3, count: 4 },
        createdAt: at(s.startAt, 3),
      },
      {
        author: lucia,
        resultId: s.id,
        body: "My hands went heavy here; I shortened the stroke.",
        moment: { kind: "time", seconds: Math.floor(replayS * 10) / 10 },
        createdAt: at(s.startAt, 5),
      },
    );
    if (k === 0)
      rows.push({ author: coach, resultId: s.id, body: "Next time hold length and let the rate come.", createdAt: at(s.startAt, 20) });
  });
  practices.forEach((t, k) => {
    const last = Math.max(1, t.workSetCount ?? 1);
    rows.push(
      {
        author: lucia,
        trainingId: t.id,
        body: "The last piece felt the hardest.",
        moment: { kind: "set", work: last },
        createdAt: at(t.startAt!, 2),
      },
      {
        author: coach,
        trainingId: t.id,
        body: k === 0 ? "Pace held within a second across the sets: well done." : "Start the first set calmer.",
        moment: { kind: "set", work: 1 },
        createdAt: at(t.startAt!, 6),
      },
    );
  });
  if (!rows.length) return;
  const inserted = await db
    .insert(comments)
    .values(
      rows.map((r) => ({
        authorUserId: r.author,
        resultId: r.resultId ?? null,
        trainingId: r.trainingId ?? null,
        body: r.body,
        moment: r.moment ?? null,
        createdAt: r.createdAt,
      })),
    )
    .returning({ id: comments.id, author: comments.authorUserId, createdAt: comments.createdAt });
  // Each author has read their own; each has read the other's older comments, not the newest two.
  const newestFirst = [...inserted].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const unread = (reader: number) =>
    new Set(
      newestFirst
        .filter((c) => c.author !== reader)
        .slice(0, 2)
        .map((c) => c.id),
    );
  const reads = [coach, lucia].flatMap((reader) => {
    const skip = unread(reader);
    return inserted.filter((c) => !skip.has(c.id)).map((c) => ({ userId: reader, commentId: c.id, readAt: c.createdAt }));
  });
  if (reads.length) await db.insert(commentReads).values(reads);

  const club = await db
    .select({ id: athletes.id })
    .from(athletes)
    .where(and(eq(athletes.ownerUserId, coach), sql`${athletes.id} <> ${own.id}`))
    .orderBy(athletes.id)
    .limit(1);
  const notes = [
    { athleteId: own.id, body: "Lucía: back tightness reported in October; keep the long pieces at rate 70 or below until it settles." },
    ...club.map((a) => ({ athleteId: a.id, body: "Ready to move into the K2 with Lucía after the next test." })),
    ...sessions.slice(0, 1).map((s) => ({ resultId: s.id, body: "Selection piece: compare with the spring test before telling her." })),
    ...practices.slice(0, 1).map((t) => ({ trainingId: t.id, body: "Rests were cut short: she is pushing too hard, talk to her." })),
  ];
  await db.insert(privateNotes).values(notes.map((n) => ({ authorUserId: coach, ...n })));
}
