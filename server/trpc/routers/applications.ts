import { z } from "zod";
import { ZApplicationInput, ZApplicationUpdate } from "../../applications/application-rules";
import {
  createApplication,
  deleteApplication,
  listApplications,
  rotateClientSecret,
  updateApplication,
} from "../../applications/applications";
import { listConnectedApps, revokeApplicationAccess } from "../../auth/oauth/grants";
import { protectedProcedure, router } from "../init";

const ZId = z.object({ id: z.number().int().positive() });

/** The developer portal's OAuth applications, and the user's connected apps. */
export const applicationsRouter = router({
  list: protectedProcedure.query(({ ctx }) => listApplications(ctx.db, ctx.user.id)),
  /** The secret is in this response only; it is never retrievable again. */
  create: protectedProcedure.input(ZApplicationInput).mutation(async ({ ctx, input }) => {
    const { application, clientSecret } = await createApplication(ctx.db, ctx.user.id, input);
    return { id: application.id, clientId: application.clientId, clientSecret, reviewStatus: application.reviewStatus };
  }),
  update: protectedProcedure
    .input(z.object({ id: z.number().int().positive(), values: ZApplicationUpdate }))
    .mutation(async ({ ctx, input }) => {
      const application = await updateApplication(ctx.db, ctx.user.id, input.id, input.values);
      return { id: application.id, reviewStatus: application.reviewStatus };
    }),
  rotateSecret: protectedProcedure.input(ZId).mutation(({ ctx, input }) => rotateClientSecret(ctx.db, ctx.user.id, input.id)),
  delete: protectedProcedure.input(ZId).mutation(({ ctx, input }) => deleteApplication(ctx.db, ctx.user.id, input.id)),
  connected: protectedProcedure.query(({ ctx }) => listConnectedApps(ctx.db, ctx.user.id)),
  revokeConnected: protectedProcedure
    .input(z.object({ applicationId: z.number().int().positive() }))
    .mutation(({ ctx, input }) => revokeApplicationAccess(ctx.db, ctx.user.id, input.applicationId)),
});
