import { z } from "zod";
import { createTrack, updateTrack, ZTrackInput } from "../../tracks/tracks";
import { protectedProcedure, router } from "../init";

export const tracksRouter = router({
  create: protectedProcedure.input(ZTrackInput).mutation(({ ctx, input }) => createTrack(ctx.db, ctx.user.id, input)),
  update: protectedProcedure
    .input(z.object({ id: z.number().int().positive(), values: ZTrackInput }))
    .mutation(({ ctx, input }) => updateTrack(ctx.db, ctx.user.id, input.id, input.values)),
});
