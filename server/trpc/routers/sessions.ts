import { z } from "zod";
import { getEnv } from "../../config/env";
import { correctResult, ZCorrection } from "../../results/correct-result";
import { deleteResult } from "../../results/delete-result";
import { setSessionEquipment, ZSessionEquipment } from "../../results/session-equipment";
import QRCode from "qrcode";
import { createShareLink, revokeShareLink, sessionPublicLink, shareUrl } from "../../shares/share-links";
import { protectedProcedure, router } from "../init";

const ZId = z.number().int().positive();

export const sessionsRouter = router({
  /** The link is returned once (only its hash is stored), with its QR code so it can be shown to a phone at once. */
  createShareLink: protectedProcedure.input(z.object({ resultId: ZId })).mutation(async ({ ctx, input }) => {
    const { id, token } = await createShareLink(ctx.db, ctx.user.id, input.resultId, "web");
    const url = shareUrl(getEnv().appUrl, token);
    return { id, url, qrSvg: await QRCode.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" }) };
  }),
  /** The session's public link (the one in its PDF reports), reused until revoked, with its QR code. */
  publicLink: protectedProcedure.input(z.object({ resultId: ZId })).mutation(async ({ ctx, input }) => {
    const { id, token } = await sessionPublicLink(ctx.db, ctx.user.id, input.resultId);
    const url = shareUrl(getEnv().appUrl, token);
    return { id, url, qrSvg: await QRCode.toString(url, { type: "svg", margin: 1, errorCorrectionLevel: "M" }) };
  }),
  revokeShareLink: protectedProcedure
    .input(z.object({ shareId: ZId }))
    .mutation(({ ctx, input }) => revokeShareLink(ctx.db, ctx.user.id, input.shareId)),
  /** The owner's boat and paddle used in the session; null clears either. */
  setEquipment: protectedProcedure
    .input(ZSessionEquipment.extend({ resultId: ZId }))
    .mutation(({ ctx, input: { resultId, ...equipment } }) => setSessionEquipment(ctx.db, ctx.user.id, resultId, equipment)),
  /** The owner's corrections; a boat class change reprocesses the stored original file. */
  correct: protectedProcedure
    .input(ZCorrection.extend({ resultId: ZId }))
    .mutation(({ ctx, input: { resultId, ...correction } }) => correctResult(ctx.db, ctx.user, resultId, correction)),
  delete: protectedProcedure
    .input(z.object({ resultId: ZId }))
    .mutation(({ ctx, input }) => deleteResult(ctx.db, ctx.user, input.resultId)),
});
