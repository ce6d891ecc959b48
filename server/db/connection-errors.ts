/**
 * Errors that mean the database connection, not the statement, failed: the
 * server terminated or restarted the backend (SQLSTATE 57P01–57P03), the
 * connection broke (class 08, socket errors), or postgres.js found it closed.
 * What is safe to repeat is retried on a fresh connection (server/db/client.ts);
 * anything else is answered 503 with Retry-After by both APIs (docs/architecture.md "Lost connections").
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

/**
 * Pauses before each retry of a statement or transaction whose connection
 * died. When Postgres terminates every backend at once, the process learns of
 * each closed socket separately: a retry sent at once may be handed another
 * connection whose death has not been read yet (its termination message and
 * close wait in the socket while the event loop runs a timer or a long
 * computation such as an upload's processing). So each pause ends only after
 * the event loop has polled the sockets again (setImmediate runs right after
 * that poll): every connection that died before the pause is then known
 * closed and the pool opens a new one instead of handing it out. Four pauses,
 * growing to 400 ms (0.66 s in all): on a saturated machine a socket's close
 * can still be unread after the first two (a CI run saw a read inside a
 * transaction fail on its third dead connection in a row).
 */
export const RECONNECT_RETRY_DELAYS_MS = [10, 50, 200, 400] as const;

export async function pauseBeforeRetry(retry: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, RECONNECT_RETRY_DELAYS_MS[retry]));
  await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `attempt`; on a connection error runs it again on a connection the pool
 * opens afresh (after RECONNECT_RETRY_DELAYS_MS), at most four times more. Only for
 * work that is safe to repeat: a read, or a transaction that wrote nothing.
 */
export async function retryOnFreshConnection<T>(attempt: () => PromiseLike<T>): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isConnectionError(error) || retry >= RECONNECT_RETRY_DELAYS_MS.length) throw error;
      await pauseBeforeRetry(retry);
    }
  }
}
