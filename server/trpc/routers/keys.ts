import { z } from "zod";
import { bindKeyPairToApplication, createKeyPair, deleteKeyPair, revokeKeyPair, ZKeyPairBinding, ZKeyPairName } from "../../keys/key-pairs";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

export const keysRouter = router({
  /** The secret is in this response only; it is never retrievable again. */
  create: protectedProcedure.input(ZKeyPairName).mutation(async ({ ctx, input }) => {
    const { keyPair, secretKey } = await createKeyPair(ctx.db, ctx.user.id, input);
    return { id: keyPair.id, name: keyPair.name, publicKey: keyPair.publicKey, secretKey };
  }),
  revoke: protectedProcedure
    .input(z.object({ id: z.number().int().positive() }))
    .mutation(({ ctx, input }) => revokeKeyPair(ctx.db, ctx.user.id, input.id)),
  /** Sessions it uploaded keep their data. */
  delete: protectedProcedure
    .input(z.object({ id: z.number().int().positive().max(INT4_MAX) }))
    .mutation(({ ctx, input }) => deleteKeyPair(ctx.db, ctx.user.id, input.id)),
  /** Which of the owner's applications the key's uploads count as created by (null: none). */
  bindApplication: protectedProcedure.input(ZKeyPairBinding).mutation(async ({ ctx, input }) => {
    const keyPair = await bindKeyPairToApplication(ctx.db, ctx.user.id, input.id, input.applicationId);
    return { id: keyPair.id, applicationId: keyPair.applicationId };
  }),
});
