import createClient, { type Client } from "openapi-fetch";
import { apiBaseUrl, type Fetch } from "./base-url.js";
import { retryAfterSeconds, unwrap } from "./errors.js";
import type { operations, paths } from "./generated/results-api.js";

/** The results API's typed client: `GET`, `POST`, `DELETE` on its paths (openapi-fetch). */
export type ResultsApiClient = Client<paths>;

export interface ResultsApiOptions {
  /** The site's address, e.g. `https://results.example` (`/api/v1` is added). */
  baseUrl: string;
  /** `svcpk_…`, from the developer portal's key pairs. */
  publicKey: string;
  /**
   * `svcsk_…`, shown once when the pair was made. Omit it to call only the
   * operations that take the public key alone (vessels, categories, paces).
   */
  secretKey?: string;
  /** Headers sent on every request (e.g. `User-Agent`). */
  headers?: Record<string, string>;
  /** A fetch of your own (tests, proxies); defaults to the global fetch. */
  fetch?: Fetch;
}

/**
 * A client for the key-pair results API. Every request carries
 * `Authorization: Bearer PUBLIC.SECRET` (or `Bearer PUBLIC` without a secret).
 * Calls resolve to `{data, error, response}`; `unwrap()` turns them into the
 * body or a thrown `PaddleApiError`.
 */
export function createResultsApiClient(options: ResultsApiOptions): ResultsApiClient {
  const authorization = `Bearer ${options.secretKey ? `${options.publicKey}.${options.secretKey}` : options.publicKey}`;
  return createClient<paths>({
    baseUrl: apiBaseUrl(options.baseUrl),
    headers: { ...options.headers, Authorization: authorization },
    fetch: options.fetch,
  });
}

/** The `metadata` part of an upload, as the document declares it. */
export type UploadMetadata = operations["upload_result"]["requestBody"]["content"]["multipart/form-data"]["metadata"];
/** The upload's 201 body (`{data: …}`). */
export type UploadResponse = operations["upload_result"]["responses"][201]["content"]["application/json"];

/** How `uploadResult` retries its own transient failures (all optional). */
export interface UploadRetryOptions {
  /** Retries after the first attempt (default 3; 0 sends once). */
  maxRetries?: number;
  /** The first backoff (default 500 ms); each retry doubles it, with jitter. */
  baseDelayMs?: number;
  /** No single wait is longer than this unless the server's Retry-After asks for more (default 8 s). */
  maxDelayMs?: number;
  /** All waits together stay within this; a retry that would pass it is not made (default 30 s). */
  maxTotalWaitMs?: number;
  /** For tests: the wait and the random source. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** A key for one upload: 128 random bits as hex (getRandomValues also works where randomUUID needs a secure context). */
export function newIdempotencyKey(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * `POST /results`: uploads one `.svc` file with its metadata (multipart, built
 * here) and returns the stored result's summary.
 *
 * Every upload carries an `Idempotency-Key` (yours, or one made here): the
 * same key, file and metadata within 24 hours answer the first upload again,
 * so a retry after a lost answer never stores the file twice. The upload
 * retries its own transient failures with that same key: a network error
 * (connection reset or refused, a dropped answer), and a 503 or 429 that
 * carries `Retry-After` (the work was not done; the wait is at least what the
 * server asks). Backoff is exponential with jitter, at most `maxRetries`
 * retries and `maxTotalWaitMs` of waiting; then the last error is thrown.
 * Anything else (4xx, a 5xx without Retry-After) is thrown at once.
 */
export async function uploadResult(
  client: ResultsApiClient,
  upload: {
    file: Blob | ArrayBuffer | Uint8Array;
    filename?: string;
    metadata: UploadMetadata;
    idempotencyKey?: string;
    retry?: UploadRetryOptions | false;
  },
): Promise<UploadResponse> {
  const filename = upload.filename ?? "session.svc";
  const file = upload.file instanceof Blob ? upload.file : new Blob([upload.file as BlobPart], { type: "application/octet-stream" });
  const form = new FormData();
  form.append("file", file, filename);
  form.append("metadata", JSON.stringify(upload.metadata));
  const key = upload.idempotencyKey ?? newIdempotencyKey();
  const retry = upload.retry === false ? { maxRetries: 0 } : (upload.retry ?? {});
  const maxRetries = retry.maxRetries ?? 3;
  const base = retry.baseDelayMs ?? 500;
  const maxDelay = retry.maxDelayMs ?? 8_000;
  const maxTotal = retry.maxTotalWaitMs ?? 30_000;
  const sleep = retry.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = retry.random ?? Math.random;
  const send = () =>
    client.POST("/results", {
      // The document types the file part as a binary string; the form built above is what is sent.
      body: { file: filename, metadata: upload.metadata },
      bodySerializer: () => form,
      params: { header: { "Idempotency-Key": key } },
    });
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    let outcome: Awaited<ReturnType<typeof send>> | null = null;
    let failure: unknown = null;
    try {
      outcome = await send();
    } catch (error) {
      // A network error (fetch rejects with a TypeError); an abort or anything else is the caller's.
      if (!(error instanceof TypeError)) throw error;
      failure = error;
    }
    const retryAfter = outcome ? retryAfterSeconds(outcome.response) : null;
    const transient = failure !== null || ((outcome!.response.status === 503 || outcome!.response.status === 429) && retryAfter !== null);
    const backoff = Math.min(maxDelay, base * 2 ** attempt) * (0.5 + random() / 2);
    const delay = Math.max(backoff, (retryAfter ?? 0) * 1000);
    if (!transient || attempt >= maxRetries || waited + delay > maxTotal) {
      if (failure !== null) throw failure;
      return unwrap(outcome!);
    }
    await sleep(delay);
    waited += delay;
  }
}
