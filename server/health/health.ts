import { and, desc, eq, inArray, or, sql } from "drizzle-orm";
import { resultAccessible } from "../access/access";
import { z } from "zod";
import type { Db } from "../db/client";
import { athletes, healthLactate, healthWeights, resultCrew, results, users, vessels } from "../db/schema";
import { AppError, notFound } from "../errors";
import { getAccessibleResultSummary } from "../results/query-results";

/** Health rows that may ever leave through the Data API: never an external provider's. */
export const SHAREABLE_PROVENANCE = ["manual", "device"] as const;

export const ZWeightInput = z.object({
  measuredOn: z.iso
    .date("Use the format YYYY-MM-DD")
    .refine((d) => d <= new Date().toISOString().slice(0, 10), "The date is in the future"),
  weightKg: z.coerce.number({ error: "Enter a number" }).min(20, "At least 20 kg").max(250, "At most 250 kg"),
});

export const ZLactateInput = z.object({
  resultId: z.number({ error: "Choose a session" }).int().positive("Choose a session"),
  measuredAt: z.iso.datetime({ offset: true, local: true, error: "Enter a date and time" }),
  lactateMmolL: z.coerce.number({ error: "Enter a number" }).min(0.1, "At least 0.1 mmol/L").max(40, "At most 40 mmol/L"),
  note: z.string().trim().max(64, "At most 64 characters").default(""),
});

/** A weight the person typed in (provenance manual). */
export async function addWeight(db: Db, userId: number, input: z.input<typeof ZWeightInput>) {
  const values = ZWeightInput.parse(input);
  const [row] = await db
    .insert(healthWeights)
    .values({ ...values, userId, provenance: "manual", enteredByUserId: userId })
    .returning({ id: healthWeights.id });
  return row;
}

/** The person's own weight history, newest first; `shareableOnly` drops external-provider rows. */
export async function listWeights(db: Db, userId: number, { shareableOnly }: { shareableOnly: boolean }) {
  return db
    .select({
      id: healthWeights.id,
      measuredOn: healthWeights.measuredOn,
      weightKg: healthWeights.weightKg,
      provenance: healthWeights.provenance,
      enteredByUserId: healthWeights.enteredByUserId,
      enteredByName: users.name,
    })
    .from(healthWeights)
    .leftJoin(users, eq(users.id, healthWeights.enteredByUserId))
    .where(and(eq(healthWeights.userId, userId), shareableOnly ? inArray(healthWeights.provenance, [...SHAREABLE_PROVENANCE]) : undefined))
    .orderBy(desc(healthWeights.measuredOn), desc(healthWeights.id));
}

export async function deleteWeight(db: Db, userId: number, id: number) {
  // The person, or the coach who entered it for them.
  const deleted = await db
    .delete(healthWeights)
    .where(and(eq(healthWeights.id, id), or(eq(healthWeights.userId, userId), eq(healthWeights.enteredByUserId, userId))))
    .returning({ id: healthWeights.id });
  if (!deleted.length) throw notFound("Weight entry");
}

/** A lactate reading tied to one of the person's accessible sessions. */
export async function addLactate(db: Db, userId: number, input: z.input<typeof ZLactateInput>) {
  const values = ZLactateInput.parse(input);
  try {
    await getAccessibleResultSummary(db, userId, values.resultId);
  } catch {
    throw new AppError("invalid", "Choose one of your sessions", { resultId: ["Choose one of your sessions"] });
  }
  const [row] = await db
    .insert(healthLactate)
    .values({
      userId,
      resultId: values.resultId,
      measuredAt: new Date(values.measuredAt),
      lactateMmolL: values.lactateMmolL,
      note: values.note,
      provenance: "manual",
      enteredByUserId: userId,
    })
    .returning({ id: healthLactate.id });
  return row;
}

export async function listLactate(db: Db, userId: number, { shareableOnly, resultId }: { shareableOnly: boolean; resultId?: number }) {
  return db
    .select({
      id: healthLactate.id,
      resultId: healthLactate.resultId,
      trainingId: healthLactate.trainingId,
      measuredAt: healthLactate.measuredAt,
      lactateMmolL: healthLactate.lactateMmolL,
      note: healthLactate.note,
      provenance: healthLactate.provenance,
      enteredByUserId: healthLactate.enteredByUserId,
      enteredByName: users.name,
    })
    .from(healthLactate)
    .leftJoin(users, eq(users.id, healthLactate.enteredByUserId))
    .where(
      and(
        eq(healthLactate.userId, userId),
        resultId !== undefined ? eq(healthLactate.resultId, resultId) : undefined,
        shareableOnly ? inArray(healthLactate.provenance, [...SHAREABLE_PROVENANCE]) : undefined,
      ),
    )
    .orderBy(desc(healthLactate.measuredAt), desc(healthLactate.id));
}

export async function deleteLactate(db: Db, userId: number, id: number) {
  const deleted = await db
    .delete(healthLactate)
    .where(and(eq(healthLactate.id, id), or(eq(healthLactate.userId, userId), eq(healthLactate.enteredByUserId, userId))))
    .returning({ id: healthLactate.id });
  if (!deleted.length) throw notFound("Lactate reading");
}

/**
 * A coach's entries for an athlete they manage (docs/web-app.md "Health entered
 * by a coach"). Health rows belong to a person's account, so they go to the
 * athlete's linked account, with provenance "manual" and the coach as who
 * entered them; the athlete sees and may delete them, and the Data API shares
 * them only under the athlete's own consent, like every manual row. An
 * athlete record without an account cannot hold health data: refused, with
 * the way to link one. Only the managing account may enter; anyone else gets
 * the 404 of a missing athlete.
 */
async function managedLinkedAthlete(db: Db, coachId: number, athleteId: number) {
  const [athlete] = await db
    .select({ id: athletes.id, userId: athletes.userId, name: athletes.name })
    .from(athletes)
    .where(and(eq(athletes.id, athleteId), eq(athletes.ownerUserId, coachId)));
  if (!athlete) throw notFound("Athlete");
  if (athlete.userId === null) {
    throw new AppError(
      "unprocessable",
      `${athlete.name} has no account yet. Health data belongs to the athlete's own account: invite them to link one first.`,
    );
  }
  return { ...athlete, userId: athlete.userId };
}

export async function addWeightForAthlete(db: Db, coachId: number, athleteId: number, input: z.input<typeof ZWeightInput>) {
  const values = ZWeightInput.parse(input);
  const athlete = await managedLinkedAthlete(db, coachId, athleteId);
  const [row] = await db
    .insert(healthWeights)
    .values({ ...values, userId: athlete.userId, provenance: "manual", enteredByUserId: coachId })
    .returning({ id: healthWeights.id });
  return row;
}

/** The reading belongs to a session the athlete paddled in (and the coach can open). */
export async function addLactateForAthlete(db: Db, coachId: number, athleteId: number, input: z.input<typeof ZLactateInput>) {
  const values = ZLactateInput.parse(input);
  const athlete = await managedLinkedAthlete(db, coachId, athleteId);
  const refuse = () =>
    new AppError("invalid", "Choose one of this athlete's sessions", { resultId: ["Choose one of this athlete's sessions"] });
  try {
    await getAccessibleResultSummary(db, coachId, values.resultId);
  } catch {
    throw refuse();
  }
  const [seat] = await db
    .select({ seat: resultCrew.seat })
    .from(resultCrew)
    .where(and(eq(resultCrew.resultId, values.resultId), eq(resultCrew.athleteId, athleteId)))
    .limit(1);
  if (!seat) throw refuse();
  const [row] = await db
    .insert(healthLactate)
    .values({
      userId: athlete.userId,
      resultId: values.resultId,
      measuredAt: new Date(values.measuredAt),
      lactateMmolL: values.lactateMmolL,
      note: values.note,
      provenance: "manual",
      enteredByUserId: coachId,
    })
    .returning({ id: healthLactate.id });
  return row;
}

/** What the coach entered for this athlete (never the athlete's own or other people's rows). */
export async function listEnteredForAthlete(db: Db, coachId: number, athleteId: number) {
  const athlete = await managedLinkedAthlete(db, coachId, athleteId);
  const [weights, lactate] = await Promise.all([
    db
      .select({ id: healthWeights.id, measuredOn: healthWeights.measuredOn, weightKg: healthWeights.weightKg })
      .from(healthWeights)
      .where(and(eq(healthWeights.userId, athlete.userId), eq(healthWeights.enteredByUserId, coachId)))
      .orderBy(desc(healthWeights.measuredOn), desc(healthWeights.id)),
    db
      .select({
        id: healthLactate.id,
        resultId: healthLactate.resultId,
        measuredAt: healthLactate.measuredAt,
        lactateMmolL: healthLactate.lactateMmolL,
        note: healthLactate.note,
      })
      .from(healthLactate)
      .where(and(eq(healthLactate.userId, athlete.userId), eq(healthLactate.enteredByUserId, coachId)))
      .orderBy(desc(healthLactate.measuredAt), desc(healthLactate.id)),
  ]);
  return { weights, lactate };
}

/** Sessions a lactate reading for this athlete may belong to: theirs, that the coach can open, newest first. */
export async function listAthleteSessionsForHealth(db: Db, coachId: number, athleteId: number, limit = 100) {
  return db
    .select({
      id: results.id,
      date: results.date,
      timeOfDay: results.timeOfDay,
      durationMs: results.durationMs,
      vesselType: vessels.type,
      distanceM: results.distanceM,
    })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .where(
      and(
        resultAccessible(coachId),
        sql`exists (select 1 from result_crew rc where rc.result_id = ${results.id} and rc.athlete_id = ${athleteId})`,
      ),
    )
    .orderBy(desc(results.startAt), desc(results.id))
    .limit(limit);
}

/**
 * The lactate form's default "measured at" for a session (issue 28 §6): the
 * end of its effort, UTC, as the form's datetime-local value ("2026-05-14T09:01"),
 * since a reading is taken after the piece, not whenever the form is opened.
 */
export function lactateTimeOf(s: { date: string; timeOfDay: string; durationMs: number }): string {
  const start = Date.parse(`${s.date}T${s.timeOfDay}`);
  return new Date((Number.isFinite(start) ? start : Date.parse(`${s.date}T00:00:00Z`)) + s.durationMs).toISOString().slice(0, 16);
}
