import { z } from "zod";
import type { KeysetPosition } from "../../contract/keyset";
import type { Db } from "../../db/client";
import { getOrCreateAppSecret } from "../../auth/app-secrets";
import { decodeCursor, encodeCursor, type CursorBinding } from "./cursor";
import { DataApiError } from "./errors";
import { intParam, textParam } from "../kernel/params";

/**
 * Cursor pagination of every Data API list (data-api.md "Pagination
 * parameters"): `limit` 1–100 (default 50) and an opaque signed cursor bound
 * to the list, its filters, the subject and the application. Lists are keyset
 * queries on indexed columns, so a page costs the same at the end as at the
 * start and stays stable while rows are inserted.
 */
export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 100;

/** An integer query parameter within [min, max] (the kernel's; kept here for the Data API's modules). */
export { intParam };

export const ZPageParams = z.object({
  cursor: textParam("cursor", 2048)
    .min(1, "cursor: not a cursor this API issued")
    .optional()
    .describe("opaque value of meta.next_cursor from the previous page, unmodified"),
  limit: intParam("limit", 1, PAGE_LIMIT_MAX)
    .optional()
    .default(PAGE_LIMIT_DEFAULT)
    .describe(`entries per page, 1 to ${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT}); a page may hold fewer`),
});
export type PageParams = z.output<typeof ZPageParams>;

export interface PageMeta {
  /** Absent on the last page. */
  next_cursor: string | null;
  limit: number;
}

export interface PagingContext {
  db: Db;
  url: URL;
  subjectId: number;
  applicationId: number;
  now: Date;
}

const secrets = new WeakMap<Db, Promise<string>>();
/** The HMAC key of cursors: kept in the database so every instance signs alike; read once per process. */
function cursorSecret(db: Db): Promise<string> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = getOrCreateAppSecret(db, "data-api-cursor");
    secrets.set(db, secret);
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

function bindingOf(ctx: PagingContext): CursorBinding {
  const filters: Record<string, string> = {};
  for (const [name, value] of ctx.url.searchParams) if (name !== "cursor" && name !== "limit") filters[name] = value;
  return { path: ctx.url.pathname, filters, subject: ctx.subjectId, applicationId: ctx.applicationId };
}

const CURSOR_REFUSALS = {
  malformed: "cursor: not a cursor this API issued",
  signature: "cursor: altered or not issued by this API",
  expired: "cursor: expired (cursors live 24 hours); start again from the first page",
  other_list: "cursor: issued for another list or other filters",
  other_subject: "cursor: issued for another account",
} as const;

/**
 * Runs one keyset page: `fetch(after, take)` returns up to `take` rows after
 * the position (null = from the start); one extra row tells whether a next
 * page exists. Returns the rows of this page and the list meta.
 */
export async function keysetPage<T>(
  ctx: PagingContext,
  page: PageParams,
  fetch: (after: KeysetPosition | null, take: number) => Promise<T[]>,
  positionOf: (row: T) => KeysetPosition,
): Promise<{ rows: T[]; meta: PageMeta }> {
  const secret = await cursorSecret(ctx.db);
  const binding = bindingOf(ctx);
  let after: KeysetPosition | null = null;
  if (page.cursor !== undefined) {
    const decoded = decodeCursor(secret, page.cursor, binding, ctx.now.getTime());
    if (!decoded.ok) throw new DataApiError("invalid_request", CURSOR_REFUSALS[decoded.reason]);
    after = decoded.position;
  }
  const fetched = await fetch(after, page.limit + 1);
  const rows = fetched.slice(0, page.limit);
  const next = fetched.length > page.limit ? encodeCursor(secret, binding, positionOf(rows[rows.length - 1]), ctx.now.getTime()) : null;
  return { rows, meta: { next_cursor: next, limit: page.limit } };
}
