import { z } from "zod";
import { createListenToken, listListenTokens, revokeListenToken, ZListenTokenName } from "../../webhooks/listen-tokens";
import { protectedProcedure, router } from "../init";
import { INT4_MAX } from "../../contract/values";

const ZApp = z.object({ applicationId: z.number().int().positive().max(INT4_MAX) });

/** Listen tokens of the owner's applications (docs/webhooks.md "Local development"); the token is in `create`'s answer only. */
export const listenTokensRouter = router({
  list: protectedProcedure.input(ZApp).query(async ({ ctx, input }) =>
    (await listListenTokens(ctx.db, ctx.user.id, input.applicationId)).map((t) => ({
      id: t.id,
      name: t.name,
      tokenStart: t.tokenStart,
      createdAt: t.createdAt.toISOString(),
      lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
      revokedAt: t.revokedAt?.toISOString() ?? null,
    })),
  ),
  create: protectedProcedure.input(ZApp.extend(ZListenTokenName.shape)).mutation(async ({ ctx, input }) => {
    const { listenToken, token } = await createListenToken(ctx.db, ctx.user.id, input.applicationId, { name: input.name });
    return { id: listenToken.id, token };
  }),
  revoke: protectedProcedure
    .input(ZApp.extend({ tokenId: z.string().min(1).max(64) }))
    .mutation(({ ctx, input }) => revokeListenToken(ctx.db, ctx.user.id, input.applicationId, input.tokenId)),
});
