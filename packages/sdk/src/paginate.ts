import { unwrap, type CallResult } from "./errors.js";

/** A Data API list page: `{data: [...], meta: {next_cursor, limit}}`. */
interface CursorPage<T> {
  data: T[];
  meta?: { next_cursor?: string | null };
}

/** A results API page: `{data: [...], pagination: {page, pages, has_next, …}}`. */
interface NumberedPage<T> {
  data: T[];
  pagination: { page: number; pages: number; has_next: boolean };
}

/**
 * Every item of a Data API list, page after page, following
 * `meta.next_cursor` until it is null. `fetchPage` makes one call with the
 * cursor it is given (undefined for the first page); keep its filters the same
 * on every call, since a cursor is bound to them:
 *
 *     for await (const session of paginateCursor((cursor) =>
 *       dataApi.GET("/sessions", { params: { query: { sort: "date", limit: 100, cursor } } })))
 *
 * A failed page throws a `PaddleApiError`.
 */
export async function* paginateCursor<T>(
  fetchPage: (cursor: string | undefined) => Promise<CallResult<CursorPage<T>>>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const page = await unwrap(fetchPage(cursor));
    yield* page.data;
    const next = page.meta?.next_cursor;
    if (!next) return;
    // A cursor handed back twice would walk in a circle forever.
    if (seen.has(next)) throw new Error("paginateCursor: the API returned a cursor it had returned before");
    seen.add(next);
    cursor = next;
  }
}

/**
 * Every item of a results API list, page 1, 2, … while `pagination.has_next`.
 * `fetchPage` makes one call for the page number it is given:
 *
 *     for await (const result of paginatePages((page) =>
 *       resultsApi.GET("/results", { params: { query: { page, per_page: 100 } } })))
 *
 * Page numbers count from the list's current head: a result stored during the
 * walk can shift an item to the next page (seen twice) or, after a delete, to
 * the previous one (missed). A failed page throws a `PaddleApiError`.
 */
export async function* paginatePages<T>(
  fetchPage: (page: number) => Promise<CallResult<NumberedPage<T>>>,
): AsyncGenerator<T, void, undefined> {
  for (let page = 1; ; page++) {
    const body = await unwrap(fetchPage(page));
    yield* body.data;
    if (!body.pagination.has_next || body.data.length === 0) return;
  }
}
