import { changePassword, createUser, signOutEverywhere, ZChangePassword, ZSignUp } from "../../users/users";
import { z } from "zod";
import { setHeartRateShare } from "../../health/heart-rate-share";
import { protectedProcedure, publicProcedure, router } from "../init";

export const accountRouter = router({
  signUp: publicProcedure.input(ZSignUp).mutation(async ({ ctx, input }) => {
    const user = await createUser(ctx.db, input);
    return { id: user.id, email: user.email };
  }),
  changePassword: protectedProcedure.input(ZChangePassword).mutation(({ ctx, input }) => changePassword(ctx.db, ctx.user.id, input)),
  signOutEverywhere: protectedProcedure.mutation(({ ctx }) => signOutEverywhere(ctx.db, ctx.user.id)),
  /** Heart-rate sharing with the coaches of one's athlete record (docs/access.md "Heart-rate sharing"). */
  setHeartRateShare: protectedProcedure
    .input(z.object({ shared: z.boolean() }))
    .mutation(({ ctx, input }) => setHeartRateShare(ctx.db, ctx.user.id, input.shared)),
});
