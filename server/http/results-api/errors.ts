import { ZodError } from "zod";
import { AppError, type AppErrorCode } from "../../errors";
import { ApiProblem, describeZodIssue, type ProblemKind } from "../kernel/problem";
import { CONNECTION_RETRY_AFTER_SECONDS, isConnectionError } from "../../db/connection-errors";
import { IdempotencyKeyReusedError } from "../../idempotency/idempotency";

/**
 * The results API's one error type and formatter: body `{error, message,
 * request_id}`, `message` naming the exact problem (docs/results-api.md
 * "Errors"). `request_id` is ours beyond the specification's two members: the
 * same id as the `X-Request-Id` header, to quote when reporting a problem.
 */
export const RESULTS_API_ERRORS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  /** POST /results: the Idempotency-Key was used for another request (another file or metadata). */
  idempotency_key_reused: 409,
  payload_too_large: 413,
  unprocessable_session: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;
export type ResultsApiErrorCode = keyof typeof RESULTS_API_ERRORS;

export class ResultsApiError extends Error {
  constructor(
    readonly error: ResultsApiErrorCode,
    message: string,
    /** Extra members of the body, e.g. the existing result's id on a duplicate upload. */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
  get status(): number {
    return RESULTS_API_ERRORS[this.error];
  }
}

const FROM_APP_ERROR: Record<AppErrorCode, ResultsApiErrorCode> = {
  invalid: "invalid_request",
  unauthenticated: "unauthorized",
  forbidden: "forbidden",
  not_found: "not_found",
  conflict: "conflict",
  too_many_requests: "rate_limited",
  unprocessable: "unprocessable_session",
  too_large: "payload_too_large",
};

const FROM_PROBLEM: Record<ProblemKind, ResultsApiErrorCode> = {
  invalid_request: "invalid_request",
  unauthenticated: "unauthorized",
  not_found: "not_found",
  method_not_allowed: "method_not_allowed",
  rate_limited: "rate_limited",
};

/** One copy, in the kernel; re-exported under this API's historical name. */
export const describeZodError = describeZodIssue;

export function toResultsApiError(error: unknown): ResultsApiError {
  if (error instanceof ResultsApiError) return error;
  if (error instanceof ApiProblem) return new ResultsApiError(FROM_PROBLEM[error.kind], error.message);
  if (error instanceof IdempotencyKeyReusedError) return new ResultsApiError("idempotency_key_reused", error.message);
  if (error instanceof AppError) return new ResultsApiError(FROM_APP_ERROR[error.code], error.message, error.details);
  if (error instanceof ZodError) return new ResultsApiError("invalid_request", describeZodIssue(error));
  // A lost database connection that a retry of the read did not cure: 503 with Retry-After, never 500.
  if (isConnectionError(error))
    return new ResultsApiError("service_unavailable", "The service lost its database connection; retry after the time in Retry-After");
  console.error("results API: unexpected error", error);
  return new ResultsApiError("internal_error", "Unexpected internal error");
}

/** Headers an error response carries besides the rate-limit ones: Retry-After on 503. */
export function errorRetryHeaders(error: ResultsApiError): Record<string, string> {
  return error.status === 503 ? { "Retry-After": String(CONNECTION_RETRY_AFTER_SECONDS) } : {};
}

export function errorBody(error: ResultsApiError, requestId: string) {
  return { error: error.error, message: error.message, ...error.extra, request_id: requestId };
}
