import { expect, type APIRequestContext, type APIResponse } from "@playwright/test";
import { API_SCOPES } from "../server/auth/oauth/scopes";
import { E2E_ACCOUNTS } from "./accounts";
import { signedInContext, trpcMutation } from "./api-helpers";
import { DATA_WORLD } from "./data-api-world";
import type { TestAccount } from "./helpers";
import { apiResourceFor, authorizeAndExchange, registerApp, type TestApp } from "./oauth-helpers";
import { OpenApiValidator } from "./openapi-validator";

/**
 * Shared pieces of the Data API specs: access tokens through the real OAuth
 * flow, calls validated against the served OpenAPI document, and the common
 * authorization cases every operation must pass (docs/data-api.md).
 */
export const DATA_API_DOC = "/api/docs/data-api.json";

/** Every Data API scope an application on the data surface may hold. */
export const DATA_SCOPES = ["openid", "profile", ...API_SCOPES];
const PARTNER_SCOPES = DATA_SCOPES.filter((s) => !s.startsWith("devices:"));
const SESSION_SCOPES = PARTNER_SCOPES.filter((s) => s !== "svcsim:embed");

export const anna: TestAccount = { ...DATA_WORLD.anna };
export const olaf: TestAccount = { ...DATA_WORLD.olaf };

/** An operator approves a partner application, as on the operator pages. */
async function approve(baseURL: string, applicationId: number) {
  const operator = await signedInContext(baseURL, E2E_ACCOUNTS.operator);
  await trpcMutation(operator, "operator.reviewApplication", { id: applicationId, decision: "approved" });
  await operator.dispose();
}

/**
 * A Data API access token of `owner` for a fresh application of the given
 * surface holding `scopes` (health:read is ticked on the consent screen when asked).
 */
export async function dataApiToken(
  baseURL: string,
  owner: TestAccount,
  options: { surface?: "data" | "partner" | "session"; scopes?: string[]; registered?: string[] } = {},
): Promise<{ token: string; app: TestApp }> {
  const surface = options.surface ?? "data";
  const registered = options.registered ?? (surface === "data" ? DATA_SCOPES : surface === "partner" ? PARTNER_SCOPES : SESSION_SCOPES);
  const app = await registerApp(baseURL, { surface, scopes: registered, name: `Data API ${surface} app` }, owner);
  if (surface === "partner") await approve(baseURL, app.id);
  const scopes = options.scopes ?? registered;
  // resource = the Data API at the token endpoint: the token's audience (docs/oauth.md "Tokens, audiences").
  const { tokens, browser } = await authorizeAndExchange(baseURL, app, {
    scope: scopes.join(" "),
    health: scopes.includes("health:read"),
    tokenResource: apiResourceFor(baseURL),
  });
  await browser.dispose();
  return { token: tokens.access_token, app };
}

/** Tokens of one person for the common cases: full, scope-less, other surfaces, revoked. */
export interface TokenSet {
  /** Every data-surface scope, health ticked. */
  full: string;
  /** Only openid: lacks every API scope. */
  openidOnly: string;
  /** Only sessions:read: lacks openid (for the identity operations). */
  noOpenid: string;
  partner: string;
  session: string;
  /** Its grant was revoked through DELETE /authorization. */
  revoked: string;
}

export async function tokenSet(baseURL: string, request: APIRequestContext, owner: TestAccount): Promise<TokenSet> {
  const full = (await dataApiToken(baseURL, owner)).token;
  const openidOnly = (await dataApiToken(baseURL, owner, { scopes: ["openid"] })).token;
  const noOpenid = (await dataApiToken(baseURL, owner, { scopes: ["sessions:read"] })).token;
  const partner = (await dataApiToken(baseURL, owner, { surface: "partner" })).token;
  const session = (await dataApiToken(baseURL, owner, { surface: "session" })).token;
  const revoked = (await dataApiToken(baseURL, owner)).token;
  const revocation = await request.delete("/api/v1/authorization", { headers: bearer(revoked) });
  expect(revocation.status()).toBe(204);
  return { full, openidOnly, noOpenid, partner, session, revoked };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function loadDataApi(request: APIRequestContext): Promise<OpenApiValidator> {
  return OpenApiValidator.load(request, DATA_API_DOC);
}

/** Calls one operation and validates the answer against the document; returns status and body. */
export async function call(
  request: APIRequestContext,
  api: OpenApiValidator,
  op: { method?: "get" | "delete" | "post"; template: string; path: string },
  token: string | null,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- validated against the document just before
): Promise<{ status: number; body: any; response: APIResponse }> {
  const method = op.method ?? "get";
  const headers = token === null ? {} : bearer(token);
  const url = `/api/v1${op.path}`;
  const response =
    method === "get"
      ? await request.get(url, { headers })
      : method === "delete"
        ? await request.delete(url, { headers })
        : await request.post(url, { headers });
  const body = await api.check(method, op.template, response);
  return { status: response.status(), body, response };
}

export interface OperationCase {
  method?: "get" | "delete" | "post";
  template: string;
  /** A concrete path the subject may read (the auth cases must not fail for another reason). */
  path: string;
  /** The scopes the operation needs. */
  scopes: string[];
  /** Surfaces that serve it; the others must answer 404. */
  surfaces: ("data" | "partner" | "session")[];
}

/**
 * The cases every operation must pass: no token and a bad token (401 with a
 * bearer challenge), a token without the scope (403 insufficient_scope naming
 * it), a surface that does not serve it (404), a revoked grant (401).
 */
export async function expectCommonAuthCases(request: APIRequestContext, api: OpenApiValidator, op: OperationCase, tokens: TokenSet) {
  const label = `${op.method ?? "get"} ${op.path}`;
  const missing = await call(request, api, op, null);
  expect(missing.status, label).toBe(401);
  expect(missing.body).toMatchObject({ error: "invalid_token", request_id: expect.stringMatching(/^req_/) });
  expect(missing.response.headers()["www-authenticate"], label).toBe('Bearer realm="data-api"');

  const bad = await call(request, api, op, "not-a-token-we-issued");
  expect(bad.status, label).toBe(401);
  expect(bad.response.headers()["www-authenticate"], label).toContain('error="invalid_token"');

  const lacking = op.scopes.includes("openid") ? tokens.noOpenid : tokens.openidOnly;
  const forbidden = await call(request, api, op, lacking);
  expect(forbidden.status, label).toBe(403);
  expect(forbidden.body).toMatchObject({ error: "insufficient_scope", scope: op.scopes.join(" ") });
  expect(forbidden.response.headers()["www-authenticate"], label).toContain('error="insufficient_scope"');

  for (const surface of ["partner", "session"] as const) {
    if (op.surfaces.includes(surface)) continue;
    const other = await call(request, api, op, tokens[surface]);
    expect(other.status, `${label} on the ${surface} surface`).toBe(404);
    expect(other.body.error).toBe("not_found");
  }

  const revoked = await call(request, api, op, tokens.revoked);
  expect(revoked.status, label).toBe(401);
}

/** Walks every page of a list, returning all items (fails past `maxPages`). */
export async function walkPages(
  request: APIRequestContext,
  api: OpenApiValidator,
  template: string,
  path: string,
  token: string,
  maxPages = 50,
) {
  const items: any[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any -- items validated against the document
  let cursor: string | null = null;
  for (let page = 0; page < maxPages; page++) {
    const separator = path.includes("?") ? "&" : "?";
    const { status, body } = await call(
      request,
      api,
      { template, path: cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path },
      token,
    );
    expect(status).toBe(200);
    items.push(...body.data);
    cursor = body.meta.next_cursor;
    if (!cursor) return items;
  }
  throw new Error(`more than ${maxPages} pages`);
}
