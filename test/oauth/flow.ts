import { expect } from "vitest";
import { consentView } from "@/server/auth/oauth/interactions";
import type { Db } from "@/server/db/client";
import {
  appUrl,
  authorizeUrl,
  basicAuth,
  buildRequest,
  OAuthBrowser,
  pkcePair,
  randomValue,
  send,
  type Person,
  type TestApp,
} from "./harness";

/**
 * The authorization-code flow in process (what e2e/oauth-helpers.ts does over
 * HTTP): authorize, sign in, consent and the token endpoint, hop by hop.
 */

export interface FlowOptions {
  account?: Pick<Person, "email" | "password">;
  decision?: "allow" | "deny";
  health?: boolean;
}

export interface FlowResult {
  callback: URL;
  pages: string[];
}

/**
 * Follows an authorization request through sign-in and consent, posting the
 * forms the pages post, until the redirect to the application. Where a browser
 * would render the consent page, the page's own view must exist.
 */
export async function runAuthorization(
  db: Db,
  browser: OAuthBrowser,
  url: string,
  redirectUri: string,
  options: FlowOptions = {},
): Promise<FlowResult> {
  const pages: string[] = [];
  let next = url;
  for (let hop = 0; hop < 20; hop++) {
    if (next.startsWith(redirectUri)) return { callback: new URL(next), pages };
    const target = new URL(next, appUrl());
    const page = target.pathname.match(/^\/oauth\/interaction\/([^/]+)\/(signin|consent)$/);
    const interaction = page ? `/oauth/interaction/${page[1]}` : null;
    let response: Response;
    if (page?.[2] === "signin") {
      pages.push("signin");
      if (!options.account) throw new Error("the flow asked for a sign-in but no account was given");
      const form = { action: "signin", email: options.account.email, password: options.account.password };
      response = await browser.fetch(interaction!, { form, headers: { origin: appUrl() } });
    } else if (page?.[2] === "consent") {
      pages.push("consent");
      expect(
        await consentView(db, new Headers({ cookie: browser.cookieFor(target.pathname) }), decodeURIComponent(page[1])),
      ).not.toBeNull();
      const form: Record<string, string> = { action: "consent", decision: options.decision ?? "allow" };
      if (options.health) form.separate_scope = "health:read";
      response = await browser.fetch(interaction!, { form, headers: { origin: appUrl() } });
    } else {
      response = await browser.fetch(target.toString());
    }
    const location = response.headers.get("location");
    if (![302, 303].includes(response.status) || !location)
      throw new Error(`unexpected ${response.status} at ${target}: ${(await response.text()).slice(0, 500)}`);
    next = new URL(location, target).toString();
  }
  throw new Error("too many redirects");
}

/** POSTs a form to an OAuth endpoint as a client would (no cookies). */
export const postForm = (path: string, form: Record<string, string> | URLSearchParams, headers: Record<string, string> = {}) =>
  send(buildRequest(path, { form, headers }));

function asClient(app: TestApp, form: Record<string, string>) {
  if (app.clientSecret) return postForm("/api/oauth/token", form, { authorization: basicAuth(app.clientId, app.clientSecret) });
  return postForm("/api/oauth/token", { ...form, client_id: app.clientId });
}

export const exchangeCode = (app: TestApp, code: string, verifier: string, extra: Record<string, string> = {}) =>
  asClient(app, { grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: verifier, ...extra });

export const refresh = (app: TestApp, refreshToken: string) => asClient(app, { grant_type: "refresh_token", refresh_token: refreshToken });

export const userinfo = (accessToken: string) =>
  send(buildRequest("/api/oauth/userinfo", { headers: { authorization: `Bearer ${accessToken}` } }));

/** First hop of an authorization request, not followed: where does the server send the browser? */
export async function firstHop(url: string) {
  const response = await new OAuthBrowser().fetch(url);
  const location = response.headers.get("location");
  return { status: response.status, location: location ? new URL(location, appUrl()) : null, body: location ? "" : await response.text() };
}

/** Authorizes (sign-in and consent) and returns the code and verifier without exchanging. */
export async function getCode(db: Db, app: TestApp, scope = "openid profile offline_access sessions:read") {
  const browser = new OAuthBrowser();
  const { verifier, challenge } = pkcePair();
  const url = authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, scope, prompt: "consent", codeChallenge: challenge });
  const { callback } = await runAuthorization(db, browser, url, app.redirectUri, { account: app.owner });
  const code = callback.searchParams.get("code");
  expect(code, callback.toString()).toBeTruthy();
  return { code: code!, verifier, browser, callback };
}

export interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
  expires_in: number;
  token_type: string;
}

/** The whole dance for an owner not yet signed in: authorize, sign in, consent, exchange. */
export async function authorizeAndExchange(
  db: Db,
  app: TestApp,
  options: { scope?: string; tokenResource?: string; health?: boolean } = {},
) {
  const browser = new OAuthBrowser();
  const { verifier, challenge } = pkcePair();
  const state = randomValue();
  const scope = options.scope ?? "openid profile email offline_access sessions:read";
  const url = authorizeUrl({
    clientId: app.clientId,
    redirectUri: app.redirectUri,
    scope,
    // A nonce belongs to OpenID Connect requests only (the provider refuses one without openid).
    nonce: scope.split(" ").includes("openid") ? undefined : null,
    prompt: "consent",
    codeChallenge: challenge,
    state,
  });
  const { callback } = await runAuthorization(db, browser, url, app.redirectUri, { account: app.owner, health: options.health });
  expect(callback.searchParams.get("error"), callback.toString()).toBeNull();
  expect(callback.searchParams.get("state")).toBe(state);
  const response = await exchangeCode(
    app,
    callback.searchParams.get("code")!,
    verifier,
    options.tokenResource ? { resource: options.tokenResource } : {},
  );
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return { tokens: JSON.parse(text) as Tokens, callback, browser, state };
}
