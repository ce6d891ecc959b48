import type { DataApiClient } from "./data-api.js";
import { errorFromResponse, retryAfterSeconds, unwrap, type CallResult } from "./errors.js";
import type { DeviceJob, Export } from "./generated/models.js";

/** An export job's status document (`GET /exports/{job_id}`): the model `Export`, under the name this module has always used. */
export type ExportJob = Export;

export interface PollOptions {
  /** Give up after this long (default 10 minutes): a `JobTimeoutError`. */
  timeoutMs?: number;
  /** The first wait when the server names none (default 2 s); never shorter than `Retry-After`. */
  initialDelayMs?: number;
  /** Growth of the wait per poll (default 1.5). */
  factor?: number;
  /** The longest wait the backoff grows to (default 30 s); a longer `Retry-After` is still honoured. */
  maxDelayMs?: number;
  signal?: AbortSignal;
  /** For tests: how to wait, and what time it is. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** The job ended in a state other than the one asked for (`failed`, `expired`, `consumed`). */
export class JobFailedError<J extends { status: string; error?: string | null }> extends Error {
  override readonly name = "JobFailedError";
  constructor(readonly job: J) {
    super(`The job ended ${job.status}${job.error ? `: ${job.error}` : ""}`);
  }
}

/** The job was not final within `timeoutMs`; `lastStatus` is the last state read. */
export class JobTimeoutError extends Error {
  override readonly name = "JobTimeoutError";
  constructor(
    readonly lastStatus: string | null,
    timeoutMs: number,
  ) {
    super(`The job was not finished after ${timeoutMs} ms (last status: ${lastStatus ?? "unknown"})`);
  }
}

const abortable = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/**
 * Polls `poll` until `isFinal` says the job is done, with the bounded backoff
 * the API asks for (docs/exports.md "Polling"): wait `Retry-After`, then grow
 * the wait ×1.5 per poll up to 30 s, and give up after `timeoutMs`. A 429 or
 * 503 on the way is waited out for its `Retry-After`; any other error throws
 * a `PaddleApiError`.
 */
export async function pollJob<J extends { status: string }>(
  poll: () => Promise<CallResult<{ data: J }>>,
  isFinal: (job: J) => boolean,
  options: PollOptions = {},
): Promise<J> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortable;
  const timeoutMs = options.timeoutMs ?? 10 * 60_000;
  const factor = options.factor ?? 1.5;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const deadline = now() + timeoutMs;
  let backoff = options.initialDelayMs ?? 2_000;
  let lastStatus: string | null = null;
  for (;;) {
    options.signal?.throwIfAborted();
    const result = await poll();
    const asked = retryAfterSeconds(result.response, now);
    let delay: number;
    if (result.response.ok) {
      const job = result.data!.data;
      lastStatus = job.status;
      if (isFinal(job)) return job;
      delay = Math.max(backoff, (asked ?? 0) * 1000);
      backoff = Math.min(backoff * factor, maxDelayMs);
    } else if ((result.response.status === 429 || result.response.status === 503) && asked !== null) {
      delay = Math.max(asked * 1000, 1);
    } else {
      throw errorFromResponse(result.response, result.error);
    }
    if (now() + delay > deadline) throw new JobTimeoutError(lastStatus, timeoutMs);
    await sleep(delay, options.signal);
  }
}

const EXPORT_FINAL = new Set(["succeeded", "failed", "expired"]);
const DEVICE_JOB_FINAL = new Set(["succeeded", "failed", "expired", "consumed"]);

/**
 * Waits for an export job (`POST /sessions/{id}/exports` or
 * `/trainings/{id}/exports` gave its `job_id`) and returns its status once
 * `succeeded`; `failed` or `expired` throw a `JobFailedError`.
 */
export async function waitForExport(client: DataApiClient, jobId: string, options?: PollOptions): Promise<ExportJob> {
  const job = await pollJob(
    () => client.GET("/exports/{job_id}", { params: { path: { job_id: jobId } } }),
    (j) => EXPORT_FINAL.has(j.status),
    options,
  );
  if (job.status !== "succeeded") throw new JobFailedError(job);
  return job;
}

/** Waits for a device file job (`POST /devices/{id}/files/{filename}/fetch`) until `succeeded`. */
export async function waitForDeviceJob(client: DataApiClient, jobId: string, options?: PollOptions): Promise<DeviceJob> {
  const job = await pollJob(
    () => client.GET("/devices/jobs/{job_id}", { params: { path: { job_id: jobId } } }),
    (j) => DEVICE_JOB_FINAL.has(j.status),
    options,
  );
  if (job.status !== "succeeded") throw new JobFailedError(job);
  return job;
}

/** A downloaded file: its bytes, content type and the name the server suggests. */
export interface DownloadedFile {
  bytes: Uint8Array;
  contentType: string | null;
  filename: string | null;
}

/** The file name of a `Content-Disposition` (RFC 6266: `filename*` first). */
function filenameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Not valid percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(disposition);
  return plain ? (plain[1] ?? plain[2]).replace(/\\(.)/g, "$1") : null;
}

async function downloaded(call: Promise<CallResult<ArrayBuffer>>): Promise<DownloadedFile> {
  const result = await call;
  const bytes = await unwrap(result);
  return {
    bytes: new Uint8Array(bytes),
    contentType: result.response.headers.get("content-type"),
    filename: filenameOf(result.response.headers.get("content-disposition")),
  };
}

/** `GET /exports/{job_id}/download`: the export's file (the same bytes as the web download). */
export function downloadExport(client: DataApiClient, jobId: string): Promise<DownloadedFile> {
  return downloaded(client.GET("/exports/{job_id}/download", { params: { path: { job_id: jobId } }, parseAs: "arrayBuffer" }));
}

/** `POST /devices/jobs/{job_id}/download`: the original encrypted file, once (every later attempt is a 404). */
export function downloadDeviceFile(client: DataApiClient, jobId: string): Promise<DownloadedFile> {
  return downloaded(client.POST("/devices/jobs/{job_id}/download", { params: { path: { job_id: jobId } }, parseAs: "arrayBuffer" }));
}
