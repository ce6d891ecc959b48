import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { plannedWorkouts, trainingCrew, trainingPlanLinks, trainings, trainingSets, vessels } from "../db/schema";
import { AppError, notFound } from "../errors";
import { referenceSpeedMS } from "../load/reference";
import type { SessionSummary } from "../svc/process/types";
import { trainingVisible } from "../trainings/training-view";
import { comparePlan, type DoneSet, type PlanComparison } from "./compliance";
import { planEditable, planPeople, planVisible, rowsOf } from "./plan-access";
import type { PlanDocument } from "./plan-document";

/**
 * A training and the plan it carried out (docs/plans.md "Matching"): after
 * processing, the plans of the training's day for the people in the boat are
 * compared with its work sets and the best one is linked. The link and the
 * comparison live in training_plan_links only; no set or figure changes.
 */
interface TrainingFacts {
  id: number;
  status: string;
  date: string | null;
  boatClass: string;
  people: number[];
}

async function trainingFacts(db: Db, trainingId: number): Promise<TrainingFacts | null> {
  const [t] = await db
    .select({ id: trainings.id, status: trainings.status, date: trainings.date, athleteId: trainings.athleteId, boatClass: vessels.type })
    .from(trainings)
    .innerJoin(vessels, eq(vessels.id, trainings.vesselId))
    .where(eq(trainings.id, trainingId));
  if (!t) return null;
  const crew = await db.select({ athleteId: trainingCrew.athleteId }).from(trainingCrew).where(eq(trainingCrew.trainingId, trainingId));
  const people = [...new Set([...(t.athleteId !== null ? [t.athleteId] : []), ...crew.map((c) => c.athleteId)])];
  return { id: t.id, status: t.status, date: t.date, boatClass: t.boatClass, people };
}

async function doneSets(db: Db, trainingId: number): Promise<DoneSet[]> {
  const rows = await db
    .select({
      setId: trainingSets.id,
      position: trainingSets.position,
      distanceM: trainingSets.distanceM,
      durationMs: trainingSets.durationMs,
      summary: trainingSets.summary,
    })
    .from(trainingSets)
    .where(and(eq(trainingSets.trainingId, trainingId), eq(trainingSets.kind, "work")))
    .orderBy(asc(trainingSets.position));
  return rows.map((r) => ({ ...r, avgRateSpm: (r.summary as SessionSummary | null)?.avg_rate ?? null }));
}

async function compare(db: Db, t: TrainingFacts, sets: DoneSet[], document: PlanDocument): Promise<PlanComparison> {
  const needsZone = document.steps.some((s) => s.targets?.zone !== undefined);
  const athleteId = t.people[0];
  const reference =
    needsZone && athleteId !== undefined && t.date
      ? await referenceSpeedMS(db, { athleteId, boatClass: t.boatClass, asOf: new Date(`${t.date}T23:59:59Z`) })
      : null;
  return comparePlan(document.steps, sets, reference);
}

/** Lexicographic order of ranks: whether `a` comes first. */
function before(a: number[], b: number[]): boolean {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k] < b[k];
  return false;
}

/** Links a processed training to the best plan of its day (a person's choice stays); removes a link that no longer fits. */
export async function matchTrainingToPlan(db: Db, trainingId: number): Promise<void> {
  const t = await trainingFacts(db, trainingId);
  if (!t) return;
  const [link] = await db.select().from(trainingPlanLinks).where(eq(trainingPlanLinks.trainingId, trainingId));
  if (t.status !== "ready" || !t.date) {
    if (link && link.linkedByUserId === null) await db.delete(trainingPlanLinks).where(eq(trainingPlanLinks.trainingId, trainingId));
    return;
  }
  const sets = await doneSets(db, trainingId);
  if (link && link.linkedByUserId !== null) {
    if (link.planId === null) return;
    const [plan] = await db.select({ document: plannedWorkouts.document }).from(plannedWorkouts).where(eq(plannedWorkouts.id, link.planId));
    if (plan)
      await db
        .update(trainingPlanLinks)
        .set({ comparison: await compare(db, t, sets, plan.document as PlanDocument) })
        .where(eq(trainingPlanLinks.trainingId, trainingId));
    return;
  }
  const candidates = t.people.length
    ? await db
        .select({ id: plannedWorkouts.id, audience: plannedWorkouts.audience, document: plannedWorkouts.document })
        .from(plannedWorkouts)
        .where(
          and(
            eq(plannedWorkouts.date, t.date),
            sql`exists (select 1 from ${planPeople(plannedWorkouts.id)} pl_p(athlete_id) where pl_p.athlete_id in (${sql.join(
              t.people.map((id) => sql`${id}`),
              sql`, `,
            )}))`,
          ),
        )
        .orderBy(asc(plannedWorkouts.id))
    : [];
  let best: { id: number; comparison: PlanComparison; rank: number[] } | null = null;
  for (const plan of candidates) {
    const comparison = await compare(db, t, sets, plan.document as PlanDocument);
    // Best score first; then fewest reps left unpaired; then the more specific plan (an athlete's or a crew's before a team's).
    const rank = [-comparison.score, comparison.missed + comparison.extra, plan.audience === "team" ? 1 : 0];
    if (!best || before(rank, best.rank)) best = { id: plan.id, comparison, rank };
  }
  if (!best) {
    if (link) await db.delete(trainingPlanLinks).where(eq(trainingPlanLinks.trainingId, trainingId));
    return;
  }
  await db
    .insert(trainingPlanLinks)
    .values({ trainingId, planId: best.id, comparison: best.comparison, linkedByUserId: null })
    .onConflictDoUpdate({
      target: trainingPlanLinks.trainingId,
      // A comparison made again is not a new link: linked_at moves only when the plan does.
      set: {
        planId: best.id,
        comparison: best.comparison,
        linkedAt: sql`case when ${trainingPlanLinks.planId} is distinct from excluded.plan_id then now() else ${trainingPlanLinks.linkedAt} end`,
      },
    });
}

/**
 * The trainings a change of these plans may affect (those linked to them, and
 * the ready trainings of their days for their people), matched again unless
 * `collectOnly`; `also` adds trainings collected before the change.
 */
export async function rematchTrainingsFor(
  db: Db,
  planIds: number[],
  opts: { collectOnly?: boolean; also?: number[] } = {},
): Promise<number[]> {
  let ids: number[] = [...(opts.also ?? [])];
  if (planIds.length) {
    const list = sql.join(
      planIds.map((id) => sql`${id}`),
      sql`, `,
    );
    const rows = rowsOf<{ id: number }>(
      await db.execute(sql`
        select l.training_id as id from training_plan_links l where l.plan_id in (${list})
        union
        select t.id from trainings t join planned_workouts p on p.id in (${list}) and t.date = p.date
        where t.status = 'ready' and (t.athlete_id in ${planPeople(sql`p.id`)}
          or exists (select 1 from training_crew c where c.training_id = t.id and c.athlete_id in ${planPeople(sql`p.id`)}))`),
    );
    ids = [...new Set([...ids, ...rows.map((r) => Number(r.id))])];
  }
  if (!opts.collectOnly) for (const id of ids) await matchTrainingToPlan(db, id);
  return ids;
}

/**
 * A person re-links a training to a plan, or unlinks it (`planId` null). The
 * training must be one they see; the plan one they may change (for an unlink,
 * the training must be theirs or its plan one they may change). Not theirs is
 * the same not-found as absent.
 */
export async function linkTraining(db: Db, userId: number, trainingId: number, planId: number | null): Promise<void> {
  const [t] = await db
    .select({ id: trainings.id, ownerUserId: trainings.ownerUserId, status: trainings.status })
    .from(trainings)
    .where(and(eq(trainings.id, trainingId), trainingVisible(userId)));
  if (!t) throw notFound("Training");
  if (planId !== null) {
    const [plan] = await db
      .select({ id: plannedWorkouts.id })
      .from(plannedWorkouts)
      .where(and(eq(plannedWorkouts.id, planId), planVisible(userId), planEditable(userId)));
    if (!plan) throw notFound("Planned workout");
    if (t.status !== "ready") throw new AppError("conflict", "The training is not processed yet");
  } else if (t.ownerUserId !== userId) {
    const [link] = await db
      .select({ planId: trainingPlanLinks.planId })
      .from(trainingPlanLinks)
      .where(and(eq(trainingPlanLinks.trainingId, trainingId), planEditable(userId, sql`${trainingPlanLinks.planId}`)));
    if (!link) throw notFound("Planned workout");
  }
  await db
    .insert(trainingPlanLinks)
    .values({ trainingId, planId, linkedByUserId: userId, comparison: null })
    .onConflictDoUpdate({
      target: trainingPlanLinks.trainingId,
      set: { planId, linkedByUserId: userId, comparison: null, linkedAt: new Date() },
    });
  await matchTrainingToPlan(db, trainingId);
}

/** Back to automatic matching: the person's choice is forgotten and the day's plans are matched again. */
export async function resetTrainingLink(db: Db, userId: number, trainingId: number): Promise<void> {
  const [t] = await db
    .select({ id: trainings.id })
    .from(trainings)
    .where(and(eq(trainings.id, trainingId), trainingVisible(userId)));
  if (!t) throw notFound("Training");
  await db.delete(trainingPlanLinks).where(and(eq(trainingPlanLinks.trainingId, trainingId)));
  await matchTrainingToPlan(db, trainingId);
}
