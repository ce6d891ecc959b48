import { and, asc, eq, gte, lte, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { plannedWorkoutAthletes, plannedWorkouts, teams, trainingPlanLinks, trainings } from "../db/schema";
import { notFound } from "../errors";
import { trainingVisible } from "../trainings/training-view";
import { workoutMark, type PlanComparison, type WorkoutMark } from "./compliance";
import { planEditable, planPeople, planVisible, rowsOf } from "./plan-access";
import { blocksOfSteps, spanLabel, targetsOfWork, workLabel, type PlanBlock, type PlanDocument } from "./plan-document";
import { shiftDate, type PlanInput } from "./plans";

/**
 * What the web pages read of plans (docs/plans.md): a week of plans and
 * trainings side by side with its compliance, and a training's plan. Explicit
 * shapes: no row reaches a page as it is stored.
 */
export interface PlanUnit {
  athleteId: number;
  name: string;
  trainingId: number | null;
  /** null while the day has not passed and nothing is done yet. */
  mark: WorkoutMark | null;
  score: number | null;
}
export interface PlanCard {
  id: number;
  date: string;
  title: string;
  forWhom: string;
  work: string;
  warmup: string | null;
  cooldown: string | null;
  /** The work reps' targets ("4 × 500 m at 2:05 /500 m · 70 spm"); null when no rep has one. */
  targets: string | null;
  /** For the athletes; whoever sees the plan sees them. */
  notes: string | null;
  editable: boolean;
  units: PlanUnit[];
  mark: WorkoutMark | null;
}
export interface DoneCard {
  id: number;
  date: string;
  title: string;
  who: string;
  workSetCount: number | null;
  planId: number | null;
  mark: WorkoutMark | null;
}
export interface PlanWeek {
  weekStart: string;
  today: string;
  days: { date: string; plans: PlanCard[]; done: DoneCard[] }[];
  /** Mean score of the week's planned workouts that are due (percent), null when none is. */
  compliancePct: number | null;
  due: number;
  done: number;
}

export const mondayOfDate = (date: string) => shiftDate(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));

export async function readPlanWeek(
  db: Db,
  userId: number,
  anyDay: string,
  today = new Date().toISOString().slice(0, 10),
): Promise<PlanWeek> {
  const weekStart = mondayOfDate(anyDay);
  const weekEnd = shiftDate(weekStart, 6);
  const plans = await db
    .select({
      id: plannedWorkouts.id,
      date: plannedWorkouts.date,
      title: plannedWorkouts.title,
      audience: plannedWorkouts.audience,
      boatClass: plannedWorkouts.boatClass,
      teamName: teams.name,
      document: plannedWorkouts.document,
      editable: planEditable(userId),
    })
    .from(plannedWorkouts)
    .leftJoin(teams, eq(teams.id, plannedWorkouts.teamId))
    .where(and(gte(plannedWorkouts.date, weekStart), lte(plannedWorkouts.date, weekEnd), planVisible(userId)))
    .orderBy(asc(plannedWorkouts.date), asc(plannedWorkouts.id));
  const ids = plans.map((p) => p.id);
  // The viewer's people in each plan (an athlete: themselves; a coach: the athletes they see), and the trainings linked.
  const unitRows = ids.length
    ? rowsOf<{ planId: number; athleteId: number; name: string }>(
        await db.execute(sql`
          select p.id as "planId", a.id as "athleteId", trim(a.name || ' ' || a.surname) as name
          from planned_workouts p join athletes a on a.id in ${planPeople(sql`p.id`)}
          where p.id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )}) and a.id in (select v.athlete_id from athlete_viewers v where v.user_id = ${userId})
          order by a.surname, a.name, a.id`),
      )
    : [];
  const linkRows = ids.length
    ? rowsOf<{ planId: number; trainingId: number; athleteIds: number[]; comparison: PlanComparison | null }>(
        await db.execute(sql`
          select l.plan_id as "planId", l.training_id as "trainingId", l.comparison,
            array(select t.athlete_id where t.athlete_id is not null union select c.athlete_id from training_crew c where c.training_id = t.id) as "athleteIds"
          from training_plan_links l join trainings t on t.id = l.training_id
          where l.plan_id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`),
      )
    : [];
  const cards: PlanCard[] = plans.map((p) => {
    const doc = p.document as PlanDocument;
    const units = unitRows
      .filter((u) => Number(u.planId) === p.id)
      .map((u): PlanUnit => {
        const link = linkRows.find((l) => Number(l.planId) === p.id && l.athleteIds.map(Number).includes(Number(u.athleteId)));
        const score = link?.comparison ? link.comparison.score : p.date < today ? 0 : null;
        const mark: WorkoutMark | null = link?.comparison ? link.comparison.mark : p.date < today ? "missed" : null;
        return { athleteId: Number(u.athleteId), name: u.name, trainingId: link ? Number(link.trainingId) : null, mark, score };
      });
    const due = units.filter((u) => u.score !== null);
    const mean = due.length ? due.reduce((s, u) => s + u.score!, 0) / due.length : null;
    const mark: WorkoutMark | null = mean === null ? null : due.every((u) => u.mark === "missed") ? "missed" : workoutMark(mean);
    const forWhom =
      p.audience === "team"
        ? `Team ${p.teamName ?? ""}`.trim()
        : p.audience === "crew"
          ? `${p.boatClass} crew: ${units.map((u) => u.name).join(", ")}`
          : (units[0]?.name ?? "Athlete");
    return {
      id: p.id,
      date: p.date,
      title: p.title,
      forWhom,
      work: workLabel(doc.steps),
      warmup: doc.warmup ? spanLabel(doc.warmup) : null,
      cooldown: doc.cooldown ? spanLabel(doc.cooldown) : null,
      targets: targetsOfWork(doc.steps),
      notes: doc.notes,
      editable: Boolean(p.editable),
      units,
      mark,
    };
  });
  const done = await readDoneCards(db, userId, weekStart, weekEnd);
  const allUnits = cards.flatMap((c) => c.units).filter((u) => u.score !== null);
  return {
    weekStart,
    today,
    days: Array.from({ length: 7 }, (_, k) => {
      const date = shiftDate(weekStart, k);
      return { date, plans: cards.filter((c) => c.date === date), done: done.filter((d) => d.date === date) };
    }),
    compliancePct: allUnits.length ? Math.round((allUnits.reduce((s, u) => s + u.score!, 0) / allUnits.length) * 100) : null,
    due: allUnits.length,
    done: allUnits.filter((u) => u.trainingId !== null).length,
  };
}

async function readDoneCards(db: Db, userId: number, from: string, to: string): Promise<DoneCard[]> {
  const rows = await db
    .select({
      id: trainings.id,
      date: trainings.date,
      title: trainings.title,
      workSetCount: trainings.workSetCount,
      who: sql<string | null>`(select trim(a.name || ' ' || a.surname) from athletes a where a.id = ${trainings.athleteId})`,
      planId: trainingPlanLinks.planId,
      comparison: trainingPlanLinks.comparison,
    })
    .from(trainings)
    .leftJoin(trainingPlanLinks, eq(trainingPlanLinks.trainingId, trainings.id))
    .where(and(gte(trainings.date, from), lte(trainings.date, to), eq(trainings.status, "ready"), trainingVisible(userId)))
    .orderBy(asc(trainings.startAt), asc(trainings.id));
  return rows.map((r) => ({
    id: r.id,
    date: r.date!,
    title: r.title || `Training ${r.id}`,
    who: r.who ?? "",
    workSetCount: r.workSetCount,
    planId: r.planId,
    mark: (r.comparison as PlanComparison | null)?.mark ?? null,
  }));
}

export interface TrainingPlanView {
  link: { planId: number; title: string; date: string; notes: string | null; byPerson: boolean; comparison: PlanComparison | null } | null;
  /** A person unlinked it: processing again leaves it unlinked. */
  unlinked: boolean;
  /** Plans the viewer may link it to: their editable plans of the week around the training, for its people. */
  choices: { id: number; title: string; date: string }[];
  canUnlink: boolean;
}

export async function loadTrainingPlan(db: Db, userId: number, trainingId: number): Promise<TrainingPlanView> {
  const [t] = await db
    .select({ id: trainings.id, date: trainings.date, ownerUserId: trainings.ownerUserId, athleteId: trainings.athleteId })
    .from(trainings)
    .where(and(eq(trainings.id, trainingId), trainingVisible(userId)));
  if (!t) throw notFound("Training");
  const [link] = await db
    .select({
      planId: trainingPlanLinks.planId,
      byUser: trainingPlanLinks.linkedByUserId,
      comparison: trainingPlanLinks.comparison,
      title: plannedWorkouts.title,
      date: plannedWorkouts.date,
      notes: sql<string | null>`${plannedWorkouts.document}->>'notes'`,
      visible: planVisible(userId, sql`${trainingPlanLinks.planId}`),
      editable: planEditable(userId, sql`${trainingPlanLinks.planId}`),
    })
    .from(trainingPlanLinks)
    .leftJoin(plannedWorkouts, eq(plannedWorkouts.id, trainingPlanLinks.planId))
    .where(eq(trainingPlanLinks.trainingId, trainingId));
  const choices = t.date
    ? await db
        .select({ id: plannedWorkouts.id, title: plannedWorkouts.title, date: plannedWorkouts.date })
        .from(plannedWorkouts)
        .where(
          and(
            gte(plannedWorkouts.date, shiftDate(t.date, -3)),
            lte(plannedWorkouts.date, shiftDate(t.date, 3)),
            planVisible(userId),
            planEditable(userId),
            sql`(exists (select 1 from ${planPeople(plannedWorkouts.id)} lp(athlete_id) where lp.athlete_id = ${t.athleteId}
              or lp.athlete_id in (select c.athlete_id from training_crew c where c.training_id = ${trainingId})))`,
          ),
        )
        .orderBy(asc(plannedWorkouts.date), asc(plannedWorkouts.id))
    : [];
  const shown = link && link.planId !== null && link.visible && link.title !== null;
  return {
    link: shown
      ? {
          planId: link.planId!,
          title: link.title!,
          date: link.date!,
          notes: link.notes,
          byPerson: link.byUser !== null,
          comparison: link.comparison as PlanComparison | null,
        }
      : null,
    unlinked: !!link && link.planId === null,
    choices,
    canUnlink: !!shown && (t.ownerUserId === userId || Boolean(link.editable)),
  };
}

/** What the plan form shows to edit a plan: the create input that gives the plan back. */
export interface PlanEditValues {
  id: number;
  date: string;
  title: string;
  audience: PlanInput["audience"];
  templateId: number | null;
  /** The steps as the form's blocks, warm-up and cool-down in seconds; null when the form cannot write them (a template's own shape). */
  written: { warmupS: number | null; cooldownS: number | null; blocks: PlanBlock[] } | null;
  notes: string;
}

/** A plan the user may change, as the form edits it; null when absent or not theirs to change (the page then plans a new one). */
export async function readPlanForEditing(db: Db, userId: number, planId: number): Promise<PlanEditValues | null> {
  const [p] = await db
    .select()
    .from(plannedWorkouts)
    .where(and(eq(plannedWorkouts.id, planId), planVisible(userId), planEditable(userId)));
  if (!p) return null;
  const people = await db
    .select({ athleteId: plannedWorkoutAthletes.athleteId })
    .from(plannedWorkoutAthletes)
    .where(eq(plannedWorkoutAthletes.planId, planId))
    .orderBy(asc(plannedWorkoutAthletes.seat), asc(plannedWorkoutAthletes.athleteId));
  const audience: PlanInput["audience"] =
    p.audience === "team"
      ? { kind: "team", teamId: p.teamId! }
      : p.audience === "crew"
        ? { kind: "crew", boatClass: p.boatClass as "K2", seats: people.map((x) => x.athleteId) }
        : { kind: "athlete", athleteId: people[0]?.athleteId ?? 0 };
  const doc = p.document as PlanDocument;
  // The form writes warm-up and cool-down as a time; one by distance is not the form's to write.
  const timeOf = (span: PlanDocument["warmup"]) => (span ? (span.duration_s ?? Number.NaN) : null);
  const blocks = blocksOfSteps(doc.steps);
  const [warmupS, cooldownS] = [timeOf(doc.warmup), timeOf(doc.cooldown)];
  const writable = blocks && !Number.isNaN(warmupS) && !Number.isNaN(cooldownS);
  return {
    id: p.id,
    date: p.date,
    title: p.title,
    audience,
    templateId: p.templateId,
    written: writable ? { warmupS, cooldownS, blocks } : null,
    notes: doc.notes ?? "",
  };
}
