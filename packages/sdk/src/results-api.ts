import createClient, { type Client } from "openapi-fetch";
import { apiBaseUrl, type Fetch } from "./base-url.js";
import { unwrap } from "./errors.js";
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

/**
 * `POST /results`: uploads one `.svc` file with its metadata (multipart, built
 * here) and returns the stored result's summary. `idempotencyKey` makes a
 * retry after a lost connection safe: the same key, file and metadata within
 * 24 hours answer the first upload again.
 */
export async function uploadResult(
  client: ResultsApiClient,
  upload: { file: Blob | ArrayBuffer | Uint8Array; filename?: string; metadata: UploadMetadata; idempotencyKey?: string },
): Promise<UploadResponse> {
  const filename = upload.filename ?? "session.svc";
  const file = upload.file instanceof Blob ? upload.file : new Blob([upload.file as BlobPart], { type: "application/octet-stream" });
  const form = new FormData();
  form.append("file", file, filename);
  form.append("metadata", JSON.stringify(upload.metadata));
  return unwrap(
    client.POST("/results", {
      // The document types the file part as a binary string; the form built above is what is sent.
      body: { file: filename, metadata: upload.metadata },
      bodySerializer: () => form,
      params: { header: upload.idempotencyKey ? { "Idempotency-Key": upload.idempotencyKey } : undefined },
    }),
  );
}
