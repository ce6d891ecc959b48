import { ZodError } from "zod";
import { AppError, type AppErrorCode } from "../../errors";
import { CONNECTION_RETRY_AFTER_SECONDS, isConnectionError } from "../../db/connection-errors";

/**
 * The results API's one error type and formatter: body `{error, message}`,
 * `message` naming the exact problem (docs/results-api.md "Errors").
 */
export const RESULTS_API_ERRORS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
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
  conflict: "invalid_request",
  too_many_requests: "rate_limited",
  unprocessable: "unprocessable_session",
  too_large: "payload_too_large",
};

/** "athletes[1].weight: Too big" style: the parameter first, then what is wrong with it. */
export function describeZodError(error: ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.reduce<string>((acc, part) => (typeof part === "number" ? `${acc}[${part}]` : acc ? `${acc}.${String(part)}` : String(part)), "");
  return path ? `${path}: ${issue.message}` : issue.message;
}

export function toResultsApiError(error: unknown): ResultsApiError {
  if (error instanceof ResultsApiError) return error;
  if (error instanceof AppError) return new ResultsApiError(FROM_APP_ERROR[error.code], error.message);
  if (error instanceof ZodError) return new ResultsApiError("invalid_request", describeZodError(error));
  // A lost database connection that a retry of the read did not cure: 503 with Retry-After, never 500.
  if (isConnectionError(error)) return new ResultsApiError("service_unavailable", "The service lost its database connection; retry after the time in Retry-After");
  console.error("results API: unexpected error", error);
  return new ResultsApiError("internal_error", "Unexpected internal error");
}

/** Headers an error response carries besides the rate-limit ones: Retry-After on 503. */
export function errorRetryHeaders(error: ResultsApiError): Record<string, string> {
  return error.status === 503 ? { "Retry-After": String(CONNECTION_RETRY_AFTER_SECONDS) } : {};
}

export function errorBody(error: ResultsApiError) {
  return { error: error.error, message: error.message };
}
