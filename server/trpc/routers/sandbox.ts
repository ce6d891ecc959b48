import { z } from "zod";
import { runSandboxAction, ZSandboxAction } from "../../sandbox/sandbox-actions";
import { createSandbox, createTestKeyPair, deleteSandbox, resetSandbox, ZSandboxOptions } from "../../sandbox/sandbox";
import { ZKeyPairName } from "../../keys/key-pairs";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

const ZApplicationId = z.object({ applicationId: z.number().int().positive().max(INT4_MAX) });

/** An application's sandbox person (docs/sandbox.md), driven by the application's owner from its portal page. */
export const sandboxRouter = router({
  create: protectedProcedure.input(ZApplicationId.extend(ZSandboxOptions.shape)).mutation(async ({ ctx, input }) => {
    const started = performance.now();
    const { applicationId, ...options } = input;
    const sandbox = await createSandbox(ctx.db, ctx.user, applicationId, options);
    return { userId: sandbox.userId, counts: sandbox.counts, ms: Math.round(performance.now() - started) };
  }),
  reset: protectedProcedure.input(ZApplicationId).mutation(async ({ ctx, input }) => {
    const started = performance.now();
    const sandbox = await resetSandbox(ctx.db, ctx.user.id, input.applicationId);
    return { counts: sandbox.counts, ms: Math.round(performance.now() - started) };
  }),
  delete: protectedProcedure.input(ZApplicationId).mutation(({ ctx, input }) => deleteSandbox(ctx.db, ctx.user.id, input.applicationId)),
  /** A test key pair acting as the sandbox person; the secret is in this response only (docs/sandbox.md "Test keys"). */
  createTestKey: protectedProcedure.input(ZApplicationId.extend(ZKeyPairName.shape)).mutation(async ({ ctx, input }) => {
    const { keyPair, secretKey } = await createTestKeyPair(ctx.db, ctx.user.id, input.applicationId, { name: input.name });
    return { id: keyPair.id, name: keyPair.name, publicKey: keyPair.publicKey, secretKey };
  }),
  action: protectedProcedure
    .input(ZApplicationId.extend({ action: ZSandboxAction }))
    .mutation(({ ctx, input }) => runSandboxAction(ctx.db, ctx.user.id, input.applicationId, input.action)),
});
