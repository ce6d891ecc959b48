import { z } from "zod";
import { createOwnPaddle, createOwnVessel, deleteOwnPaddle, deleteOwnVessel, ZPaddleInput, ZVesselInput } from "../../equipment/equipment";
import { protectedProcedure, router } from "../init";

const ZId = z.object({ id: z.number().int().positive() });

export const equipmentRouter = router({
  createVessel: protectedProcedure.input(ZVesselInput).mutation(({ ctx, input }) => createOwnVessel(ctx.db, ctx.user.id, input)),
  deleteVessel: protectedProcedure.input(ZId).mutation(({ ctx, input }) => deleteOwnVessel(ctx.db, ctx.user.id, input.id)),
  createPaddle: protectedProcedure.input(ZPaddleInput).mutation(({ ctx, input }) => createOwnPaddle(ctx.db, ctx.user.id, input)),
  deletePaddle: protectedProcedure.input(ZId).mutation(({ ctx, input }) => deleteOwnPaddle(ctx.db, ctx.user.id, input.id)),
});
