import * as client from "openid-client";
import { expect, test } from "@playwright/test";
import { newAccount, signUp, type TestAccount } from "./helpers";
import { signedInContext, trpcMutation } from "./api-helpers";
import {
  apiResourceFor,
  issuerFor,
  randomClientIp,
  registerApp,
  startCallbackServer,
  type AppOptions,
  type CallbackServer,
  type TestApp,
} from "./oauth-helpers";

/**
 * A relying party nobody here wrote: openid-client drives the whole flow
 * against the running server (discovery, authorization with PKCE in Chromium
 * through the real sign-in and consent pages, code exchange, ID token, the
 * Data API and userinfo, refresh, revocation), with only the parameters the
 * OpenID Connect and PKCE specifications define.
 */

/** Every client here redirects to a real loopback endpoint in the test process. */
async function appWithCallback(
  baseURL: string,
  options: AppOptions = {},
  owner?: TestAccount,
): Promise<{ app: TestApp; callbacks: CallbackServer }> {
  const callbacks = await startCallbackServer();
  openServers.push(callbacks);
  return { app: await registerApp(baseURL, { ...options, redirectUris: [callbacks.redirectUri] }, owner), callbacks };
}

const openServers: CallbackServer[] = [];
test.afterEach(async () => {
  while (openServers.length) await openServers.pop()!.close();
});

test.beforeEach(async ({ page }) => {
  await page.setExtraHTTPHeaders({ "x-forwarded-for": randomClientIp() });
});

async function discover(baseURL: string, app: TestApp): Promise<client.Configuration> {
  const auth = app.clientSecret ? client.ClientSecretBasic(app.clientSecret) : client.None();
  return client.discovery(new URL(issuerFor(baseURL)), app.clientId, undefined, auth, { execute: [client.allowInsecureRequests] });
}

test("confidential client following only the OIDC spec: discovery, PKCE in the browser, code exchange, Data API, userinfo, refresh, revoke", async ({
  page,
  baseURL,
}) => {
  const { app, callbacks } = await appWithCallback(baseURL!);
  // Both discovery locations give the same configuration; openid-client checks the issuer.
  const config = await discover(baseURL!, app);
  const viaWellKnown = await client.discovery(
    new URL(`${baseURL}/.well-known/openid-configuration/api`),
    app.clientId,
    undefined,
    client.ClientSecretBasic(app.clientSecret!),
    {
      execute: [client.allowInsecureRequests],
    },
  );
  expect(viaWellKnown.serverMetadata()).toEqual(config.serverMetadata());
  expect(config.serverMetadata().issuer).toBe(issuerFor(baseURL!));

  // Only the parameters OpenID Connect and PKCE define: no resource indicator anywhere (issue 14, defect 5).
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: app.redirectUri,
    scope: "openid profile email offline_access sessions:read health:read",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
    prompt: "consent",
  });
  expect(url.searchParams.has("resource")).toBe(false);

  await page.goto(url.href);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByText("E2E app wants to use your Paddle Results account")).toBeVisible();
  await page.getByLabel("Email").fill(app.owner.email);
  await page.getByLabel("Password").fill(app.owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page.getByRole("heading", { name: "Allow E2E app to access your account?" })).toBeVisible();
  await expect(page.getByText(app.owner.name).first()).toBeVisible();
  await expect(page.getByText("Read your sessions: splits, strokes, summaries and analyses")).toBeVisible();
  const health = page.getByRole("checkbox", { name: /health data/i });
  await expect(health).not.toBeChecked();
  await page.getByRole("button", { name: "Allow" }).click();

  const tokens = await client.authorizationCodeGrant(config, await callbacks.next(), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
  // The identity is in the ID token, whose claims the userinfo endpoint would otherwise give.
  const claims = tokens.claims()!;
  expect(claims.iss).toBe(issuerFor(baseURL!));
  expect(claims.aud).toBe(app.clientId);
  expect(claims.sub).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(claims).toMatchObject({ name: app.owner.name, email: app.owner.email });
  // A Data API token by default: the API scopes that were allowed (health:read was declined) and the identity scopes (GET /me).
  expect(tokens.scope?.split(" ").sort()).toEqual(["email", "openid", "profile", "sessions:read"]);
  expect(tokens.expiresIn()).toBeLessThanOrEqual(600);

  const dataApi = async (accessToken: string, path: string) => {
    const response = await fetch(`${baseURL}/api/v1${path}`, { headers: { authorization: `Bearer ${accessToken}` } });
    return { status: response.status, body: await response.json() };
  };
  const me = await dataApi(tokens.access_token, "/me");
  expect(me.status, JSON.stringify(me.body)).toBe(200);
  expect(me.body.data).toEqual({ sub: claims.sub, name: app.owner.name, email: app.owner.email });
  const sessions = await dataApi(tokens.access_token, "/sessions");
  expect(sessions.status, JSON.stringify(sessions.body)).toBe(200);
  expect(sessions.body.data).toEqual([]);
  // The same token works at userinfo: issued with openid, it names both audiences (issue 21).
  expect(await client.fetchUserInfo(config, tokens.access_token, claims.sub)).toMatchObject({
    sub: claims.sub,
    name: app.owner.name,
    email: app.owner.email,
    email_verified: false,
  });

  // Refresh rotates the refresh token and gives a Data API token again.
  const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
  expect(refreshed.refresh_token).toBeTruthy();
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  expect((await dataApi(refreshed.access_token, "/me")).status).toBe(200);
  expect((await client.fetchUserInfo(config, refreshed.access_token, claims.sub)).sub).toBe(claims.sub);

  // A refresh narrowed to the OIDC scopes (RFC 6749 §6) gives a userinfo-only token.
  const userinfo = await client.refreshTokenGrant(config, refreshed.refresh_token!, { scope: "openid profile email" });
  expect(userinfo.scope?.split(" ").sort()).toEqual(["email", "openid", "profile"]);
  const info = await client.fetchUserInfo(config, userinfo.access_token, claims.sub);
  expect(info).toMatchObject({ sub: claims.sub, name: app.owner.name, email: app.owner.email, email_verified: false });
  // The Data API refuses that token and says why: its audience.
  const refused = await dataApi(userinfo.access_token, "/me");
  expect(refused.status).toBe(401);
  expect(refused.body).toMatchObject({ error: "invalid_token", request_id: expect.stringMatching(/^req_/) });
  expect(refused.body.error_description).toContain(`audience is not the Data API`);
  expect(refused.body.error_description).toContain(apiResourceFor(baseURL!));
  // Sending resource explicitly still works.
  const explicit = await client.refreshTokenGrant(config, userinfo.refresh_token!, { resource: apiResourceFor(baseURL!) });
  expect(explicit.scope?.split(" ").sort()).toEqual(["email", "openid", "profile", "sessions:read"]);
  expect((await dataApi(explicit.access_token, "/sessions")).status).toBe(200);

  // Revocation ends the grant: every token of it stops working at once.
  await client.tokenRevocation(config, explicit.refresh_token!);
  expect((await dataApi(explicit.access_token, "/me")).status).toBe(401);
  await expect(client.fetchUserInfo(config, userinfo.access_token, claims.sub)).rejects.toThrow();
  await expect(client.refreshTokenGrant(config, explicit.refresh_token!)).rejects.toThrow();
});

test("an authorization of OIDC scopes alone keeps its userinfo token, which the Data API refuses naming the audience", async ({
  page,
  baseURL,
}) => {
  const owner = newAccount("oidc-only");
  await signUp(page, owner);
  const { app, callbacks } = await appWithCallback(baseURL!, {}, owner);
  const config = await discover(baseURL!, app);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  await page.goto(
    client.buildAuthorizationUrl(config, {
      redirect_uri: app.redirectUri,
      scope: "openid profile email",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    }).href,
  );
  await page.getByRole("button", { name: "Allow" }).click();
  const tokens = await client.authorizationCodeGrant(config, await callbacks.next(), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
  const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
  expect(info).toMatchObject({ name: owner.name, email: owner.email });
  const response = await fetch(`${baseURL}/api/v1/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(response.status).toBe(401);
  expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
  expect((await response.json()).error_description).toContain(apiResourceFor(baseURL!));
});

test("public client with the site session: no password asked, PKCE without a secret", async ({ page, baseURL }) => {
  const owner = newAccount("rp");
  await signUp(page, owner);
  const { app, callbacks } = await appWithCallback(baseURL!, { clientType: "public", name: "Pocket app" }, owner);
  const config = await discover(baseURL!, app);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: app.redirectUri,
    scope: "openid profile sessions:read",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
    resource: apiResourceFor(baseURL!),
  });
  await page.goto(url.href);
  // Signed in on the site already: straight to the consent screen.
  await expect(page.getByRole("heading", { name: "Allow Pocket app to access your account?" })).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
  const tokens = await client.authorizationCodeGrant(
    config,
    await callbacks.next(),
    { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce },
    { resource: apiResourceFor(baseURL!) },
  );
  expect(tokens.scope?.split(" ").sort()).toEqual(["openid", "profile", "sessions:read"]);
  expect(tokens.refresh_token).toBeUndefined();

  // Consent is remembered: the next authorization returns a code without any page.
  const again = client.buildAuthorizationUrl(config, {
    redirect_uri: app.redirectUri,
    scope: "openid profile sessions:read",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  await page.goto(again.href);
  const remembered = await callbacks.next();
  expect(remembered.searchParams.get("error"), remembered.toString()).toBeNull();
  expect(remembered.searchParams.get("code")).toBeTruthy();
});

test("prompt=login and max_age force a fresh sign-in; a recent one satisfies max_age", async ({ page, baseURL }) => {
  const owner = newAccount("fresh");
  await signUp(page, owner);
  const { app, callbacks } = await appWithCallback(baseURL!, {}, owner);
  const config = await discover(baseURL!, app);

  const authorize = async (extra: Record<string, string>) => {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    await page.goto(
      client.buildAuthorizationUrl(config, {
        redirect_uri: app.redirectUri,
        scope: "openid profile",
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state,
        nonce,
        ...extra,
      }).href,
    );
    return { verifier, state, nonce };
  };

  // prompt=login: the password again, although the site session is there.
  const first = await authorize({ prompt: "login consent" });
  await expect(page.getByText("It asks you to enter your password again")).toBeVisible();
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Allow" }).click();
  const signedInAt = Math.floor(Date.now() / 1000);
  const tokens = await client.authorizationCodeGrant(config, await callbacks.next(), {
    pkceCodeVerifier: first.verifier,
    expectedState: first.state,
    expectedNonce: first.nonce,
  });
  expect(Math.abs((tokens.claims()!.auth_time as number) - signedInAt)).toBeLessThan(30);

  // max_age=3600 is satisfied by that sign-in: no page at all.
  await authorize({ max_age: "3600" });
  const recent = await callbacks.next();
  expect(recent.searchParams.get("error"), recent.toString()).toBeNull();
  expect(recent.searchParams.get("code")).toBeTruthy();

  // max_age=0 always wants a new sign-in.
  await authorize({ max_age: "0" });
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(page.getByText("It asks you to enter your password again")).toBeVisible();
});

test("signing out of the site makes the next authorization ask for the password", async ({ page, baseURL }) => {
  const owner = newAccount("signout");
  await signUp(page, owner);
  const { app, callbacks } = await appWithCallback(baseURL!, {}, owner);
  const config = await discover(baseURL!, app);
  const go = async () => {
    const verifier = client.randomPKCECodeVerifier();
    await page.goto(
      client.buildAuthorizationUrl(config, {
        redirect_uri: app.redirectUri,
        scope: "openid",
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        state: client.randomState(),
        nonce: client.randomNonce(),
      }).href,
    );
  };
  await go();
  await page.getByRole("button", { name: "Allow" }).click();
  expect((await callbacks.next()).searchParams.get("code")).toBeTruthy();
  await page.goto("/");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await go();
  await expect(page.getByLabel("Password")).toBeVisible();
  // Withdrawing everything else also works from the tRPC side the portal uses.
  const context = await signedInContext(baseURL!, owner);
  const connected = await context.get("/api/trpc/applications.connected");
  expect((await connected.json()).result.data).toHaveLength(1);
  await trpcMutation(context, "applications.revokeConnected", { applicationId: app.id });
});

test("switching accounts on the site switches the account at the authorization server", async ({ page, baseURL }) => {
  const first = newAccount("first");
  await signUp(page, first);
  const { app: firstApp, callbacks } = await appWithCallback(baseURL!, {}, first);
  const firstConfig = await discover(baseURL!, firstApp);
  const go = async (config: client.Configuration, app: TestApp) =>
    page.goto(
      client.buildAuthorizationUrl(config, {
        redirect_uri: app.redirectUri,
        scope: "openid profile",
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
        code_challenge_method: "S256",
        state: client.randomState(),
        nonce: client.randomNonce(),
      }).href,
    );
  await go(firstConfig, firstApp);
  await page.getByRole("button", { name: "Allow" }).click();
  expect((await callbacks.next()).searchParams.get("code")).toBeTruthy();

  // Someone else signs in to the site in the same browser and authorizes their own application.
  await page.goto("/");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  const second = newAccount("second");
  await signUp(page, second);
  const secondApp = await registerApp(baseURL!, { redirectUris: [callbacks.redirectUri] }, second);
  await go(await discover(baseURL!, secondApp), secondApp);
  await expect(page.getByRole("heading", { name: "Allow E2E app to access your account?" })).toBeVisible();
  await expect(page.getByText(`${second.name} (${second.email})`)).toBeVisible();
  await page.getByRole("button", { name: "Allow" }).click();
  expect((await callbacks.next()).searchParams.get("code")).toBeTruthy();
  // The site session is still the second user's.
  await page.goto("/account");
  await expect(page.getByText(second.email).first()).toBeVisible();
});

test("signing out at the authorization server ends the site session too", async ({ page, baseURL }) => {
  const owner = newAccount("logout");
  await signUp(page, owner);
  const { app, callbacks } = await appWithCallback(baseURL!, {}, owner);
  const config = await discover(baseURL!, app);
  await page.goto(
    client.buildAuthorizationUrl(config, {
      redirect_uri: app.redirectUri,
      scope: "openid",
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
      state: client.randomState(),
      nonce: client.randomNonce(),
    }).href,
  );
  await page.getByRole("button", { name: "Allow" }).click();
  await callbacks.next();

  await page.goto(client.buildEndSessionUrl(config, { client_id: app.clientId }).href);
  await expect(page.getByText("Do you want to sign out of Paddle Results?")).toBeVisible();
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expect(page.getByRole("heading", { name: "Signed out" })).toBeVisible();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/signin/);
});
