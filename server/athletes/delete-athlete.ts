import { and, countDistinct, eq, sql } from "drizzle-orm";
import type { Db, Tx } from "../db/client";
import { athletes, resultCrew, teamMemberships, trainingCrew } from "../db/schema";
import { notFound } from "../errors";
import { count, keepTheirData } from "../deletion/plural";

/**
 * Deleting an athlete record (docs/web-app.md "Deleting"). result_crew.athlete_id
 * is ON DELETE RESTRICT: a seat must never silently empty. So the seats the
 * athlete sat in become external paddlers with the record's name and weight,
 * the way a hand-typed external is stored: every session keeps its crew as it
 * read, but no longer leads to a record (no athlete page, bests or access
 * through it for the linked account or the teams' coaches). Only the managing
 * account may delete; anyone else gets the 404 of a missing record.
 */
export interface AthleteDeletion {
  name: string;
  sessions: number;
  trainings: number;
  teams: number;
  linkedAccount: boolean;
  statement: string;
}

async function ownAthlete(db: Db | Tx, userId: number, athleteId: number, lock: boolean) {
  const query = db
    .select({ id: athletes.id, name: athletes.name, surname: athletes.surname, weightKg: athletes.weightKg, userId: athletes.userId })
    .from(athletes)
    .where(and(eq(athletes.id, athleteId), eq(athletes.ownerUserId, userId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Athlete");
  return row;
}

export async function athleteDeletion(db: Db | Tx, userId: number, athleteId: number): Promise<AthleteDeletion> {
  const athlete = await ownAthlete(db, userId, athleteId, false);
  const [[s], [t], [m]] = await Promise.all([
    db
      .select({ n: countDistinct(resultCrew.resultId) })
      .from(resultCrew)
      .where(eq(resultCrew.athleteId, athleteId)),
    // Every seat the athlete holds in a training, the paddler's seat 1 included (training_crew).
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(trainingCrew)
      .where(eq(trainingCrew.athleteId, athleteId)),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(teamMemberships)
      .where(eq(teamMemberships.athleteId, athleteId)),
  ]);
  const name = `${athlete.name} ${athlete.surname}`.trim();
  const parts = [
    s.n
      ? `${keepTheirData(s.n, "session")}; ${name}'s seat in ${s.n === 1 ? "it" : "them"} keeps the name as an external paddler, no longer linked to this record (no athlete page, personal bests or access through it).`
      : "No session has this athlete in its crew.",
    t.n ? `${keepTheirData(t.n, "training")} without this athlete.` : null,
    m.n ? `${name} leaves ${count(m.n, "team")}.` : null,
    athlete.userId ? `The linked account stays; only the link to this record ends.` : null,
  ];
  return {
    name,
    sessions: s.n,
    trainings: t.n,
    teams: m.n,
    linkedAccount: athlete.userId !== null,
    statement: parts.filter(Boolean).join(" "),
  };
}

export async function deleteAthlete(db: Db, userId: number, athleteId: number): Promise<{ sessions: number }> {
  return db.transaction(async (tx) => {
    // The row lock orders this against an upload or correction adding the athlete to a crew.
    const athlete = await ownAthlete(tx, userId, athleteId, true);
    const seats = await tx
      .update(resultCrew)
      .set({
        athleteId: null,
        externalName: athlete.name.slice(0, 128),
        externalSurname: athlete.surname,
        externalWeightKg: athlete.weightKg,
      })
      .where(eq(resultCrew.athleteId, athleteId))
      .returning({ resultId: resultCrew.resultId });
    await tx.delete(athletes).where(eq(athletes.id, athleteId));
    return { sessions: new Set(seats.map((s) => s.resultId)).size };
  });
}
