/**
 * Errors that mean the database connection, not the statement, failed: the
 * server terminated or restarted the backend (SQLSTATE 57P01–57P03), the
 * connection broke (class 08, socket errors), or postgres.js found it closed.
 * A read can be retried on another connection; anything else is answered
 * 503 with Retry-After by both APIs (docs/architecture.md "Lost connections").
 */
const CONNECTION_ERROR_CODES = new Set([
  "57P01", // admin_shutdown: pg_terminate_backend, a fast shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up, in recovery
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "08007",
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
]);

/** True when `error` (or what it wraps: drizzle wraps driver errors in `cause`) is a lost or refused connection. */
export function isConnectionError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && CONNECTION_ERROR_CODES.has(code)) return true;
  }
  return false;
}

/** Seconds a client should wait before retrying after a lost connection (the pool reconnects at once). */
export const CONNECTION_RETRY_AFTER_SECONDS = 1;

/** Runs `read`; on a connection error runs `again` once (a fresh statement, on whatever connection the pool gives). */
export async function retryReadOnce<T>(read: () => PromiseLike<T>, again: () => PromiseLike<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isConnectionError(error)) throw error;
    return await again();
  }
}
