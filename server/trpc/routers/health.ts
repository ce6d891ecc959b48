import { z } from "zod";
import {
  addLactate,
  addLactateForAthlete,
  addWeight,
  addWeightForAthlete,
  deleteLactate,
  deleteWeight,
  ZLactateInput,
  ZWeightInput,
} from "../../health/health";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

const ZId = z.object({ id: z.number().int().positive() });
const athleteId = z.number().int().positive().max(INT4_MAX);

export const healthRouter = router({
  addWeight: protectedProcedure.input(ZWeightInput).mutation(({ ctx, input }) => addWeight(ctx.db, ctx.user.id, input)),
  deleteWeight: protectedProcedure.input(ZId).mutation(({ ctx, input }) => deleteWeight(ctx.db, ctx.user.id, input.id)),
  addLactate: protectedProcedure.input(ZLactateInput).mutation(({ ctx, input }) => addLactate(ctx.db, ctx.user.id, input)),
  /** A coach's entries for an athlete they manage: stored on the athlete's account (docs/web-app.md). */
  addWeightForAthlete: protectedProcedure
    .input(ZWeightInput.extend({ athleteId }))
    .mutation(({ ctx, input: { athleteId, ...values } }) => addWeightForAthlete(ctx.db, ctx.user.id, athleteId, values)),
  addLactateForAthlete: protectedProcedure
    .input(ZLactateInput.extend({ athleteId }))
    .mutation(({ ctx, input: { athleteId, ...values } }) => addLactateForAthlete(ctx.db, ctx.user.id, athleteId, values)),
  deleteLactate: protectedProcedure.input(ZId).mutation(({ ctx, input }) => deleteLactate(ctx.db, ctx.user.id, input.id)),
});
