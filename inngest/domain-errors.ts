import { NonRetriableError } from "inngest";
import { AppError, type AppErrorCode } from "../server/errors";

/** Domain errors no retry can fix: the input is wrong or the thing is gone. */
const permanentCodes: ReadonlySet<AppErrorCode> = new Set(["invalid", "not_found", "forbidden", "conflict"]);

/**
 * Runs domain code inside a step and turns its permanent errors into
 * NonRetriableError, so a run for a deleted result fails at once instead of
 * after every retry. Anything else (database down, a bug) is retried.
 */
export async function failFastOnPermanentErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && permanentCodes.has(error.code)) throw new NonRetriableError(error.message, { cause: error });
    throw error;
  }
}
