import { z } from "zod";
import { acceptInvitation, createOwnAthleteProfile, inviteAthlete, unlinkAthlete, withdrawInvitations } from "../../athletes/athlete-links";
import { ZAthleteInput } from "../../athletes/athletes";
import { getEnv } from "../../config/env";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

const athleteId = z.number().int().positive().max(INT4_MAX);

/** Linking athlete records to accounts (docs/access.md "Linking an athlete record to an account"). */
export const athleteLinksRouter = router({
  /** The manager invites; the answer holds the link, shown once. */
  invite: protectedProcedure.input(z.object({ athleteId, email: z.string().max(254) })).mutation(async ({ ctx, input }) => {
    const invitation = await inviteAthlete(ctx.db, ctx.user.id, input);
    return { email: invitation.email, expiresAt: invitation.expiresAt.toISOString(), link: `${getEnv().appUrl}${invitation.path}` };
  }),
  withdraw: protectedProcedure
    .input(z.object({ athleteId }))
    .mutation(({ ctx, input }) => withdrawInvitations(ctx.db, ctx.user.id, input.athleteId)),
  accept: protectedProcedure
    .input(z.object({ token: z.string().max(100) }))
    .mutation(({ ctx, input }) => acceptInvitation(ctx.db, ctx.user.id, input.token)),
  /** Either side: the record's manager or the linked person. */
  unlink: protectedProcedure
    .input(z.object({ athleteId }))
    .mutation(({ ctx, input }) => unlinkAthlete(ctx.db, ctx.user.id, input.athleteId)),
  createOwnProfile: protectedProcedure
    .input(ZAthleteInput)
    .mutation(({ ctx, input }) => createOwnAthleteProfile(ctx.db, ctx.user.id, input)),
});
