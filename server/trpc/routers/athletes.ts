import { z } from "zod";
import { createAthlete, updateAthlete, ZAthleteInput } from "../../athletes/athletes";
import { protectedProcedure, router } from "../init";

export const athletesRouter = router({
  create: protectedProcedure.input(ZAthleteInput).mutation(({ ctx, input }) => createAthlete(ctx.db, ctx.user.id, input)),
  update: protectedProcedure
    .input(z.object({ id: z.number().int().positive(), values: ZAthleteInput }))
    .mutation(({ ctx, input }) => updateAthlete(ctx.db, ctx.user.id, input.id, input.values)),
});
