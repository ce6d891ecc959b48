/** Postgres errors, found on the error a driver throws or on one it wraps (drizzle puts the driver's in `cause`). */
type PgError = { code?: string; constraint?: string; constraint_name?: string; cause?: unknown };

function findPgError(error: unknown, matches: (e: PgError) => boolean): boolean {
  for (let e = error as PgError | undefined; e; e = e.cause as PgError | undefined) {
    if (matches(e)) return true;
  }
  return false;
}

/** 23503: a row names a row that is not (or no longer) there, or a delete would leave a row naming it. */
export const isForeignKeyViolation = (error: unknown) => findPgError(error, (e) => e.code === "23503");

/** 23505 on the named unique constraint or index (any, when none is named). */
export const isUniqueViolation = (error: unknown, constraint?: string) =>
  findPgError(error, (e) => e.code === "23505" && (constraint === undefined || (e.constraint_name ?? e.constraint) === constraint));
