/** Postgres error codes, found on the error a driver throws or on one it wraps (drizzle puts the driver's in `cause`). */
function hasPgCode(error: unknown, code: string): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === code) return true;
  }
  return false;
}

/** 23503: a row names a row that is not (or no longer) there, or a delete would leave a row naming it. */
export const isForeignKeyViolation = (error: unknown) => hasPgCode(error, "23503");
