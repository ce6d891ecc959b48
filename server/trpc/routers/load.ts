import { z } from "zod";
import { INT4_MAX } from "../../contract/values";
import { resetAthleteZones, setAthleteZones, ZZoneBounds } from "../../load/zone-settings";
import { protectedProcedure, router } from "../init";

/** Training load (docs/load.md "Pages"): the zone editor of an athlete record the person manages. */
export const loadRouter = router({
  setZones: protectedProcedure.input(ZZoneBounds).mutation(({ ctx, input }) => setAthleteZones(ctx.db, ctx.user.id, input)),
  resetZones: protectedProcedure
    .input(z.object({ athleteId: z.number().int().positive().max(INT4_MAX) }))
    .mutation(({ ctx, input }) => resetAthleteZones(ctx.db, ctx.user.id, input.athleteId)),
});
