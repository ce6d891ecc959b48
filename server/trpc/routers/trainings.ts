import { z } from "zod";
import { correctTrainingSets, markTrainingReviewed, undoSetCorrection } from "../../trainings/set-corrections";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

const ZTrainingId = z.number().int().positive().max(INT4_MAX);

/** Set corrections on the training page (the operation is checked by the domain, in its own words) (docs/trainings.md "Corrected sets"): the owner's and the paddler's. */
export const trainingsRouter = router({
  correctSets: protectedProcedure.input(z.object({ trainingId: ZTrainingId, operation: z.unknown() })).mutation(async ({ ctx, input }) => {
    const outcome = await correctTrainingSets(ctx.db, ctx.user.id, input.trainingId, input.operation);
    return { correctionId: outcome.correctionId, workSetCount: outcome.workSetCount };
  }),
  undoCorrection: protectedProcedure.input(z.object({ trainingId: ZTrainingId })).mutation(async ({ ctx, input }) => {
    const outcome = await undoSetCorrection(ctx.db, ctx.user.id, input.trainingId);
    return { correctionId: outcome.correctionId, workSetCount: outcome.workSetCount };
  }),
  markReviewed: protectedProcedure
    .input(z.object({ trainingId: ZTrainingId }))
    .mutation(({ ctx, input }) => markTrainingReviewed(ctx.db, ctx.user.id, input.trainingId)),
});
