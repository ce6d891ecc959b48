import { z } from "zod";
import { getExportJobFor } from "../../exports/export-jobs";
import { requestSessionExport } from "../../exports/request-session-export";
import { protectedProcedure, router } from "../init";
import { SPLIT_COUNT } from "../../svc/process/track";

/**
 * The web app's export menu: the same jobs, builders and files as the Data
 * API's exports, requested by the signed-in user (application: the web app).
 */
const ZWebExportRequest = z.object({
  sessionId: z.number().int().positive(),
  format: z.enum(["json", "pdf", "pdf-full", "xlsx", "fit", "tcx"]),
  athlete: z.number().int().min(1).max(4).default(1),
  splits: z.number().int().min(SPLIT_COUNT.min).max(SPLIT_COUNT.max).default(SPLIT_COUNT.default),
  lang: z.enum(["en", "es"]).default("en"),
});

/** What the menu shows: state, and where to download once ready. */
const status = (job: { publicId: string; state: string; error: string | null }) => ({
  jobId: job.publicId,
  state: job.state,
  error: job.state === "failed" ? job.error : null,
  downloadUrl: job.state === "succeeded" ? `/exports/${job.publicId}/download` : null,
});

export const exportsRouter = router({
  create: protectedProcedure.input(ZWebExportRequest).mutation(async ({ ctx, input }) => {
    const { sessionId, ...request } = input;
    const { job } = await requestSessionExport(ctx.db, {
      // The web app reads what the person may read anywhere: the data surface's boundary.
      audience: { subjectId: ctx.user.id, surface: "data", applicationId: 0 },
      applicationId: null,
      sessionId,
      request,
      mode: "full",
      healthAllowed: true,
      idempotency: null,
    });
    return status(job);
  }),
  status: protectedProcedure
    .input(z.object({ jobId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) }))
    .query(async ({ ctx, input }) =>
      status(await getExportJobFor(ctx.db, { subjectUserId: ctx.user.id, applicationId: null }, input.jobId)),
    ),
});
