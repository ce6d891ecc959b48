import { z } from "zod";
import { consumeDeviceFetch, getDeviceJobFor, requestDeviceFetch } from "../../../devices/device-jobs";
import { getOwnDevice, listDeviceFilesPage, listOwnDeviceStatuses } from "../../../devices/devices";
import { defineOperation, pathId, type DataApiContext } from "../define-operation";
import { serializeDeviceJob, ZDeviceJob } from "../../../devices/device-jobs-wire";
import { keysetPage } from "../pagination";
import { serializeDevice, serializeDeviceFile, ZDevice, ZDeviceFile } from "../../../devices/devices-wire";

/** Devices (data-api.md "Devices"): data surface only, the subject's own units, never a serial number. */
const DATA_ONLY = ["data"] as const;
const deviceParams = { device_id: pathId("device_id").describe("device identifier") };

export const listDevices = defineOperation({
  method: "get",
  path: "/devices",
  operationId: "list_devices",
  summary: "The subject's sensor units with their sanitized status, in id order",
  tag: "Devices",
  scopes: ["devices:read"],
  surfaces: DATA_ONLY,
  paged: true,
  response: ZDevice,
  handler: async (ctx, { query }) => {
    const page = await keysetPage(
      ctx,
      query,
      (after, take) => listOwnDeviceStatuses(ctx.db, ctx.subjectId, { afterId: after ? Number(after[0]) : null, take }),
      (d) => [d.id],
    );
    return { data: page.rows.map(serializeDevice), meta: page.meta };
  },
});

export const getDevice = defineOperation({
  method: "get",
  path: "/devices/{device_id}",
  operationId: "get_device",
  summary: "One of the subject's units: model, firmware, when it was seen, its files and latest session",
  tag: "Devices",
  scopes: ["devices:read"],
  surfaces: DATA_ONLY,
  pathParams: deviceParams,
  response: ZDevice,
  handler: async (ctx, { params }) => ({ data: serializeDevice(await getOwnDevice(ctx.db, ctx.subjectId, params.device_id)) }),
});

export const listDeviceFiles = defineOperation({
  method: "get",
  path: "/devices/{device_id}/files",
  operationId: "list_device_files",
  summary: "Manifest of the original encrypted files kept from one of the subject's units, newest upload first",
  tag: "Devices",
  scopes: ["devices:files"],
  surfaces: DATA_ONLY,
  pathParams: deviceParams,
  paged: true,
  response: ZDeviceFile,
  handler: async (ctx, { params, query }) => {
    const page = await keysetPage(
      ctx,
      query,
      (after, take) =>
        listDeviceFilesPage(ctx.db, ctx.subjectId, params.device_id, { after: after ? [String(after[0]), Number(after[1])] : null, take }),
      (f) => [f.uploadedAtText, f.resultId],
    );
    return { data: page.rows.map(serializeDeviceFile), meta: page.meta };
  },
});

const ZFilename = z
  .string()
  .min(1)
  .max(255, "filename: at most 255 characters")
  .regex(/^[^\x00-\x1f\x7f/\\]+$/, "filename: a file name from the manifest")
  .describe("the file's name as the manifest lists it (the newest upload of that name)");
const ZJobId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "job_id: not a job id")
  .describe("device job id from the fetch response");
const requesterOf = (ctx: DataApiContext) => ({ subjectUserId: ctx.subjectId, applicationId: ctx.applicationId });
const POLL_AFTER = { "Retry-After": "2" };

export const fetchDeviceFile = defineOperation({
  method: "post",
  path: "/devices/{device_id}/files/{filename}/fetch",
  operationId: "fetch_device_file",
  summary: "Queue a copy of one original encrypted .svc file for a single download",
  description: "The job copies the stored bytes exactly (never decoded or decrypted); poll the Location, then POST the download link once.",
  tag: "Devices",
  scopes: ["devices:files"],
  surfaces: DATA_ONLY,
  pathParams: { ...deviceParams, filename: ZFilename },
  response: ZDeviceJob,
  successStatus: 202,
  successHeaders: ["Location", "Retry-After"],
  handler: async (ctx, { params }) => {
    const job = await requestDeviceFetch(ctx.db, { requester: requesterOf(ctx), deviceId: params.device_id, filename: params.filename });
    const data = serializeDeviceJob(job);
    return { status: 202, data, headers: { Location: data.links.self, ...POLL_AFTER } };
  },
});

export const getDeviceJob = defineOperation({
  method: "get",
  path: "/devices/jobs/{job_id}",
  operationId: "get_device_job",
  summary: "Status of a device fetch or delete job",
  tag: "Devices",
  scopes: ["devices:files"],
  surfaces: DATA_ONLY,
  pathParams: { job_id: ZJobId },
  response: ZDeviceJob,
  successHeaders: ["Retry-After"],
  handler: async (ctx, { params }) => {
    const job = await getDeviceJobFor(ctx.db, requesterOf(ctx), params.job_id, ctx.now);
    return { data: serializeDeviceJob(job), headers: job.state === "queued" || job.state === "running" ? POLL_AFTER : {} };
  },
});

export const downloadDeviceFile = defineOperation({
  method: "post",
  path: "/devices/jobs/{job_id}/download",
  operationId: "download_device_file",
  summary: "The original encrypted file, exactly once",
  description: "The first successful call returns the file and consumes it; every later call (and any before the copy is ready) is a 404.",
  tag: "Devices",
  scopes: ["devices:files"],
  surfaces: DATA_ONLY,
  pathParams: { job_id: ZJobId },
  response: null,
  fileContentTypes: ["application/octet-stream"],
  handler: async (ctx, { params }) => {
    const file = await consumeDeviceFetch(ctx.db, requesterOf(ctx), params.job_id);
    return deviceFileResponse(file);
  },
});

/** The original file's response (also the web app's one-time download). */
export function deviceFileResponse(file: { stream: ReadableStream<Uint8Array>; byteSize: number; filename: string }): Response {
  const ascii = file.filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return new Response(file.stream, {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Length": String(file.byteSize),
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
      "Cache-Control": "private, no-store",
    },
  });
}

export const devicesOperations = [listDevices, getDevice, listDeviceFiles, fetchDeviceFile, getDeviceJob, downloadDeviceFile];
