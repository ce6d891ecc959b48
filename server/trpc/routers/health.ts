import { z } from "zod";
import { addLactate, addWeight, deleteLactate, deleteWeight, ZLactateInput, ZWeightInput } from "../../health/health";
import { protectedProcedure, router } from "../init";

const ZId = z.object({ id: z.number().int().positive() });

export const healthRouter = router({
  addWeight: protectedProcedure.input(ZWeightInput).mutation(({ ctx, input }) => addWeight(ctx.db, ctx.user.id, input)),
  deleteWeight: protectedProcedure.input(ZId).mutation(({ ctx, input }) => deleteWeight(ctx.db, ctx.user.id, input.id)),
  addLactate: protectedProcedure.input(ZLactateInput).mutation(({ ctx, input }) => addLactate(ctx.db, ctx.user.id, input)),
  deleteLactate: protectedProcedure.input(ZId).mutation(({ ctx, input }) => deleteLactate(ctx.db, ctx.user.id, input.id)),
});
