/**
 * Value rules every door into the database applies alike: the parameter
 * schemas of both APIs (server/http/kernel/params.ts), the upload's metadata
 * and the training form. Integers are bounded to their column's type (int4
 * ids: 1..2147483647); strings may not hold NUL or unpaired surrogates
 * (Postgres text cannot store NUL).
 */
export const INT4_MAX = 2_147_483_647;

/** NUL, or a UTF-16 surrogate without its pair. */
export function hasForbiddenCharacters(value: string): boolean {
  return /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);
}
export const FORBIDDEN_CHARACTERS_MESSAGE = "must not contain NUL characters or unpaired surrogates";
