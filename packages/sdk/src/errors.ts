/**
 * One error type for both APIs. The results API answers `{error, message,
 * request_id}`, the Data API `{error, error_description, scope?, request_id}`;
 * both repeat the request id in `X-Request-Id`. A `PaddleApiError` carries
 * what a developer needs to act or to report a problem: status, code, message,
 * request id, and `Retry-After` when the server sent one.
 */
export class PaddleApiError extends Error {
  override readonly name = "PaddleApiError";
  /** HTTP status, e.g. 404. */
  readonly status: number;
  /** The body's machine-readable `error`, e.g. `not_found`, `insufficient_scope`; `http_<status>` when the body was not one of ours. */
  readonly code: string;
  /** The request's id (body `request_id`, else the `X-Request-Id` header): quote it when reporting a problem. */
  readonly requestId: string | null;
  /** Data API `insufficient_scope`: the scopes the operation needs, space-separated. */
  readonly scope: string | null;
  /** Seconds the server asked to wait (429, 503, job polling), or null. */
  readonly retryAfterSeconds: number | null;
  /** The parsed error body, for members beyond these (e.g. `existing_result_id` of a repeated upload, `problems` of a workout import). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    requestId: string | null;
    scope?: string | null;
    retryAfterSeconds?: number | null;
    body?: unknown;
  }) {
    super(`${init.status} ${init.code}: ${init.message}${init.requestId ? ` (request ${init.requestId})` : ""}`);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.scope = init.scope ?? null;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.body = init.body;
  }
}

export const isPaddleApiError = (value: unknown, code?: string): value is PaddleApiError =>
  value instanceof PaddleApiError && (code === undefined || value.code === code);

/** `Retry-After` in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(response: Response, now: () => number = Date.now): number | null {
  const value = response.headers.get("retry-after");
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now()) / 1000));
}

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** The error a failed response stands for; `body` is what openapi-fetch parsed (JSON, or the text when it was not JSON). */
export function errorFromResponse(response: Response, body: unknown): PaddleApiError {
  const fields = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  return new PaddleApiError({
    status: response.status,
    code: text(fields.error) ?? `http_${response.status}`,
    message: text(fields.message) ?? text(fields.error_description) ?? (response.statusText || `HTTP ${response.status}`),
    requestId: text(fields.request_id) ?? response.headers.get("x-request-id"),
    scope: text(fields.scope),
    retryAfterSeconds: retryAfterSeconds(response),
    body,
  });
}

/** What every openapi-fetch call resolves to. */
export interface CallResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The success body of a call, or a thrown `PaddleApiError`:
 * `const me = await unwrap(dataApi.GET("/me"))`.
 */
export async function unwrap<T>(call: Promise<CallResult<T>> | CallResult<T>): Promise<T> {
  const result = await call;
  if (!result.response.ok) throw errorFromResponse(result.response, result.error);
  return result.data as T;
}
