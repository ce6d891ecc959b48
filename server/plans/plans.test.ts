import { randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZodError } from "zod";
import { createAthlete } from "../athletes/athletes";
import type { DbHandle } from "../db/client";
import { athletes, plannedWorkouts, trainingDerived, trainingPlanLinks, trainings, trainingSets, trainingSetStrokes } from "../db/schema";
import { loadKeyring } from "../svc/keyring";
import { addAthlete, createTeam } from "../teams/teams";
import { processStoredTraining } from "../trainings/process-training";
import { createUser, type SessionUser } from "../users/users";
import { createTemplate } from "../workouts/templates";
import { openTestDb } from "../../test/support/test-db";
import { createProcessedTraining } from "../../test/support/trainings";
import { appRouter } from "../trpc/root";
import { blocksOfSteps, expandBlocks } from "./plan-document";
import { linkTraining } from "./plan-links";
import { loadTrainingPlan, readPlanForEditing, readPlanWeek, type PlanEditValues } from "./plan-reads";
import { copyPlans, createPlan, deletePlan, movePlan, shiftDate, updatePlan, ZPlanDate, type PlanInput } from "./plans";

const keyring = loadKeyring({});
let handle: DbHandle;
let coach: SessionUser;
let otherCoach: SessionUser;
let anaUser: SessionUser;
let beaUser: SessionUser;
let ana: { id: number };
let bea: { id: number };
let team: { id: number };

const newUser = (name: string) =>
  createUser(handle.db, { name, email: `pl-${name}-${randomUUID()}@test.example`, password: "long enough password" });
const written = (reps: number, distance = 250) => ({
  kind: "written" as const,
  blocks: [{ reps, distance_m: distance, rest_s: 60, targets: { rate_spm: 90 } }],
});
const dateOf = async (trainingId: number) =>
  (await handle.db.select({ date: trainings.date }).from(trainings).where(eq(trainings.id, trainingId)))[0].date!;
const linkOf = async (trainingId: number) =>
  (await handle.db.select().from(trainingPlanLinks).where(eq(trainingPlanLinks.trainingId, trainingId)))[0] ?? null;
const planRow = async (planId: number) => (await handle.db.select().from(plannedWorkouts).where(eq(plannedWorkouts.id, planId)))[0];
/** Everything processing derived of a training, as text: equal text, byte-identical figures. */
const derivedOf = async (id: number) =>
  JSON.stringify({
    derived: await handle.db.select().from(trainingDerived).where(eq(trainingDerived.trainingId, id)),
    training: (await handle.db.select().from(trainings).where(eq(trainings.id, id))).map((t) => ({ ...t, processedAt: null })),
    sets: await handle.db.select().from(trainingSets).where(eq(trainingSets.trainingId, id)).orderBy(asc(trainingSets.position)),
    strokes: await handle.db
      .select()
      .from(trainingSetStrokes)
      .innerJoin(trainingSets, eq(trainingSets.id, trainingSetStrokes.setId))
      .where(eq(trainingSets.trainingId, id))
      .orderBy(asc(trainingSetStrokes.setId), asc(trainingSetStrokes.strokeIndex)),
  });
/** A new athlete of the coach, so a test's plans and trainings meet no other test's. */
const newAthlete = (name: string) => createAthlete(handle.db, coach.id, { name, surname: `Edit ${randomUUID().slice(0, 8)}` });
/** The input the plan form sends back for what it prefilled (PlanForm with `editing`). */
const inputOfEditValues = (v: PlanEditValues): PlanInput => ({
  date: v.date,
  title: v.title,
  audience: v.audience,
  notes: v.notes || null,
  source: {
    kind: "written",
    warmup: v.written!.warmupS ? { duration_s: v.written!.warmupS } : null,
    cooldown: v.written!.cooldownS ? { duration_s: v.written!.cooldownS } : null,
    blocks: v.written!.blocks,
  },
});

beforeAll(async () => {
  handle = await openTestDb();
  [coach, otherCoach, anaUser, beaUser] = await Promise.all(["coach", "other", "ana", "bea"].map(newUser));
  ana = await createAthlete(handle.db, coach.id, { name: "Ana", surname: "Plan" });
  bea = await createAthlete(handle.db, coach.id, { name: "Bea", surname: "Plan" });
  await handle.db.update(athletes).set({ userId: anaUser.id }).where(eq(athletes.id, ana.id));
  await handle.db.update(athletes).set({ userId: beaUser.id }).where(eq(athletes.id, bea.id));
  team = await createTeam(handle.db, coach.id, { name: `Plans ${randomUUID()}` });
  await addAthlete(handle.db, coach.id, { teamId: team.id, athleteId: ana.id });
  await addAthlete(handle.db, coach.id, { teamId: team.id, athleteId: bea.id });
});
afterAll(async () => {
  await handle.close();
});

describe("matching a training to its day's plan", () => {
  it("links after processing, compares rep by rep, and leaves every derived figure byte-identical", async () => {
    const { id } = await createProcessedTraining(handle.db, coach, { spec: "4x250m/60s", keyring, athleteId: ana.id, seed: 4242 });
    const snapshot = () => derivedOf(id);
    const without = await snapshot();
    expect(await linkOf(id)).toBeNull();
    const date = await dateOf(id);
    // Five reps planned, four done: one missed.
    const plan = await createPlan(handle.db, coach.id, {
      date,
      title: "Five by 250",
      audience: { kind: "athlete", athleteId: ana.id },
      source: written(5),
    });
    const link = await linkOf(id);
    expect(link).toMatchObject({ planId: plan.id, linkedByUserId: null });
    expect(await snapshot()).toBe(without);
    await processStoredTraining(handle.db, id, { keyring });
    expect(await snapshot()).toBe(without);
    const view = await loadTrainingPlan(handle.db, anaUser.id, id);
    expect(view.link?.comparison).toMatchObject({ planned: 5, done: 4, missed: 1, extra: 0 });
    expect(view.link!.comparison!.reps.filter((r) => r.actual).every((r) => r.planned?.targets?.rate_spm === 90)).toBe(true);

    // The coach unlinks: processing again keeps it unlinked; re-linking brings the comparison back.
    await linkTraining(handle.db, coach.id, id, null);
    await processStoredTraining(handle.db, id, { keyring });
    expect(await linkOf(id)).toMatchObject({ planId: null, linkedByUserId: coach.id, comparison: null });
    expect(await snapshot()).toBe(without);
    await linkTraining(handle.db, coach.id, id, plan.id);
    expect((await linkOf(id))?.comparison).toMatchObject({ missed: 1 });
  }, 60_000);

  it("prefers the plan that fits: a three-rep and a four-rep plan on the day, the four-rep one is linked; an extra rep is marked", async () => {
    const { id } = await createProcessedTraining(handle.db, coach, { spec: "4x250m/60s", keyring, athleteId: bea.id, seed: 77 });
    const date = await dateOf(id);
    const three = await createPlan(handle.db, coach.id, { date, audience: { kind: "team", teamId: team.id }, source: written(3) });
    expect((await linkOf(id))?.comparison).toMatchObject({ extra: 1, done: 3 });
    expect((await linkOf(id))?.planId).toBe(three.id);
    const four = await createPlan(handle.db, coach.id, { date, audience: { kind: "athlete", athleteId: bea.id }, source: written(4) });
    expect((await linkOf(id))?.planId).toBe(four.id);
    // Moving the four-rep plan away leaves the team's plan as the day's match.
    await movePlan(handle.db, coach.id, four.id, shiftDate(date, 1));
    expect((await linkOf(id))?.planId).toBe(three.id);
    await deletePlan(handle.db, coach.id, three.id);
    expect(await linkOf(id)).toBeNull();
  }, 60_000);
});

describe("planning", () => {
  it("plans from a template, copies a day and a week, moves a plan: one action each", async () => {
    const tpl = await createTemplate(handle.db, coach.id, {
      name: "Sprints",
      text: JSON.stringify({
        version: 1,
        steps: [
          {
            repeat: 3,
            steps: [
              { kind: "work", distance_m: 200 },
              { kind: "rest", duration_s: 90 },
            ],
          },
        ],
      }),
    });
    const monday = "2031-03-03";
    const a = await createPlan(handle.db, coach.id, {
      date: monday,
      audience: { kind: "athlete", athleteId: ana.id },
      source: { kind: "template", templateId: tpl.id },
    });
    await createPlan(handle.db, coach.id, {
      date: shiftDate(monday, 2),
      audience: { kind: "crew", boatClass: "K2", seats: [ana.id, bea.id] },
      source: written(2),
    });
    const [stored] = await handle.db.select().from(plannedWorkouts).where(eq(plannedWorkouts.id, a.id));
    expect(stored.title).toBe("Sprints");
    const dayCopies = await copyPlans(handle.db, coach.id, { from: monday, to: shiftDate(monday, 1), days: 1 });
    expect(dayCopies).toHaveLength(1);
    const weekCopies = await copyPlans(handle.db, coach.id, { from: monday, to: shiftDate(monday, 7), days: 7 });
    expect(weekCopies).toHaveLength(3);
    const next = await readPlanWeek(handle.db, coach.id, shiftDate(monday, 9));
    expect(next.days.map((d) => d.plans.map((p) => p.work))).toEqual([["3 × 200 m"], ["3 × 200 m"], ["2 × 250 m"], [], [], [], []]);
    expect(next.days[2].plans[0].forWhom).toBe("K2 crew: Ana Plan, Bea Plan");
    await movePlan(handle.db, coach.id, weekCopies[0], shiftDate(monday, 13));
    const moved = await readPlanWeek(handle.db, coach.id, shiftDate(monday, 7));
    expect(moved.days[6].plans.map((p) => p.id)).toEqual([weekCopies[0]]);
    // An impossible date is refused before the database sees it (the tRPC input uses the same ZPlanDate: a 400), and the plan stays.
    expect(ZPlanDate.safeParse("2026-02-31").success).toBe(false);
    await expect(movePlan(handle.db, coach.id, weekCopies[0], "2026-02-31")).rejects.toThrow("A date as YYYY-MM-DD");
    expect((await readPlanWeek(handle.db, coach.id, shiftDate(monday, 7))).days[6].plans.map((p) => p.id)).toEqual([weekCopies[0]]);
    await expect(
      createPlan(handle.db, coach.id, {
        date: monday,
        audience: { kind: "crew", boatClass: "K4", seats: [ana.id, bea.id] },
        source: written(1),
      }),
    ).rejects.toMatchObject({ code: "invalid" });
  }, 30_000);

  it("access: an athlete sees only their own plans, a coach only their teams'; not yours is the same not-found as absent", async () => {
    const date = "2031-05-05";
    const forAna = await createPlan(handle.db, coach.id, { date, audience: { kind: "athlete", athleteId: ana.id }, source: written(2) });
    const forBea = await createPlan(handle.db, coach.id, { date, audience: { kind: "athlete", athleteId: bea.id }, source: written(2) });
    const forTeam = await createPlan(handle.db, coach.id, { date, audience: { kind: "team", teamId: team.id }, source: written(2) });
    const ids = (week: Awaited<ReturnType<typeof readPlanWeek>>) => week.days.flatMap((d) => d.plans.map((p) => p.id)).sort();
    expect(ids(await readPlanWeek(handle.db, anaUser.id, date))).toEqual([forAna.id, forTeam.id].sort());
    expect(ids(await readPlanWeek(handle.db, beaUser.id, date))).toEqual([forBea.id, forTeam.id].sort());
    expect(ids(await readPlanWeek(handle.db, coach.id, date))).toEqual([forAna.id, forBea.id, forTeam.id].sort());
    expect(ids(await readPlanWeek(handle.db, otherCoach.id, date))).toEqual([]);
    // An athlete's view carries only themselves as a person to compare.
    const anaWeek = await readPlanWeek(handle.db, anaUser.id, date);
    expect(anaWeek.days[0].plans.flatMap((p) => p.units.map((u) => u.name))).toEqual(["Ana Plan", "Ana Plan"]);
    // Changing a plan that is not yours: the same not_found as an absent plan.
    const absent = 2_000_000_000;
    for (const call of [
      (id: number) => movePlan(handle.db, otherCoach.id, id, "2031-05-06"),
      (id: number) => deletePlan(handle.db, otherCoach.id, id),
      (id: number) => movePlan(handle.db, anaUser.id, id, "2031-05-06"),
    ]) {
      const mine = await call(forTeam.id).catch((e: unknown) => e);
      const none = await call(absent).catch((e: unknown) => e);
      expect(mine).toMatchObject({ code: "not_found", message: "Planned workout not found" });
      expect(none).toMatchObject({ code: "not_found", message: "Planned workout not found" });
    }
    await expect(
      createPlan(handle.db, otherCoach.id, { date, audience: { kind: "athlete", athleteId: ana.id }, source: written(1) }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      createPlan(handle.db, otherCoach.id, { date, audience: { kind: "team", teamId: team.id }, source: written(1) }),
    ).rejects.toMatchObject({ code: "not_found" });
    // Copying another coach's day copies nothing of it.
    expect(await copyPlans(handle.db, otherCoach.id, { from: date, to: "2031-05-06", days: 1 })).toEqual([]);
    const left = await handle.db
      .select({ id: plannedWorkouts.id })
      .from(plannedWorkouts)
      .where(inArray(plannedWorkouts.id, [forAna.id, forBea.id, forTeam.id]));
    expect(left).toHaveLength(3);
  }, 30_000);

  it("the week's compliance counts due workouts: a missed one is 0, a future one is not counted yet", async () => {
    const monday = "2031-09-01";
    await createPlan(handle.db, coach.id, { date: monday, audience: { kind: "athlete", athleteId: ana.id }, source: written(2) });
    await createPlan(handle.db, coach.id, {
      date: shiftDate(monday, 4),
      audience: { kind: "athlete", athleteId: ana.id },
      source: written(2),
    });
    const week = await readPlanWeek(handle.db, anaUser.id, monday, shiftDate(monday, 2));
    expect(week).toMatchObject({ compliancePct: 0, due: 1, done: 0 });
    expect(week.days[0].plans[0].mark).toBe("missed");
    expect(week.days[4].plans[0].mark).toBeNull();
  });
});

describe("editing a plan", () => {
  it("an edit changes the plan, shows its targets and notes, and matches the day's training again", async () => {
    const cai = await newAthlete("Cai");
    const { id } = await createProcessedTraining(handle.db, coach, { spec: "4x250m/60s", keyring, athleteId: cai.id, seed: 5150 });
    const date = await dateOf(id);
    const audience = { kind: "athlete" as const, athleteId: cai.id };
    const plan = await createPlan(handle.db, coach.id, { date, title: "Four", audience, source: written(4) });
    expect(await linkOf(id)).toMatchObject({ planId: plan.id, comparison: { planned: 4, missed: 0 } });

    const notes = "Hold rate in the last 100.\nEasy back.";
    await updatePlan(handle.db, coach.id, {
      id: plan.id,
      date,
      title: "Six at tempo",
      audience,
      notes: `  ${notes}  `,
      source: { kind: "written", blocks: [{ reps: 6, distance_m: 250, rest_s: 60, targets: { zone: 3, rate_spm: 84 } }] },
    });
    const stored = await planRow(plan.id);
    expect(stored).toMatchObject({ title: "Six at tempo", createdByUserId: coach.id, document: { notes } });
    expect(await linkOf(id)).toMatchObject({ planId: plan.id, comparison: { planned: 6, done: 4, missed: 2 } });
    const card = (await readPlanWeek(handle.db, coach.id, date)).days.flatMap((d) => d.plans).find((p) => p.id === plan.id)!;
    expect(card).toMatchObject({ work: "6 × 250 m", targets: "6 × 250 m at 84 spm · Tempo (zone 3)", notes });
    // The training page shows the plan's notes with its link.
    expect((await loadTrainingPlan(handle.db, coach.id, id)).link).toMatchObject({ planId: plan.id, notes });

    // An edit of the day takes the plan off the training's day: the training is matched again, to nothing.
    await updatePlan(handle.db, coach.id, { id: plan.id, date: shiftDate(date, 1), title: "Six at tempo", audience, source: written(6) });
    expect(await linkOf(id)).toBeNull();
    expect((await planRow(plan.id)).document).toMatchObject({ notes: null });
  }, 60_000);

  it("not yours to change is the same not_found as absent; invalid input is a 400 and writes nothing", async () => {
    const date = "2031-06-02";
    // Bea's plan: Ana (an athlete of the same team) does not see it, the other coach neither.
    const audience = { kind: "athlete" as const, athleteId: bea.id };
    const plan = await createPlan(handle.db, coach.id, { date, title: "Kept", audience, source: written(2), notes: "as it was" });
    const before = await planRow(plan.id);
    const input = { id: plan.id, date, title: "Taken", audience, source: written(3) };
    for (const user of [otherCoach, anaUser]) {
      const mine = await updatePlan(handle.db, user.id, input).catch((e: unknown) => e);
      const none = await updatePlan(handle.db, user.id, { ...input, id: 2_000_000_000 }).catch((e: unknown) => e);
      expect(mine).toMatchObject({ code: "not_found", message: "Planned workout not found" });
      expect(none).toMatchObject({ code: "not_found", message: "Planned workout not found" });
      const api = appRouter.createCaller({ db: handle.db, user });
      await expect(api.plans.update(input)).rejects.toMatchObject({ code: "NOT_FOUND", message: "Planned workout not found" });
    }

    const api = appRouter.createCaller({ db: handle.db, user: coach });
    const zone = (z: number) => ({ kind: "written" as const, blocks: [{ reps: 2, distance_m: 250, rest_s: 60, targets: { zone: z } }] });
    const invalid: [string, Record<string, unknown>, string][] = [
      ["an impossible date", { date: "2026-02-31" }, "A date as YYYY-MM-DD"],
      ["an unknown zone", { source: zone(9) }, "Zone: one of 1, 2, 3, 4, 5, 6"],
      ["notes too long", { notes: "x".repeat(1001) }, "Notes: at most 1000 characters"],
      ["a NUL byte in the notes", { notes: "hold\u0000rate" }, "Notes: no control characters"],
      ["a NUL byte in the title", { title: "a\u0000b" }, "Title: no control characters"],
    ];
    for (const [what, patch, message] of invalid) {
      const error = await api.plans.update({ ...input, ...patch } as never).catch((e: unknown) => e);
      expect(error, what).toBeInstanceOf(TRPCError);
      expect((error as TRPCError).code, what).toBe("BAD_REQUEST");
      expect(
        ((error as TRPCError).cause as ZodError).issues.map((i) => i.message),
        what,
      ).toContain(message);
      await expect(updatePlan(handle.db, coach.id, { ...input, ...patch } as never), what).rejects.toThrow(message);
    }
    expect(await planRow(plan.id)).toEqual(before);
    // The same input is accepted where it is valid: zone 6 is a zone, 1000 characters are notes.
    await api.plans.update({ ...input, source: zone(6), notes: "x".repeat(1000) });
    expect((await planRow(plan.id)).document).toMatchObject({ notes: "x".repeat(1000), steps: [{ targets: { zone: 6 } }, {}, {}] });
  }, 30_000);

  it("move and back, edit and undo: the link and its comparison come back field for field, the training's figures never move", async () => {
    const dan = await newAthlete("Dan");
    const { id } = await createProcessedTraining(handle.db, coach, { spec: "4x250m/60s", keyring, athleteId: dan.id, seed: 6060 });
    const date = await dateOf(id);
    const figures = await derivedOf(id);
    const original: PlanInput = {
      date,
      title: "Sprint 4 × 250",
      audience: { kind: "athlete", athleteId: dan.id },
      notes: "Hold rate in the last 100",
      source: {
        kind: "written",
        warmup: { duration_s: 600 },
        cooldown: { duration_s: 450 },
        blocks: [
          { reps: 3, distance_m: 250, rest_s: 60, targets: { rate_spm: 90, pace_s_per_500m: 125.5 } },
          { reps: 1, distance_m: 250, rest_s: 0, targets: { rate_spm: 90, pace_s_per_500m: 125.5 } },
        ],
      },
    };
    const plan = await createPlan(handle.db, coach.id, original);
    const linked = await linkOf(id);
    const stored = await planRow(plan.id);
    expect(linked).toMatchObject({ planId: plan.id, linkedByUserId: null, comparison: { planned: 4, done: 4 } });

    // Move away: the training has no plan that day; move back: the same link and comparison.
    await movePlan(handle.db, coach.id, plan.id, shiftDate(date, 1));
    expect(await linkOf(id)).toBeNull();
    expect(await derivedOf(id)).toBe(figures);
    await movePlan(handle.db, coach.id, plan.id, date);
    const back = await linkOf(id);
    // linked_at says when this link was made: the link was removed and made again, so it is the one field that is new.
    expect({ ...back, linkedAt: null }).toEqual({ ...linked, linkedAt: null });
    expect(back!.linkedAt.getTime()).toBeGreaterThanOrEqual(linked!.linkedAt.getTime());
    expect(await derivedOf(id)).toBe(figures);

    // Edit (six reps at a zone, other notes), then edit back to the first input: the link never left the plan,
    // so every field comes back, linked_at included; the plan's rows too, but for when they were updated.
    const settled = await linkOf(id);
    await updatePlan(handle.db, coach.id, {
      ...original,
      id: plan.id,
      notes: "Other notes",
      source: { kind: "written", blocks: [{ reps: 6, distance_m: 250, rest_s: 60, targets: { zone: 2 } }] },
    });
    expect(await linkOf(id)).toMatchObject({ planId: plan.id, comparison: { planned: 6, missed: 2 } });
    expect(await derivedOf(id)).toBe(figures);
    await updatePlan(handle.db, coach.id, { ...original, id: plan.id });
    expect(await linkOf(id)).toEqual(settled);
    expect({ ...(await planRow(plan.id)), updatedAt: null }).toEqual({ ...stored, updatedAt: null });
    expect(await derivedOf(id)).toBe(figures);

    // What the form prefills to edit this plan gives the same plan back when saved unchanged.
    const values = (await readPlanForEditing(handle.db, coach.id, plan.id))!;
    expect(values).toMatchObject({
      date,
      title: "Sprint 4 × 250",
      notes: "Hold rate in the last 100",
      written: { warmupS: 600, cooldownS: 450 },
    });
    expect(values.written!.blocks).toEqual([{ reps: 4, distance_m: 250, rest_s: 60, targets: { rate_spm: 90, pace_s_per_500m: 125.5 } }]);
    await updatePlan(handle.db, coach.id, { ...inputOfEditValues(values), id: plan.id });
    expect((await planRow(plan.id)).document).toEqual(stored.document);
    expect(await linkOf(id)).toEqual(settled);
    expect(await readPlanForEditing(handle.db, otherCoach.id, plan.id)).toBeNull();
  }, 60_000);

  it("the form's blocks expand back to exactly the steps they were read from, or are not offered", () => {
    const steps = expandBlocks([
      { reps: 2, duration_s: 60, rest_s: 0, targets: { zone: 4 } },
      { reps: 3, distance_m: 500, rest_s: 120 },
      { reps: 2, distance_m: 500, rest_s: 90 },
    ]);
    expect(expandBlocks(blocksOfSteps(steps)!)).toEqual(steps);
    // A template's shape the form cannot write: a rest first, or a rest after the last rep.
    expect(blocksOfSteps([{ kind: "rest", duration_s: 60 }, ...steps])).toBeNull();
    expect(blocksOfSteps([...steps, { kind: "rest", duration_s: 60 }])).toBeNull();
  });
});
