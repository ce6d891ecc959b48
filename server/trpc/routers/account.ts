import { changePassword, createUser, signOutEverywhere, ZChangePassword, ZSignUp } from "../../users/users";
import { protectedProcedure, publicProcedure, router } from "../init";

export const accountRouter = router({
  signUp: publicProcedure.input(ZSignUp).mutation(async ({ ctx, input }) => {
    const user = await createUser(ctx.db, input);
    return { id: user.id, email: user.email };
  }),
  changePassword: protectedProcedure.input(ZChangePassword).mutation(({ ctx, input }) => changePassword(ctx.db, ctx.user.id, input)),
  signOutEverywhere: protectedProcedure.mutation(({ ctx }) => signOutEverywhere(ctx.db, ctx.user.id)),
});
