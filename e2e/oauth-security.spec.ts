import http from "node:http";
import { request as playwrightRequest } from "@playwright/test";
import { signedInContext, signUpOverHttp, trpcMutation } from "./api-helpers";
import { E2E_ACCOUNTS } from "./accounts";
import { newAccount } from "./helpers";
import { expect, test } from "./fixtures";
import {
  apiResourceFor,
  authorizeAndExchange,
  authorizeUrl,
  basicAuth,
  exchangeCode,
  issuerFor,
  newBrowser,
  pkcePair,
  postForm,
  randomClientIp,
  randomValue,
  refresh,
  registerApp,
  runAuthorization,
  userinfo,
  USERINFO_SCOPE,
  type TestApp,
} from "./oauth-helpers";

/**
 * The authorization server's security suite (issue 5): one test per attack or
 * rule, against the running server and its real database. Every request goes
 * through the public HTTP endpoints.
 */

/** First hop of an authorization request, not followed: where does the server send the browser? */
async function firstHop(baseURL: string, url: string) {
  const browser = await newBrowser(baseURL);
  const response = await browser.get(url);
  const location = response.headers()["location"];
  return { status: response.status(), location: location ? new URL(location, baseURL) : null, body: location ? "" : await response.text() };
}

/** Authorizes and returns the code and verifier without exchanging. */
async function getCode(baseURL: string, app: TestApp, scope = "openid profile offline_access sessions:read") {
  const browser = await newBrowser(baseURL);
  const { verifier, challenge } = pkcePair();
  const url = authorizeUrl(baseURL, { clientId: app.clientId, redirectUri: app.redirectUri, scope, prompt: "consent", codeChallenge: challenge });
  const { callback } = await runAuthorization(browser, baseURL, url, app.redirectUri, { account: app.owner });
  const code = callback.searchParams.get("code");
  expect(code, callback.toString()).toBeTruthy();
  return { code: code!, verifier, browser, callback };
}

async function operatorAllowsIntrospection(baseURL: string, appId: number) {
  const operator = await signedInContext(baseURL, E2E_ACCOUNTS.operator);
  await trpcMutation(operator, "operator.setIntrospection", { id: appId, allowed: true });
  await operator.dispose();
}

test.describe("PKCE", () => {
  test("an authorization request without a code challenge is refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const hop = await firstHop(baseURL!, authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, codeChallenge: null, codeChallengeMethod: null }));
    expect(hop.location?.toString().startsWith(app.redirectUri)).toBe(true);
    expect(hop.location!.searchParams.get("error")).toBe("invalid_request");
    expect(hop.location!.searchParams.get("code")).toBeNull();
  });

  test("the plain code challenge method is refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!, { clientType: "public" });
    const hop = await firstHop(baseURL!, authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, codeChallenge: "a".repeat(43), codeChallengeMethod: "plain" }));
    expect(hop.location!.searchParams.get("error")).toBe("invalid_request");
    expect(hop.location!.searchParams.get("code")).toBeNull();
  });

  test("a wrong code verifier does not redeem the code", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { code } = await getCode(baseURL!, app);
    const response = await exchangeCode(baseURL!, app, code, pkcePair().verifier);
    expect(response.status()).toBe(400);
    expect((await response.json()).error).toBe("invalid_grant");
  });
});

test.describe("redirect URIs", () => {
  test("an unregistered redirect URI gets an error page, never a redirect", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const hop = await firstHop(baseURL!, authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: "https://attacker.example/callback" }));
    expect(hop.location).toBeNull();
    expect(hop.status).toBe(400);
    expect(hop.body).toContain("redirect_uri");
  });

  test("near misses of a registered redirect URI are refused too", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const registered = new URL(app.redirectUri);
    const nearMisses = [
      `${app.redirectUri}/`,
      `${app.redirectUri}?next=1`,
      app.redirectUri.replace("/callback", "/Callback"),
      app.redirectUri.replace("/callback", "/callback/../callback"),
      `http://localhost:${registered.port}/callback`,
      `http://127.0.0.1:${Number(registered.port) + 1}/callback`,
      `https://127.0.0.1:${registered.port}/callback`,
      `${app.redirectUri}#frag`,
    ];
    for (const redirectUri of nearMisses) {
      const hop = await firstHop(baseURL!, authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri }));
      expect(hop.location, redirectUri).toBeNull();
      expect(hop.status, redirectUri).toBe(400);
    }
  });
});

test.describe("authorization codes", () => {
  test("a code works once; reusing it fails and kills the tokens it gave", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { code, verifier } = await getCode(baseURL!, app, USERINFO_SCOPE);
    const first = await exchangeCode(baseURL!, app, code, verifier);
    expect(first.status()).toBe(200);
    const tokens = await first.json();
    expect((await userinfo(baseURL!, tokens.access_token)).status()).toBe(200);

    const second = await exchangeCode(baseURL!, app, code, verifier);
    expect(second.status()).toBe(400);
    expect((await second.json()).error).toBe("invalid_grant");
    expect((await userinfo(baseURL!, tokens.access_token)).status()).toBe(401);
    expect((await refresh(baseURL!, app, tokens.refresh_token)).status()).toBe(400);
  });

  test("another client cannot redeem a client's code", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const other = await registerApp(baseURL!, { redirectUris: [app.redirectUri] });
    const { code, verifier } = await getCode(baseURL!, app);
    const stolen = await exchangeCode(baseURL!, { ...other, redirectUri: app.redirectUri }, code, verifier);
    expect(stolen.status()).toBe(400);
    expect((await stolen.json()).error).toBe("invalid_grant");
  });
});

test.describe("refresh tokens", () => {
  test("refresh tokens rotate, and replaying a used one revokes the whole family", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { tokens } = await authorizeAndExchange(baseURL!, app, { scope: USERINFO_SCOPE });
    const rotated = await refresh(baseURL!, app, tokens.refresh_token!);
    expect(rotated.status()).toBe(200);
    const next = await rotated.json();
    expect(next.refresh_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);

    const replay = await refresh(baseURL!, app, tokens.refresh_token!);
    expect(replay.status()).toBe(400);
    expect((await replay.json()).error).toBe("invalid_grant");
    // The family is dead: the newest refresh token and access token too.
    expect((await refresh(baseURL!, app, next.refresh_token)).status()).toBe(400);
    expect((await userinfo(baseURL!, next.access_token)).status()).toBe(401);
  });

  test("parallel refreshes with one token: at most one wins, and the family is revoked", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { tokens } = await authorizeAndExchange(baseURL!, app, { scope: USERINFO_SCOPE });
    const responses = await Promise.all(Array.from({ length: 4 }, () => refresh(baseURL!, app, tokens.refresh_token!)));
    const winners = responses.filter((r) => r.status() === 200);
    expect(winners.length).toBeLessThanOrEqual(1);
    for (const loser of responses.filter((r) => r.status() !== 200)) {
      expect(loser.status()).toBe(400);
      expect((await loser.json()).error).toBe("invalid_grant");
    }
    for (const winner of winners) {
      const won = await winner.json();
      expect((await refresh(baseURL!, app, won.refresh_token)).status()).toBe(400);
      expect((await userinfo(baseURL!, won.access_token)).status()).toBe(401);
    }
  });
});

test.describe("revocation", () => {
  test("revoking an access token makes the next call 401 and ends the grant", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { tokens } = await authorizeAndExchange(baseURL!, app, { scope: USERINFO_SCOPE });
    expect((await userinfo(baseURL!, tokens.access_token)).status()).toBe(200);
    const revoked = await postForm(baseURL!, "/api/oauth/revoke", { token: tokens.access_token }, { authorization: basicAuth(app.clientId, app.clientSecret!) });
    expect(revoked.status()).toBe(200);
    const after = await userinfo(baseURL!, tokens.access_token);
    expect(after.status()).toBe(401);
    expect(after.headers()["www-authenticate"]).toContain("invalid_token");
    expect((await refresh(baseURL!, app, tokens.refresh_token!)).status()).toBe(400);
  });

  test("revoking the refresh token kills the access tokens of the grant", async ({ baseURL }) => {
    const app = await registerApp(baseURL!, { clientType: "public" });
    const { tokens } = await authorizeAndExchange(baseURL!, app, { scope: USERINFO_SCOPE });
    const revoked = await postForm(baseURL!, "/api/oauth/revoke", { token: tokens.refresh_token!, client_id: app.clientId });
    expect(revoked.status()).toBe(200);
    expect((await userinfo(baseURL!, tokens.access_token)).status()).toBe(401);
  });

  test("a client cannot revoke another client's token", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const other = await registerApp(baseURL!);
    const { tokens } = await authorizeAndExchange(baseURL!, app, { scope: USERINFO_SCOPE });
    await postForm(baseURL!, "/api/oauth/revoke", { token: tokens.access_token }, { authorization: basicAuth(other.clientId, other.clientSecret!) });
    expect((await userinfo(baseURL!, tokens.access_token)).status()).toBe(200);
  });
});

test.describe("client authentication", () => {
  test("a confidential client must use HTTP Basic: client_secret_post and no authentication are refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { code, verifier } = await getCode(baseURL!, app);
    const base = { grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: verifier };
    const post = await postForm(baseURL!, "/api/oauth/token", { ...base, client_id: app.clientId, client_secret: app.clientSecret! });
    expect(post.status()).toBe(401);
    expect((await post.json()).error).toBe("invalid_client");
    const none = await postForm(baseURL!, "/api/oauth/token", { ...base, client_id: app.clientId });
    expect(none.status()).toBe(401);
    expect((await none.json()).error).toBe("invalid_client");
  });

  test("a wrong secret, a near-miss secret and the secret's stored form are refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { code, verifier } = await getCode(baseURL!, app);
    for (const secret of ["svcas_wrong", `${app.clientSecret}x`, app.clientSecret!.slice(0, -1), app.clientSecret!.toUpperCase()]) {
      const response = await postForm(
        baseURL!,
        "/api/oauth/token",
        { grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: verifier },
        { authorization: basicAuth(app.clientId, secret) },
      );
      expect(response.status(), secret).toBe(401);
      expect((await response.json()).error).toBe("invalid_client");
    }
    // The code was never redeemed, so the right secret still works.
    expect((await exchangeCode(baseURL!, app, code, verifier)).status()).toBe(200);
  });

  test("a public client presenting a secret is refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!, { clientType: "public" });
    const { code, verifier } = await getCode(baseURL!, app);
    const response = await postForm(
      baseURL!,
      "/api/oauth/token",
      { grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: verifier },
      { authorization: basicAuth(app.clientId, "svcas_madeup") },
    );
    expect(response.status()).toBe(401);
    expect((await response.json()).error).toBe("invalid_client");
  });

  test("a rotated secret stops working at once", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const owner = await signedInContext(baseURL!, app.owner);
    const rotated = await trpcMutation<{ clientSecret: string }>(owner, "applications.rotateSecret", { id: app.id });
    const { code, verifier } = await getCode(baseURL!, app);
    expect((await exchangeCode(baseURL!, app, code, verifier)).status()).toBe(401);
    expect((await exchangeCode(baseURL!, { ...app, clientSecret: rotated.clientSecret }, code, verifier)).status()).toBe(200);
  });
});

test.describe("introspection", () => {
  test("a confidential client the operator has not approved gets an error, whatever the token", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { tokens } = await authorizeAndExchange(baseURL!, app);
    for (const token of [tokens.access_token, "not-a-token"]) {
      const response = await postForm(baseURL!, "/api/oauth/introspect", { token }, { authorization: basicAuth(app.clientId, app.clientSecret!) });
      expect(response.status()).toBe(403);
      const body = await response.json();
      expect(body.error).toBe("unauthorized_client");
      expect(body.active).toBeUndefined();
    }
  });

  test("a public client cannot introspect", async ({ baseURL }) => {
    const app = await registerApp(baseURL!, { clientType: "public" });
    const { tokens } = await authorizeAndExchange(baseURL!, app);
    const response = await postForm(baseURL!, "/api/oauth/introspect", { token: tokens.access_token, client_id: app.clientId });
    expect(response.status()).toBe(401);
    const body = await response.json();
    expect(body.error).toBe("invalid_client");
    expect(body.active).toBeUndefined();
  });

  test("an approved confidential client introspects its own tokens, with a pairwise sub", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    await operatorAllowsIntrospection(baseURL!, app.id);
    const { tokens } = await authorizeAndExchange(baseURL!, app, { tokenResource: apiResourceFor(baseURL!) });
    const response = await postForm(baseURL!, "/api/oauth/introspect", { token: tokens.access_token }, { authorization: basicAuth(app.clientId, app.clientSecret!) });
    expect(response.status()).toBe(200);
    const body = await response.json();
    // Issued with openid: the token names both audiences, the Data API and the userinfo endpoint.
    expect(body).toMatchObject({ active: true, client_id: app.clientId, aud: [apiResourceFor(baseURL!), `${issuerFor(baseURL!)}/oauth/userinfo`], iss: issuerFor(baseURL!) });
    expect(body.sub).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.scope.split(" ")).toContain("sessions:read");
    // And another client's token is "inactive" to it.
    const other = await registerApp(baseURL!);
    const { tokens: otherTokens } = await authorizeAndExchange(baseURL!, other);
    const foreign = await postForm(baseURL!, "/api/oauth/introspect", { token: otherTokens.access_token }, { authorization: basicAuth(app.clientId, app.clientSecret!) });
    expect(await foreign.json()).toEqual({ active: false });
  });
});

test.describe("audience", () => {
  test("tokens for another resource are not issued", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const hop = await firstHop(baseURL!, authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, resource: "https://elsewhere.example/api" }));
    expect(hop.location!.searchParams.get("error")).toBe("invalid_target");
    const { code, verifier } = await getCode(baseURL!, app);
    const response = await exchangeCode(baseURL!, app, code, verifier, { resource: "https://elsewhere.example/api" });
    expect(response.status()).toBe(400);
    expect((await response.json()).error).toBe("invalid_target");
  });

  test("a Data API token issued with openid is accepted at userinfo; one without openid is refused there", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { tokens } = await authorizeAndExchange(baseURL!, app, { tokenResource: apiResourceFor(baseURL!) });
    const accepted = await userinfo(baseURL!, tokens.access_token);
    expect(accepted.status(), await accepted.text()).toBe(200);
    expect(await accepted.json()).toMatchObject({ sub: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), name: app.owner.name, email: app.owner.email, email_verified: false });

    const apiOnly = await registerApp(baseURL!, { scopes: ["sessions:read"] });
    const { tokens: apiTokens } = await authorizeAndExchange(baseURL!, apiOnly, { scope: "sessions:read", tokenResource: apiResourceFor(baseURL!) });
    const refused = await userinfo(baseURL!, apiTokens.access_token);
    expect(refused.status()).toBe(401);
    expect(refused.headers()["www-authenticate"]).toContain('error="invalid_token"');
    expect((await refused.json()).error_description).toContain("not issued for the userinfo endpoint");
  });
});

test.describe("authorization request parameters", () => {
  test("state is required", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const hop = await firstHop(baseURL!, authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, state: null }));
    expect(hop.location!.searchParams.get("error")).toBe("invalid_request");
    expect(hop.location!.searchParams.get("error_description")).toContain("state");
  });

  test("nonce is required with the openid scope", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const hop = await firstHop(baseURL!, authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, nonce: null, scope: "openid profile" }));
    expect(hop.location!.searchParams.get("error")).toBe("invalid_request");
    expect(hop.location!.searchParams.get("error_description")).toContain("nonce");
  });

  test("duplicate parameters are refused at the authorization and token endpoints", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const hop = await firstHop(baseURL!, authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, extra: [["scope", "openid email"]] }));
    expect(hop.location!.searchParams.get("error")).toBe("invalid_request");
    expect(hop.location!.searchParams.get("error_description")).toContain("scope");

    const { code, verifier } = await getCode(baseURL!, app);
    const context = await playwrightRequest.newContext({ baseURL });
    const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: verifier });
    body.append("code", code);
    const response = await context.post("/api/oauth/token", {
      data: body.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: basicAuth(app.clientId, app.clientSecret!) },
    });
    expect(response.status()).toBe(400);
    expect((await response.json()).error).toBe("invalid_request");
  });

  test("scopes the application did not register are refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!, { scopes: ["openid", "sessions:read"] });
    const hop = await firstHop(baseURL!, authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, scope: "openid sessions:read health:read" }));
    expect(hop.location!.searchParams.get("error")).toBe("invalid_scope");
  });

  test("the authorization response carries iss, on success and on error", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { callback } = await getCode(baseURL!, app);
    expect(callback.searchParams.get("iss")).toBe(issuerFor(baseURL!));
    const hop = await firstHop(baseURL!, authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, state: null }));
    expect(hop.location!.searchParams.get("iss")).toBe(issuerFor(baseURL!));
  });
});

test.describe("grant types", () => {
  test("the implicit flow is refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    for (const responseType of ["token", "id_token", "code id_token", "id_token token"]) {
      const url = new URL(authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri }));
      url.searchParams.set("response_type", responseType);
      const hop = await firstHop(baseURL!, url.toString());
      const error = hop.location?.searchParams.get("error") ?? new URLSearchParams(hop.location?.hash.slice(1)).get("error");
      expect(error, responseType).toBe("unsupported_response_type");
      expect(hop.location?.searchParams.get("access_token") ?? null).toBeNull();
      expect(hop.location?.hash ?? "").not.toContain("access_token");
    }
  });

  test("the password grant is refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const response = await postForm(baseURL!, "/api/oauth/token", { grant_type: "password", username: app.owner.email, password: app.owner.password }, { authorization: basicAuth(app.clientId, app.clientSecret!) });
    expect(response.status()).toBe(400);
    expect((await response.json()).error).toBe("unsupported_grant_type");
  });

  test("the client credentials grant is refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const response = await postForm(baseURL!, "/api/oauth/token", { grant_type: "client_credentials", scope: "sessions:read" }, { authorization: basicAuth(app.clientId, app.clientSecret!) });
    expect(response.status()).toBe(400);
    expect((await response.json()).error).toBe("unsupported_grant_type");
  });
});

test.describe("bearer tokens", () => {
  test("an access token in the query string is refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const { tokens } = await authorizeAndExchange(baseURL!, app, { scope: USERINFO_SCOPE });
    const context = await playwrightRequest.newContext({ baseURL });
    const response = await context.get(`/api/oauth/userinfo?access_token=${encodeURIComponent(tokens.access_token)}`);
    expect([400, 401]).toContain(response.status());
    expect(JSON.stringify(await response.json())).not.toContain(app.owner.email);
  });
});

test.describe("subjects", () => {
  test("sub is pairwise: stable for an application, different in another sector, never an internal id", async ({ baseURL }) => {
    // Sign-up is the one place the internal id is visible (the portal's own API returns it).
    const owner = newAccount("pairwise");
    const signUpContext = await playwrightRequest.newContext({ baseURL });
    const { id: internalId } = await trpcMutation<{ id: number }>(signUpContext, "account.signUp", owner);
    await signUpContext.dispose();
    const port = 40000 + Math.floor(Math.random() * 20000);
    const appA = await registerApp(baseURL!, { redirectUris: [`http://127.0.0.1:${port}/callback`] }, owner);
    const appB = await registerApp(baseURL!, { redirectUris: [`http://localhost:${port}/callback`] }, owner);
    const subOf = async (app: TestApp) => {
      const { tokens } = await authorizeAndExchange(baseURL!, app, { scope: "openid profile email" });
      const claims = JSON.parse(Buffer.from(tokens.id_token!.split(".")[1], "base64url").toString());
      const info = await (await userinfo(baseURL!, tokens.access_token)).json();
      expect(info.sub).toBe(claims.sub);
      // The internal id never leaves: not as sub, not in any claim or token response member.
      expect(claims.sub).not.toBe(String(internalId));
      for (const value of [...Object.values(claims), ...Object.values(info), ...Object.values(tokens)]) {
        if (typeof value === "string") expect(value).not.toMatch(/^\d{1,10}$/);
        expect(value).not.toBe(internalId);
      }
      return claims.sub as string;
    };
    const first = await subOf(appA);
    const again = await subOf(appA);
    const other = await subOf(appB);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
  });
});

test.describe("issuer and discovery", () => {
  /** Raw HTTP so the Host header can be anything. */
  function getWithHost(baseURL: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
    const url = new URL(path, baseURL);
    return new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "GET", headers }, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  test("a spoofed Host (or X-Forwarded-Host) does not change the issuer or any endpoint", async ({ baseURL }) => {
    const spoofs: Record<string, string>[] = [{ host: "evil.example" }, { host: "evil.example:443", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" }];
    for (const headers of spoofs) {
      const { status, body } = await getWithHost(baseURL!, "/.well-known/openid-configuration/api", headers);
      expect(status).toBe(200);
      expect(body).not.toContain("evil.example");
      const metadata = JSON.parse(body);
      expect(metadata.issuer).toBe(issuerFor(baseURL!));
      for (const key of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "revocation_endpoint", "introspection_endpoint", "end_session_endpoint"]) {
        expect(metadata[key], key).toMatch(new RegExp(`^${baseURL}/api/oauth/`));
      }
    }
  });

  test("discovery answers at the OpenID and RFC 8414 locations with one document", async ({ baseURL }) => {
    const context = await playwrightRequest.newContext({ baseURL });
    const documents = [];
    for (const path of [
      "/.well-known/openid-configuration/api",
      "/.well-known/oauth-authorization-server/api",
      "/api/.well-known/openid-configuration",
      "/.well-known/openid-configuration",
      "/.well-known/oauth-authorization-server",
    ]) {
      const response = await context.get(path);
      expect(response.status(), path).toBe(200);
      documents.push(await response.json());
    }
    for (const doc of documents) expect(doc).toEqual(documents[0]);
    expect(documents[0]).toMatchObject({
      issuer: issuerFor(baseURL!),
      authorization_endpoint: `${baseURL}/api/oauth/authorize`,
      token_endpoint: `${baseURL}/api/oauth/token`,
      userinfo_endpoint: `${baseURL}/api/oauth/userinfo`,
      revocation_endpoint: `${baseURL}/api/oauth/revoke`,
      introspection_endpoint: `${baseURL}/api/oauth/introspect`,
      jwks_uri: `${baseURL}/api/oauth/jwks.json`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "none"],
      subject_types_supported: ["pairwise"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(documents[0].scopes_supported).toEqual([
      "openid", "profile", "email", "offline_access", "catalog:read", "athlete:read", "sessions:read", "trainings:read",
      "workouts:read", "equipment:read", "records:read", "exports:create", "health:read", "devices:read", "devices:files", "svcsim:embed",
    ]);
    const jwks = await (await context.get("/api/oauth/jwks.json")).json();
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) {
      for (const privateMember of ["d", "p", "q", "dp", "dq", "qi"]) expect(key[privateMember]).toBeUndefined();
    }
  });
});

test.describe("ownership", () => {
  test("only the owner can authorize: another signed-in user gets access_denied before any consent screen", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const stranger = await signUpOverHttp(baseURL!, "stranger");
    const browser = await newBrowser(baseURL!);
    const url = authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, prompt: "consent" });
    const { callback, pages } = await runAuthorization(browser, baseURL!, url, app.redirectUri, { account: stranger });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("code")).toBeNull();
    expect(pages).toEqual(["signin"]);
  });
});

test.describe("pages and cookies", () => {
  test("sign-in and consent pages cannot be framed and send no referrer; cookies are HttpOnly and SameSite", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const browser = await newBrowser(baseURL!);
    const checkCookies = (response: Awaited<ReturnType<typeof browser.get>>) => {
      const cookies = response.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie").map((h) => h.value);
      for (const cookie of cookies) {
        expect(cookie, cookie).toMatch(/;\s*httponly/i);
        expect(cookie, cookie).toMatch(/;\s*samesite=lax/i);
        // The e2e server runs on plain http://localhost; with an https APP_URL every cookie is Secure.
        expect(cookie, cookie).not.toMatch(/;\s*secure/i);
      }
      return cookies.length;
    };
    const checkPage = (response: Awaited<ReturnType<typeof browser.get>>) => {
      const headers = response.headers();
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(headers["referrer-policy"]).toBe("no-referrer");
      expect(headers["cache-control"]).toContain("no-store");
    };
    const start = await browser.get(authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, prompt: "consent" }));
    expect(checkCookies(start)).toBeGreaterThan(0);
    const interaction = new URL(start.headers()["location"]).pathname;
    const toSignIn = await browser.get(interaction);
    const signInPage = await browser.get(new URL(toSignIn.headers()["location"], baseURL).pathname);
    expect(signInPage.status()).toBe(200);
    checkPage(signInPage);
    const signedIn = await browser.post(interaction, { form: { action: "signin", email: app.owner.email, password: app.owner.password }, headers: { origin: "null" } });
    expect(checkCookies(signedIn)).toBeGreaterThan(0);
    let location = signedIn.headers()["location"];
    for (let hop = 0; hop < 5 && !location.endsWith("/consent"); hop++) {
      const response = await browser.get(location);
      checkCookies(response);
      location = new URL(response.headers()["location"], baseURL).toString();
    }
    const consentPage = await browser.get(location);
    expect(consentPage.status()).toBe(200);
    checkPage(consentPage);
  });

  test("a consent form posted from another site is refused", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const browser = await newBrowser(baseURL!);
    const url = authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, prompt: "consent" });
    const start = await browser.get(url);
    const interaction = new URL(start.headers()["location"]).pathname;
    const forged = await browser.post(interaction, { form: { action: "consent", decision: "allow" }, headers: { origin: "https://attacker.example", "sec-fetch-site": "cross-site" } });
    expect(forged.status()).toBe(403);
  });
});

test.describe("rate limits", () => {
  // Fixed windows: a run may straddle a window boundary, so each test keeps going up to twice
  // the limit; the first refusal must come after at least `limit` accepted requests.
  test("the token endpoint limits requests per client", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    let limitedAt = 0;
    for (let i = 1; i <= 121 && !limitedAt; i++) {
      const response = await postForm(baseURL!, "/api/oauth/token", { grant_type: "authorization_code", code: `bogus-${i}`, redirect_uri: app.redirectUri, code_verifier: "x".repeat(43) }, { authorization: basicAuth(app.clientId, app.clientSecret!) });
      if (response.status() === 429) {
        limitedAt = i;
        expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
        expect((await response.json()).error).toBe("too_many_requests");
      } else {
        expect(response.status()).toBe(400);
        expect(response.headers()["x-ratelimit-limit"]).toBe("60");
      }
    }
    expect(limitedAt).toBeGreaterThan(60);
  });

  test("the introspection endpoint limits requests per client", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    await operatorAllowsIntrospection(baseURL!, app.id);
    let limitedAt = 0;
    for (let i = 1; i <= 241 && !limitedAt; i++) {
      const response = await postForm(baseURL!, "/api/oauth/introspect", { token: `bogus-${i}` }, { authorization: basicAuth(app.clientId, app.clientSecret!) });
      if (response.status() === 429) limitedAt = i;
      else expect(response.status()).toBe(200);
    }
    expect(limitedAt).toBeGreaterThan(120);
  });

  test("the sign-in page limits password attempts", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const browser = await newBrowser(baseURL!);
    const start = await browser.get(authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri }));
    const interaction = new URL(start.headers()["location"]).pathname;
    let limitedAt = 0;
    for (let i = 1; i <= 21; i++) {
      // Different unknown accounts each time: the per-account lock-out never applies, only the rate limit.
      const response = await browser.post(interaction, { form: { action: "signin", email: `nobody-${randomValue()}@e2e.example`, password: "not-a-password" }, headers: { origin: baseURL! } });
      if (response.status() === 429) {
        limitedAt = i;
        expect(await response.text()).toContain("Too many sign-in attempts");
        break;
      }
      expect(response.status()).toBe(303);
    }
    expect(limitedAt).toBeGreaterThan(10);
    // The owner's right password is refused too while the limit lasts.
    const blocked = await browser.post(interaction, { form: { action: "signin", email: app.owner.email, password: app.owner.password }, headers: { origin: baseURL! } });
    expect(blocked.status()).toBe(429);
  });

  test("sign-in attempts are limited per client address across sign-in pages", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const ip = randomClientIp();
    let limitedAt = 0;
    for (let i = 1; i <= 61 && !limitedAt; i++) {
      // A new authorization request (a new sign-in page) every few attempts, all from one address.
      const browser = await newBrowser(baseURL!, ip);
      const start = await browser.get(authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri }));
      const interaction = new URL(start.headers()["location"]).pathname;
      const response = await browser.post(interaction, { form: { action: "signin", email: `nobody-${randomValue()}@e2e.example`, password: "not-a-password" }, headers: { origin: baseURL! } });
      if (response.status() === 429) limitedAt = i;
      else expect(response.status()).toBe(303);
      await browser.dispose();
    }
    expect(limitedAt).toBeGreaterThan(30);
  });
});
