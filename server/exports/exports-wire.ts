import { z } from "zod";
import { getEnv } from "../config/env";
import type { ExportJob } from "./export-jobs";

/** An export job's status document (docs/exports.md "States"): every field that leaves is named here. */
export const ZExportJob = z.object({
  job_id: z.string().describe("opaque job id; bound to the application and person that created it"),
  status: z.enum(["queued", "running", "succeeded", "failed", "expired"]).describe("queued → running → succeeded → expired, or → failed"),
  format: z.enum(["json", "pdf", "pdf-full", "xlsx", "fit", "tcx"]),
  session_id: z.number().int().nullable().describe("the exported session; null for a training export"),
  training_id: z.number().int().nullable().describe("the exported training; null for a session export"),
  athlete: z.number().int().describe("seat whose heart rate and subject fields are included"),
  splits: z.number().int(),
  lang: z.enum(["en", "es"]),
  progress: z
    .number()
    .int()
    .nullable()
    .describe("percent done where known: 0 queued, 100 succeeded, null while building or after a failure"),
  created_at: z.string().describe("ISO 8601"),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable().describe("when the build succeeded or failed"),
  expires_at: z.string().nullable().describe("after this instant the file is deleted and the download answers 404"),
  error: z.string().nullable().describe("why a failed job failed, for people; never a stack trace"),
  links: z.object({
    self: z.string().describe("this status document: poll it, waiting Retry-After seconds between requests"),
    download: z.string().nullable().describe("the file, while the job is succeeded"),
  }),
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function serializeExportJob(job: ExportJob): z.output<typeof ZExportJob> {
  const self = `${getEnv().appUrl}/api/v1/exports/${job.publicId}`;
  return {
    job_id: job.publicId,
    status: job.state,
    format: job.format as z.output<typeof ZExportJob>["format"],
    session_id: job.sourceKind === "session" ? job.sourceId : null,
    training_id: job.sourceKind === "training" ? job.sourceId : null,
    athlete: job.athlete,
    splits: job.splits,
    lang: job.lang as "en" | "es",
    progress: job.progress,
    created_at: job.createdAt.toISOString(),
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
    expires_at: job.state === "succeeded" ? iso(job.expiresAt) : null,
    error: job.state === "failed" ? job.error : null,
    links: { self, download: job.state === "succeeded" ? `${self}/download` : null },
  };
}
