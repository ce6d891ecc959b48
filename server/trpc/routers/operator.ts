import {
  reviewApplication,
  reviewOrigin,
  setIntrospectionAllowed,
  ZIntrospectionSetting,
  ZOriginDecision,
  ZReviewDecision,
} from "../../applications/application-review";
import { startReprocessRun, stopReprocessRun, ZStopReprocessRun } from "../../reprocess/reprocess-runs";
import { changeRole, disableAccount, enableAccount, unlockAccount, ZAccountTarget, ZRoleChange } from "../../operator/account-actions";
import { operatorProcedure, router } from "../init";

/** Operator review of OAuth applications and reprocessing runs (non-operators get NOT_FOUND). */
export const operatorRouter = router({
  reviewApplication: operatorProcedure.input(ZReviewDecision).mutation(({ ctx, input }) => reviewApplication(ctx.db, ctx.user.id, input)),
  reviewOrigin: operatorProcedure.input(ZOriginDecision).mutation(({ ctx, input }) => reviewOrigin(ctx.db, input)),
  startReprocess: operatorProcedure.mutation(({ ctx }) => startReprocessRun(ctx.db, { requestedByUserId: ctx.user.id, via: "web" })),
  /** Ends a queued or running run (a stalled one, typically); writes an operator_actions row. A run already over is a conflict. */
  stopReprocess: operatorProcedure
    .input(ZStopReprocessRun)
    .mutation(({ ctx, input }) => stopReprocessRun(ctx.db, { userId: ctx.user.id, via: "web" }, input)),
  /** Accounts: each writes an operator_actions row; a decision already made is a conflict. */
  unlockAccount: operatorProcedure.input(ZAccountTarget).mutation(({ ctx, input }) => unlockAccount(ctx.db, ctx.user.id, input)),
  changeRole: operatorProcedure.input(ZRoleChange).mutation(({ ctx, input }) => changeRole(ctx.db, ctx.user.id, input)),
  disableAccount: operatorProcedure.input(ZAccountTarget).mutation(({ ctx, input }) => disableAccount(ctx.db, ctx.user.id, input)),
  enableAccount: operatorProcedure.input(ZAccountTarget).mutation(({ ctx, input }) => enableAccount(ctx.db, ctx.user.id, input)),
  setIntrospection: operatorProcedure.input(ZIntrospectionSetting).mutation(({ ctx, input }) => setIntrospectionAllowed(ctx.db, input)),
});
