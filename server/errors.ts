/**
 * The one error type domain code throws. Each API (tRPC, results API, Data
 * API) maps `code` to its own status and body in its single error mapper.
 */
export type AppErrorCode =
  "invalid" | "unauthenticated" | "forbidden" | "not_found" | "conflict" | "too_many_requests" | "unprocessable" | "too_large";

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    /** Per-field messages for forms, keyed by input field name. */
    readonly fieldErrors?: Record<string, string[]>,
    /** Facts an API may add to its error body, e.g. the existing result's id on a duplicate upload. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const notFound = (what: string) => new AppError("not_found", `${what} not found`);
