import { expect } from "vitest";
import type { Scope, Surface } from "@/server/auth/oauth/scopes";
import type { ApiAnswer, ApiHarness, CallOptions } from "./harness";
import { createOAuthApplication, issueToken, tokenScopesOfSurface, type Application } from "./harness/credentials";

/**
 * Short forms for the Data API's in-process tests (ported from the e2e
 * specs' data-api-helpers.ts): a token of a fresh application, a GET, and a
 * walk over every page of a list. Every answer is validated by call().
 */
export async function dataApiToken(
  api: ApiHarness,
  userId: number,
  options: { surface?: Surface; scopes?: Scope[] } = {},
): Promise<{ token: string; app: Application; grantId: string }> {
  const surface = options.surface ?? "data";
  const app = await createOAuthApplication(api.db, userId, { surface });
  const issued = await issueToken(api.db, { userId, application: app, scopes: options.scopes ?? tokenScopesOfSurface(surface) });
  return { ...issued, app };
}

export const get = (api: ApiHarness, path: string, token: string | null, options: Omit<CallOptions, "token"> = {}): Promise<ApiAnswer> =>
  api.call("GET", path, { ...options, token });

/** Walks every page of a list, returning all items (fails past `maxPages`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- items validated against the document
export async function walkPages(api: ApiHarness, path: string, token: string, maxPages = 50): Promise<any[]> {
  const items: unknown[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const separator = path.includes("?") ? "&" : "?";
    const { status, body } = await get(api, cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path, token);
    expect(status, path).toBe(200);
    items.push(...body.data);
    cursor = body.meta.next_cursor;
    if (!cursor) return items;
  }
  throw new Error(`more than ${maxPages} pages`);
}
