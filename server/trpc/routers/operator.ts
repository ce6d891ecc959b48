import { reviewApplication, reviewOrigin, setIntrospectionAllowed, ZIntrospectionSetting, ZOriginDecision, ZReviewDecision } from "../../applications/application-review";
import { startReprocessRun } from "../../reprocess/reprocess-runs";
import { operatorProcedure, router } from "../init";

/** Operator review of OAuth applications and reprocessing runs (non-operators get NOT_FOUND). */
export const operatorRouter = router({
  reviewApplication: operatorProcedure.input(ZReviewDecision).mutation(({ ctx, input }) => reviewApplication(ctx.db, ctx.user.id, input)),
  reviewOrigin: operatorProcedure.input(ZOriginDecision).mutation(({ ctx, input }) => reviewOrigin(ctx.db, input)),
  startReprocess: operatorProcedure.mutation(({ ctx }) => startReprocessRun(ctx.db, { requestedByUserId: ctx.user.id, via: "web" })),
  setIntrospection: operatorProcedure.input(ZIntrospectionSetting).mutation(({ ctx, input }) => setIntrospectionAllowed(ctx.db, input)),
});
