import { and, eq, gte, inArray, lte } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/client";
import { plannedWorkoutAthletes, plannedWorkouts, workoutTemplates } from "../db/schema";
import { AppError, notFound } from "../errors";
import { BOAT_CLASSES, type NormalizedTemplate } from "../workouts/template";
import { mayPlanFor, mayPlanForTeam, planEditable, planVisible } from "./plan-access";
import { expandBlocks, noControlCharacters, ZPlanNotes, ZWrittenPlan, type PlanDocument } from "./plan-document";
import { PLAN_TITLE_MAX } from "./plan-limits";
import { rematchTrainingsFor } from "./plan-links";

/**
 * Planned workouts (docs/plans.md): plan one for a day (from a template or
 * written on the spot) for an athlete, a crew or a team; move one; copy a
 * day or a week. Every change rematches the trainings of the days touched.
 */
/** A calendar date as YYYY-MM-DD; an impossible one (2026-02-31) is a 400, never a database error. */
export const ZPlanDate = z.iso.date({ message: "A date as YYYY-MM-DD" });
const ZId = z.number().int().positive().max(2_147_483_647);
export const ZAudience = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("athlete"), athleteId: ZId }),
  z.object({ kind: z.literal("crew"), boatClass: z.enum(BOAT_CLASSES), seats: z.array(ZId).min(2).max(4) }),
  z.object({ kind: z.literal("team"), teamId: ZId }),
]);
export const ZPlanInput = z.object({
  date: ZPlanDate,
  title: z
    .string()
    .trim()
    .max(PLAN_TITLE_MAX, `Title: at most ${PLAN_TITLE_MAX} characters`)
    .refine(noControlCharacters, "Title: no control characters")
    .default(""),
  audience: ZAudience,
  source: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("template"), templateId: ZId }),
    ZWrittenPlan.extend({ kind: z.literal("written") }),
  ]),
  /** Empty or absent: none, or a template's own notes when planned from one. */
  notes: ZPlanNotes,
});
export type PlanInput = z.input<typeof ZPlanInput>;
/** An edit takes what a plan is made from, as create does, and the plan's id. */
export const ZPlanUpdate = ZPlanInput.extend({ id: ZId });
export type PlanUpdate = z.input<typeof ZPlanUpdate>;

const DAY_MS = 86_400_000;
export const shiftDate = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** What a plan's rows hold for an input: access checked (the people or team, the template), the template's steps copied. */
async function resolvePlan(db: Db, userId: number, input: z.output<typeof ZPlanInput>) {
  const a = input.audience;
  const athleteIds = a.kind === "athlete" ? [a.athleteId] : a.kind === "crew" ? a.seats : [];
  if (a.kind === "crew" && new Set(a.seats).size !== a.seats.length) throw new AppError("invalid", "An athlete sits in one seat only");
  if (a.kind === "crew" && a.seats.length !== Number(a.boatClass[1]))
    throw new AppError("invalid", `A ${a.boatClass} has ${a.boatClass[1]} seats`);
  const allowed = a.kind === "team" ? await mayPlanForTeam(db, userId, a.teamId) : await mayPlanFor(db, userId, athleteIds);
  if (!allowed) throw notFound(a.kind === "team" ? "Team" : "Athlete");
  let document: PlanDocument;
  let templateId: number | null = null;
  let title = input.title;
  let boatClass: string | null = a.kind === "crew" ? a.boatClass : null;
  const notes = input.notes || null;
  if (input.source.kind === "template") {
    const [t] = await db
      .select({ id: workoutTemplates.id, name: workoutTemplates.name, template: workoutTemplates.template })
      .from(workoutTemplates)
      .where(and(eq(workoutTemplates.id, input.source.templateId), eq(workoutTemplates.ownerUserId, userId)));
    if (!t) throw notFound("Workout template");
    const template = t.template as NormalizedTemplate;
    document = { warmup: null, steps: template.steps, cooldown: null, notes: notes ?? template.notes };
    templateId = t.id;
    title ||= t.name;
    boatClass ??= template.boat_class;
  } else {
    const s = input.source;
    document = { warmup: s.warmup, steps: expandBlocks(s.blocks), cooldown: s.cooldown, notes };
  }
  const row = {
    date: input.date,
    title: title || "Planned workout",
    audience: a.kind,
    teamId: a.kind === "team" ? a.teamId : null,
    boatClass,
    templateId,
    document,
  };
  const seats = athleteIds.map((athleteId, k) => ({ athleteId, seat: a.kind === "crew" ? k + 1 : null }));
  return { row, seats };
}

export async function createPlan(db: Db, userId: number, raw: PlanInput): Promise<{ id: number }> {
  const { row, seats } = await resolvePlan(db, userId, ZPlanInput.parse(raw));
  const id = await db.transaction(async (tx) => {
    const [plan] = await tx
      .insert(plannedWorkouts)
      .values({ createdByUserId: userId, ...row })
      .returning({ id: plannedWorkouts.id });
    if (seats.length) await tx.insert(plannedWorkoutAthletes).values(seats.map((x) => ({ planId: plan.id, ...x })));
    return plan.id;
  });
  await rematchTrainingsFor(db, [id]);
  return { id };
}

async function editablePlan(db: Db, userId: number, planId: number) {
  const [plan] = await db
    .select({ id: plannedWorkouts.id, date: plannedWorkouts.date })
    .from(plannedWorkouts)
    .where(and(eq(plannedWorkouts.id, planId), planVisible(userId), planEditable(userId)));
  if (!plan) throw notFound("Planned workout");
  return plan;
}

/**
 * Changes one plan and matches again the trainings it may have touched: those
 * linked to it or of its day and people before the change, and those of its
 * day and people after (move, edit and delete alike).
 */
async function changeAndRematch(db: Db, planId: number, change: () => Promise<unknown>): Promise<void> {
  const before = await rematchTrainingsFor(db, [planId], { collectOnly: true });
  await change();
  await rematchTrainingsFor(db, [planId], { also: before });
}

/** Moves a plan to another day (one action); the trainings it was linked to and those of the new day are matched again. */
export async function movePlan(db: Db, userId: number, planId: number, toDate: string): Promise<void> {
  const date = ZPlanDate.parse(toDate);
  await editablePlan(db, userId, planId);
  await changeAndRematch(db, planId, () =>
    db.update(plannedWorkouts).set({ date, updatedAt: new Date() }).where(eq(plannedWorkouts.id, planId)),
  );
}

/**
 * Edits a plan: the same input as createPlan, the same access rule as a move
 * (not yours is the same not_found as absent). The plan keeps its id and its
 * creator; its people are replaced; the trainings of the day(s) touched are
 * matched again, so editing back to the first input gives the first links back.
 */
export async function updatePlan(db: Db, userId: number, raw: PlanUpdate): Promise<void> {
  const { id, ...input } = ZPlanUpdate.parse(raw);
  await editablePlan(db, userId, id);
  const { row, seats } = await resolvePlan(db, userId, input);
  await changeAndRematch(db, id, () =>
    db.transaction(async (tx) => {
      await tx
        .update(plannedWorkouts)
        .set({ ...row, updatedAt: new Date() })
        .where(eq(plannedWorkouts.id, id));
      await tx.delete(plannedWorkoutAthletes).where(eq(plannedWorkoutAthletes.planId, id));
      if (seats.length) await tx.insert(plannedWorkoutAthletes).values(seats.map((x) => ({ planId: id, ...x })));
    }),
  );
}

export async function deletePlan(db: Db, userId: number, planId: number): Promise<void> {
  await editablePlan(db, userId, planId);
  await changeAndRematch(db, planId, () => db.delete(plannedWorkouts).where(eq(plannedWorkouts.id, planId)));
}

/**
 * Copies every plan the user may change on `days` days from `from` to the
 * same weekdays from `to` (a day: 1, a week: 7), as one action. Returns the
 * new plans' ids.
 */
export async function copyPlans(db: Db, userId: number, opts: { from: string; to: string; days: 1 | 7 }): Promise<number[]> {
  const from = ZPlanDate.parse(opts.from);
  const offset = daysBetween(from, ZPlanDate.parse(opts.to));
  if (offset === 0) throw new AppError("invalid", "Copy to another day");
  const plans = await db
    .select()
    .from(plannedWorkouts)
    .where(
      and(
        gte(plannedWorkouts.date, from),
        lte(plannedWorkouts.date, shiftDate(from, opts.days - 1)),
        planVisible(userId),
        planEditable(userId),
      ),
    )
    .orderBy(plannedWorkouts.date, plannedWorkouts.id);
  if (!plans.length) return [];
  const people = await db
    .select()
    .from(plannedWorkoutAthletes)
    .where(
      inArray(
        plannedWorkoutAthletes.planId,
        plans.map((p) => p.id),
      ),
    );
  const ids = await db.transaction(async (tx) => {
    const out: number[] = [];
    for (const p of plans) {
      const [row] = await tx
        .insert(plannedWorkouts)
        .values({
          createdByUserId: userId,
          date: shiftDate(p.date, offset),
          title: p.title,
          audience: p.audience,
          teamId: p.teamId,
          boatClass: p.boatClass,
          templateId: p.templateId,
          document: p.document,
        })
        .returning({ id: plannedWorkouts.id });
      const seats = people.filter((x) => x.planId === p.id);
      if (seats.length) await tx.insert(plannedWorkoutAthletes).values(seats.map((x) => ({ ...x, planId: row.id })));
      out.push(row.id);
    }
    return out;
  });
  await rematchTrainingsFor(db, ids);
  return ids;
}
