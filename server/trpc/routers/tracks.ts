import { z } from "zod";
import { deleteTrack } from "../../tracks/delete-track";
import { createTrack, updateTrack, ZTrackInput } from "../../tracks/tracks";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

export const tracksRouter = router({
  create: protectedProcedure.input(ZTrackInput).mutation(({ ctx, input }) => createTrack(ctx.db, ctx.user.id, input)),
  update: protectedProcedure
    .input(z.object({ id: z.number().int().positive(), values: ZTrackInput }))
    .mutation(({ ctx, input }) => updateTrack(ctx.db, ctx.user.id, input.id, input.values)),
  /** Refused while a session uses the track. */
  delete: protectedProcedure
    .input(z.object({ id: z.number().int().positive().max(INT4_MAX) }))
    .mutation(({ ctx, input }) => deleteTrack(ctx.db, ctx.user.id, input.id)),
});
