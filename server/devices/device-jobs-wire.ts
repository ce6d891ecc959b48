import { z } from "zod";
import { getEnv } from "../config/env";
import type { DeviceJob } from "./device-jobs";

/** A device file job's status document (docs/exports.md "Device files"): every field that leaves is named here. */
export const ZDeviceJob = z.object({
  job_id: z.string().describe("opaque job id; bound to the application and person that created it"),
  kind: z.enum(["fetch", "delete"]),
  status: z
    .enum(["queued", "running", "succeeded", "failed", "consumed", "expired"])
    .describe("queued → running → succeeded → consumed (downloaded once) or expired; or → failed"),
  device_id: z.number().int(),
  filename: z.string().nullable().describe("fetch: the original's file name"),
  byte_size: z.number().int().nullable().describe("fetch: size of the copy in bytes"),
  sha256: z.string().nullable().describe("fetch: hex SHA-256 of the copy, equal to the manifest's"),
  deleted_files: z.number().int().nullable().describe("delete: originals removed"),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  expires_at: z.string().nullable().describe("fetch: the copy is deleted after this instant if not downloaded"),
  error: z.string().nullable().describe("why a failed job failed; never a stack trace"),
  links: z.object({
    self: z.string(),
    download: z.string().nullable().describe("fetch, while succeeded: POST here once to receive the file"),
  }),
});

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function serializeDeviceJob(job: DeviceJob): z.output<typeof ZDeviceJob> {
  const self = `${getEnv().appUrl}/api/v1/devices/jobs/${job.publicId}`;
  const ready = job.kind === "fetch" && job.state === "succeeded";
  return {
    job_id: job.publicId,
    kind: job.kind,
    status: job.state,
    device_id: job.deviceId,
    filename: job.filename,
    byte_size: job.byteSize,
    sha256: job.sha256,
    deleted_files: job.deletedFiles,
    created_at: job.createdAt.toISOString(),
    finished_at: iso(job.finishedAt),
    expires_at: ready ? iso(job.expiresAt) : null,
    error: job.state === "failed" ? job.error : null,
    links: { self, download: ready ? `${self}/download` : null },
  };
}
