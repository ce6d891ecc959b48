import { ZodError } from "zod";
import { AppError, type AppErrorCode } from "../../errors";
import { ApiProblem, describeZodIssue, type ProblemKind } from "../kernel/problem";
import { IdempotencyKeyReusedError } from "../../idempotency/idempotency";
import { CONNECTION_RETRY_AFTER_SECONDS, isConnectionError } from "../../db/connection-errors";

/**
 * The Data API's one error type, status table and formatter (data-api.md
 * "Errors"): body `{error, error_description, scope?, request_id}`. Handlers
 * throw; only `dataApiErrorResponse` turns an error into a response.
 */
export const DATA_API_ERRORS = {
  invalid_request: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  /** POST /svcsim/embeds: a well-formed HTTPS origin not approved for the calling application. */
  origin_not_approved: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** POST /svcsim/embeds: a session's replay artifact is missing or invalid (docs/replay.md). */
  replay_artifact_unavailable: 409,
  idempotency_key_reused: 409,
  rate_limited: 429,
  server_error: 500,
  service_unavailable: 503,
} as const;
export type DataApiErrorCode = keyof typeof DATA_API_ERRORS;

export class DataApiError extends Error {
  constructor(
    readonly error: DataApiErrorCode,
    readonly description: string,
    /** insufficient_scope: the scopes the operation needs, space-separated. */
    readonly scope?: string,
    /** POST /workout-templates/import: every problem of the workout, each with its JSON path. */
    readonly problems?: { path: string; message: string }[],
  ) {
    super(description);
    this.name = "DataApiError";
  }
  get status(): number {
    return DATA_API_ERRORS[this.error];
  }
}

/** Absent and outside the subject boundary are one answer (data-api.md "Errors", 404). */
export const NOT_FOUND_DESCRIPTION = "The resource does not exist or is not accessible with this token";
export const dataApiNotFound = () => new DataApiError("not_found", NOT_FOUND_DESCRIPTION);

const FROM_APP_ERROR: Record<AppErrorCode, DataApiErrorCode> = {
  invalid: "invalid_request",
  unauthenticated: "invalid_token",
  forbidden: "not_found",
  not_found: "not_found",
  conflict: "conflict",
  too_many_requests: "rate_limited",
  unprocessable: "invalid_request",
  too_large: "invalid_request",
};

const FROM_PROBLEM: Record<ProblemKind, DataApiErrorCode> = {
  invalid_request: "invalid_request",
  unauthenticated: "invalid_token",
  not_found: "not_found",
  method_not_allowed: "method_not_allowed",
  rate_limited: "rate_limited",
};

/** One copy, in the kernel; re-exported for the Data API's modules. */
export { describeZodIssue };

export function toDataApiError(error: unknown): DataApiError {
  if (error instanceof DataApiError) return error;
  if (error instanceof ApiProblem)
    return error.kind === "not_found" ? dataApiNotFound() : new DataApiError(FROM_PROBLEM[error.kind], error.message);
  if (error instanceof IdempotencyKeyReusedError) return new DataApiError("idempotency_key_reused", error.message);
  if (error instanceof AppError) {
    const code = FROM_APP_ERROR[error.code];
    // A domain "not found" names the resource; the API answers one uniform 404.
    return code === "not_found" ? dataApiNotFound() : new DataApiError(code, error.message);
  }
  if (error instanceof ZodError) return new DataApiError("invalid_request", describeZodIssue(error));
  if (isConnectionError(error)) return new DataApiError("service_unavailable", SERVICE_UNAVAILABLE_DESCRIPTION);
  console.error("Data API: unexpected error", error);
  return new DataApiError("server_error", "Unexpected internal error");
}

/** A lost database connection that a retry of the read did not cure: 503, never 500 (docs/architecture.md "Lost connections"). */
export const SERVICE_UNAVAILABLE_DESCRIPTION = "The service lost its database connection; retry after the time in Retry-After";

/** Headers an error response carries besides the rate-limit ones: Retry-After on 503. */
export function errorRetryHeaders(error: { status: number }): Record<string, string> {
  return error.status === 503 ? { "Retry-After": String(CONNECTION_RETRY_AFTER_SECONDS) } : {};
}

export interface DataApiErrorBody {
  error: DataApiErrorCode;
  error_description: string;
  scope?: string;
  problems?: { path: string; message: string }[];
  request_id: string;
}

export function dataApiErrorBody(error: DataApiError, requestId: string): DataApiErrorBody {
  return {
    error: error.error,
    error_description: error.description,
    ...(error.scope ? { scope: error.scope } : {}),
    ...(error.problems ? { problems: error.problems } : {}),
    request_id: requestId,
  };
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;

/**
 * RFC 6750 §3 challenge: no error attribute when no token was sent at all,
 * invalid_token for a bad one, insufficient_scope with the needed scopes.
 */
export function bearerChallenge(error: DataApiError, tokenPresent: boolean): string | null {
  if (error.error === "invalid_token") {
    return tokenPresent
      ? `Bearer realm="data-api", error="invalid_token", error_description=${quoted(error.description)}`
      : `Bearer realm="data-api"`;
  }
  if (error.error === "insufficient_scope")
    return `Bearer realm="data-api", error="insufficient_scope", scope=${quoted(error.scope ?? "")}`;
  return null;
}
