/**
 * The sort values of the last item of a page, in the list's ORDER BY order:
 * what a keyset list query (server/sessions/list-sessions.ts,
 * server/trainings/training-reads.ts, …) resumes after, and what the Data
 * API's cursor (server/http/data-api/pagination.ts) signs and carries.
 */
export type KeysetPosition = (string | number | null)[];
