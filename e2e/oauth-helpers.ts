import { randomBytes } from "node:crypto";
import http from "node:http";
import { expect, request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";
import { signedInContext, signUpOverHttp, trpcMutation } from "./api-helpers";
import type { TestAccount } from "./helpers";
import { authorizeUrlAt, basicAuth, pkcePair, randomValue, type AuthorizeParams } from "../test/support/oauth-authorize";

export { basicAuth, pkcePair, randomValue, type AuthorizeParams };

/**
 * HTTP-level helpers for the OAuth specs. Applications are registered through
 * the portal's own tRPC endpoints with the owner's session cookie (the server
 * is another process: no domain functions here). A "browser" is a Playwright
 * request context: it keeps cookies, and redirects are followed by hand so a
 * spec sees every hop.
 */
export const issuerFor = (baseURL: string) => `${baseURL}/api`;
export const apiResourceFor = (baseURL: string) => `${baseURL}/api/v1`;

export interface TestApp {
  id: number;
  clientId: string;
  clientSecret: string | null;
  redirectUri: string;
  owner: TestAccount;
}

export interface AppOptions {
  name?: string;
  surface?: "data" | "partner" | "session";
  clientType?: "confidential" | "public";
  redirectUris?: string[];
  embedOrigins?: string[];
  scopes?: string[];
}

/**
 * OIDC scopes alone: the code exchange gives a userinfo token. With any Data
 * API scope it gives a Data API token instead (docs/oauth.md "Tokens, audiences").
 */
export const USERINFO_SCOPE = "openid profile email offline_access";

export const DEFAULT_SCOPES = ["openid", "profile", "email", "offline_access", "sessions:read", "health:read"];

/** A fresh owner (signed up over HTTP) and an application registered through the portal API. */
export async function registerApp(baseURL: string, options: AppOptions = {}, owner?: TestAccount): Promise<TestApp> {
  const account = owner ?? (await signUpOverHttp(baseURL, "owner"));
  const context = await signedInContext(baseURL, account);
  const redirectUris = options.redirectUris ?? [`http://127.0.0.1:${40000 + Math.floor(Math.random() * 20000)}/callback`];
  const created = await trpcMutation<{ id: number; clientId: string; clientSecret: string | null }>(context, "applications.create", {
    name: options.name ?? "E2E app",
    surface: options.surface ?? "data",
    clientType: options.clientType ?? "confidential",
    redirectUris,
    embedOrigins: options.embedOrigins ?? [],
    scopes: options.scopes ?? DEFAULT_SCOPES,
  });
  await context.dispose();
  return { ...created, redirectUri: redirectUris[0], owner: account };
}

export function authorizeUrl(baseURL: string, p: AuthorizeParams): string {
  return authorizeUrlAt(baseURL, p);
}

/** A random private address: the e2e server trusts X-Forwarded-For (TRUST_PROXY=1) like it would behind a proxy. */
export const randomClientIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;

/**
 * A cookie-keeping client that does not follow redirects by itself. Each one
 * comes from its own client address, so per-address sign-in limits of one
 * spec never spill into another.
 */
export async function newBrowser(baseURL: string, clientIp = randomClientIp()): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL, maxRedirects: 0, extraHTTPHeaders: { "x-forwarded-for": clientIp } });
}

export interface FlowOptions {
  /** Signs in on the OAuth sign-in page when asked. */
  account?: Pick<TestAccount, "email" | "password">;
  /** On the consent page: Allow (default) or Deny, and whether health:read is ticked. */
  decision?: "allow" | "deny";
  health?: boolean;
}

export interface FlowResult {
  /** The redirect back to the application, with code or error, state and iss. */
  callback: URL;
  /** Pages passed on the way, e.g. ["signin", "consent"]. */
  pages: string[];
}

/**
 * Follows an authorization request through sign-in and consent like a browser
 * would, posting the same forms the pages render, until the redirect to the
 * application's redirect URI.
 */
export async function runAuthorization(
  browser: APIRequestContext,
  baseURL: string,
  url: string,
  redirectUri: string,
  options: FlowOptions = {},
): Promise<FlowResult> {
  const pages: string[] = [];
  let next: string = url;
  for (let hop = 0; hop < 20; hop++) {
    if (next.startsWith(redirectUri)) return { callback: new URL(next), pages };
    const target = new URL(next, baseURL);
    const path = target.pathname;
    let response: APIResponse;
    if (/^\/oauth\/interaction\/[^/]+\/signin$/.test(path)) {
      pages.push("signin");
      if (!options.account) throw new Error("the flow asked for a sign-in but no account was given");
      response = await browser.post(path.replace(/\/signin$/, ""), {
        form: { action: "signin", email: options.account.email, password: options.account.password },
        headers: { origin: baseURL },
      });
    } else if (/^\/oauth\/interaction\/[^/]+\/consent$/.test(path)) {
      pages.push("consent");
      const page = await browser.get(target.toString());
      expect(page.status(), await page.text()).toBe(200);
      const form: Record<string, string> = { action: "consent", decision: options.decision ?? "allow" };
      if (options.health) form.separate_scope = "health:read";
      response = await browser.post(path.replace(/\/consent$/, ""), { form, headers: { origin: baseURL } });
    } else {
      response = await browser.get(target.toString());
    }
    const location = response.headers()["location"];
    if (![302, 303].includes(response.status()) || !location) {
      throw new Error(`unexpected ${response.status()} at ${target}: ${(await response.text()).slice(0, 500)}`);
    }
    next = new URL(location, target).toString();
  }
  throw new Error("too many redirects");
}

/** POSTs a form to the token endpoint (or another OAuth endpoint). */
export async function postForm(
  baseURL: string,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<APIResponse> {
  const context = await playwrightRequest.newContext({ baseURL });
  const response = await context.post(path, { form, headers });
  await response.body();
  return response;
}

export async function exchangeCode(
  baseURL: string,
  app: TestApp,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
): Promise<APIResponse> {
  const form: Record<string, string> = {
    grant_type: "authorization_code",
    code,
    redirect_uri: app.redirectUri,
    code_verifier: verifier,
    ...extra,
  };
  if (app.clientSecret) return postForm(baseURL, "/api/oauth/token", form, { authorization: basicAuth(app.clientId, app.clientSecret) });
  return postForm(baseURL, "/api/oauth/token", { ...form, client_id: app.clientId });
}

export async function refresh(
  baseURL: string,
  app: TestApp,
  refreshToken: string,
  extra: Record<string, string> = {},
): Promise<APIResponse> {
  const form: Record<string, string> = { grant_type: "refresh_token", refresh_token: refreshToken, ...extra };
  if (app.clientSecret) return postForm(baseURL, "/api/oauth/token", form, { authorization: basicAuth(app.clientId, app.clientSecret) });
  return postForm(baseURL, "/api/oauth/token", { ...form, client_id: app.clientId });
}

export async function userinfo(baseURL: string, accessToken: string): Promise<APIResponse> {
  const context = await playwrightRequest.newContext({ baseURL });
  const response = await context.get("/api/oauth/userinfo", { headers: { authorization: `Bearer ${accessToken}` } });
  await response.body();
  return response;
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
  expires_in: number;
  token_type: string;
}

/**
 * The whole dance for an owner who is not yet signed in: authorize, sign in,
 * consent, exchange. Returns the tokens and what was used to get them.
 */
export async function authorizeAndExchange(
  baseURL: string,
  app: TestApp,
  options: {
    scope?: string;
    prompt?: string;
    resource?: string;
    health?: boolean;
    browser?: APIRequestContext;
    tokenResource?: string;
  } = {},
): Promise<{ tokens: Tokens; callback: URL; browser: APIRequestContext; state: string }> {
  const browser = options.browser ?? (await newBrowser(baseURL));
  const { verifier, challenge } = pkcePair();
  const state = randomValue();
  const scope = options.scope ?? "openid profile email offline_access sessions:read";
  const url = authorizeUrl(baseURL, {
    clientId: app.clientId,
    redirectUri: app.redirectUri,
    scope,
    // A nonce belongs to OpenID Connect requests only (the provider refuses one without openid).
    nonce: scope.split(" ").includes("openid") ? undefined : null,
    prompt: options.prompt ?? "consent",
    codeChallenge: challenge,
    state,
    resource: options.resource,
  });
  const { callback } = await runAuthorization(browser, baseURL, url, app.redirectUri, { account: app.owner, health: options.health });
  expect(callback.searchParams.get("error"), callback.toString()).toBeNull();
  expect(callback.searchParams.get("state")).toBe(state);
  const code = callback.searchParams.get("code")!;
  const response = await exchangeCode(baseURL, app, code, verifier, options.tokenResource ? { resource: options.tokenResource } : {});
  expect(response.status(), await response.text()).toBe(200);
  return { tokens: (await response.json()) as Tokens, callback, browser, state };
}

export interface CallbackServer {
  /** http://127.0.0.1:<port>/callback: a loopback redirect URI, as a native or development client would use. */
  redirectUri: string;
  /** The next redirect the browser made to the application (code or error, state, iss). */
  next(): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A tiny relying-party endpoint in the test process that answers the
 * browser's redirect back to the application and records the URL.
 */
export async function startCallbackServer(): Promise<CallbackServer> {
  const received: URL[] = [];
  const waiting: ((url: URL) => void)[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    res.writeHead(url.pathname === "/callback" ? 200 : 404, { "content-type": "text/html" }).end("<h1>Back at the application</h1>");
    // Only the redirect counts (browsers also ask this origin for a favicon).
    if (url.pathname !== "/callback") return;
    const waiter = waiting.shift();
    if (waiter) waiter(url);
    else received.push(url);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    next: () =>
      new Promise<URL>((resolve, reject) => {
        const ready = received.shift();
        if (ready) return resolve(ready);
        const timer = setTimeout(() => reject(new Error("no redirect to the application within 15 s")), 15_000);
        waiting.push((url) => {
          clearTimeout(timer);
          resolve(url);
        });
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
