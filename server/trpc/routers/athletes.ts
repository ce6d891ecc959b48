import { z } from "zod";
import { deleteAthlete } from "../../athletes/delete-athlete";
import { createAthlete, updateAthlete, ZAthleteInput } from "../../athletes/athletes";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

export const athletesRouter = router({
  create: protectedProcedure.input(ZAthleteInput).mutation(({ ctx, input }) => createAthlete(ctx.db, ctx.user.id, input)),
  update: protectedProcedure
    .input(z.object({ id: z.number().int().positive(), values: ZAthleteInput }))
    .mutation(({ ctx, input }) => updateAthlete(ctx.db, ctx.user.id, input.id, input.values)),
  /** Seats in sessions become external paddlers with the athlete's name (docs/web-app.md "Deleting"). */
  delete: protectedProcedure
    .input(z.object({ id: z.number().int().positive().max(INT4_MAX) }))
    .mutation(({ ctx, input }) => deleteAthlete(ctx.db, ctx.user.id, input.id)),
});
