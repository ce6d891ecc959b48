import { reviewApplication, reviewOrigin, setIntrospectionAllowed, ZIntrospectionSetting, ZOriginDecision, ZReviewDecision } from "../../applications/application-review";
import { operatorProcedure, router } from "../init";

/** Operator review of OAuth applications (non-operators get NOT_FOUND). */
export const operatorRouter = router({
  reviewApplication: operatorProcedure.input(ZReviewDecision).mutation(({ ctx, input }) => reviewApplication(ctx.db, ctx.user.id, input)),
  reviewOrigin: operatorProcedure.input(ZOriginDecision).mutation(({ ctx, input }) => reviewOrigin(ctx.db, input)),
  setIntrospection: operatorProcedure.input(ZIntrospectionSetting).mutation(({ ctx, input }) => setIntrospectionAllowed(ctx.db, input)),
});
