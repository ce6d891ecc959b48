import { z } from "zod";
import { INT4_MAX } from "../../contract/values";
import { linkTraining, resetTrainingLink } from "../../plans/plan-links";
import { copyPlans, createPlan, deletePlan, movePlan, updatePlan, ZPlanDate as ZDate, ZPlanInput, ZPlanUpdate } from "../../plans/plans";
import { protectedProcedure, router } from "../init";

const ZId = z.number().int().positive().max(INT4_MAX);

/** Planned workouts in the web app (docs/plans.md); not a Data API operation. */
export const plansRouter = router({
  create: protectedProcedure.input(ZPlanInput).mutation(({ ctx, input }) => createPlan(ctx.db, ctx.user.id, input)),
  update: protectedProcedure.input(ZPlanUpdate).mutation(({ ctx, input }) => updatePlan(ctx.db, ctx.user.id, input)),
  move: protectedProcedure
    .input(z.object({ id: ZId, date: ZDate }))
    .mutation(({ ctx, input }) => movePlan(ctx.db, ctx.user.id, input.id, input.date)),
  delete: protectedProcedure.input(z.object({ id: ZId })).mutation(({ ctx, input }) => deletePlan(ctx.db, ctx.user.id, input.id)),
  copy: protectedProcedure
    .input(z.object({ from: ZDate, to: ZDate, days: z.union([z.literal(1), z.literal(7)]) }))
    .mutation(async ({ ctx, input }) => ({ ids: await copyPlans(ctx.db, ctx.user.id, input) })),
  link: protectedProcedure
    .input(z.object({ trainingId: ZId, planId: ZId.nullable() }))
    .mutation(({ ctx, input }) => linkTraining(ctx.db, ctx.user.id, input.trainingId, input.planId)),
  resetLink: protectedProcedure
    .input(z.object({ trainingId: ZId }))
    .mutation(({ ctx, input }) => resetTrainingLink(ctx.db, ctx.user.id, input.trainingId)),
});
