import { z } from "zod";
import { deleteTeam } from "../../teams/delete-team";
import { addAthlete, addCoach, createTeam, removeMember, renameTeam, ZAddAthlete, ZAddCoach, ZTeamInput } from "../../teams/teams";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

const ZId = z.number().int().positive().max(INT4_MAX);

export const teamsRouter = router({
  create: protectedProcedure.input(ZTeamInput).mutation(({ ctx, input }) => createTeam(ctx.db, ctx.user.id, input)),
  rename: protectedProcedure
    .input(z.object({ id: ZId, values: ZTeamInput }))
    .mutation(({ ctx, input }) => renameTeam(ctx.db, ctx.user.id, input.id, input.values)),
  addCoach: protectedProcedure.input(ZAddCoach).mutation(({ ctx, input }) => addCoach(ctx.db, ctx.user.id, input)),
  addAthlete: protectedProcedure.input(ZAddAthlete).mutation(({ ctx, input }) => addAthlete(ctx.db, ctx.user.id, input)),
  delete: protectedProcedure.input(z.object({ id: ZId })).mutation(({ ctx, input }) => deleteTeam(ctx.db, ctx.user.id, input.id)),
  /** Refused for the team's last coach. */
  removeMember: protectedProcedure
    .input(z.object({ teamId: ZId, membershipId: ZId }))
    .mutation(({ ctx, input }) => removeMember(ctx.db, ctx.user.id, input.teamId, input.membershipId)),
});
