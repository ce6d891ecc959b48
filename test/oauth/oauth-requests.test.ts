import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import {
  allowIntrospection,
  appUrl,
  authorizeUrl,
  basicAuth,
  buildRequest,
  issuer,
  newPerson,
  OAuthBrowser,
  oauthHarness,
  randomClientIp,
  randomValue,
  registerApp,
  send,
} from "./harness";
import { firstHop, getCode, postForm, runAuthorization } from "./flow";

/**
 * The authorization server's security suite (issue 5), in process (issue 22):
 * authorization request rules, grant types, discovery, who may authorize,
 * forged forms and rate limits.
 */
const harness = oauthHarness();
let db: Db;
beforeAll(() => {
  db = harness.db;
});

describe("authorization request parameters", () => {
  it("state is required", async () => {
    const app = await registerApp(db);
    const hop = await firstHop(authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, state: null }));
    expect(hop.location!.searchParams.get("error")).toBe("invalid_request");
    expect(hop.location!.searchParams.get("error_description")).toContain("state");
  });

  it("nonce is required with the openid scope", async () => {
    const app = await registerApp(db);
    const hop = await firstHop(
      authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, nonce: null, scope: "openid profile" }),
    );
    expect(hop.location!.searchParams.get("error")).toBe("invalid_request");
    expect(hop.location!.searchParams.get("error_description")).toContain("nonce");
  });

  it("duplicate parameters are refused at the authorization and token endpoints", async () => {
    const app = await registerApp(db);
    const hop = await firstHop(authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, extra: [["scope", "openid email"]] }));
    expect(hop.location!.searchParams.get("error")).toBe("invalid_request");
    expect(hop.location!.searchParams.get("error_description")).toContain("scope");

    const { code, verifier } = await getCode(db, app);
    const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: verifier });
    body.append("code", code);
    const response = await postForm("/api/oauth/token", body, { authorization: basicAuth(app.clientId, app.clientSecret!) });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_request");
  });

  it("scopes the application did not register are refused", async () => {
    const app = await registerApp(db, { scopes: ["openid", "sessions:read"] });
    const hop = await firstHop(
      authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, scope: "openid sessions:read health:read" }),
    );
    expect(hop.location!.searchParams.get("error")).toBe("invalid_scope");
  });

  it("the authorization response carries iss, on success and on error", async () => {
    const app = await registerApp(db);
    const { callback } = await getCode(db, app);
    expect(callback.searchParams.get("iss")).toBe(issuer());
    const hop = await firstHop(authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, state: null }));
    expect(hop.location!.searchParams.get("iss")).toBe(issuer());
  });
});

describe("grant types", () => {
  it("the implicit flow is refused", async () => {
    const app = await registerApp(db);
    for (const responseType of ["token", "id_token", "code id_token", "id_token token"]) {
      const url = new URL(authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri }));
      url.searchParams.set("response_type", responseType);
      const hop = await firstHop(url.toString());
      const error = hop.location?.searchParams.get("error") ?? new URLSearchParams(hop.location?.hash.slice(1)).get("error");
      expect(error, responseType).toBe("unsupported_response_type");
      expect(hop.location?.searchParams.get("access_token") ?? null).toBeNull();
      expect(hop.location?.hash ?? "").not.toContain("access_token");
    }
  });

  it("the password grant is refused", async () => {
    const app = await registerApp(db);
    const form = { grant_type: "password", username: app.owner.email, password: app.owner.password };
    const response = await postForm("/api/oauth/token", form, { authorization: basicAuth(app.clientId, app.clientSecret!) });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("unsupported_grant_type");
  });

  it("the client credentials grant is refused", async () => {
    const app = await registerApp(db);
    const response = await postForm(
      "/api/oauth/token",
      { grant_type: "client_credentials", scope: "sessions:read" },
      { authorization: basicAuth(app.clientId, app.clientSecret!) },
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("unsupported_grant_type");
  });
});

describe("issuer and discovery", () => {
  it("a spoofed Host (or X-Forwarded-Host) does not change the issuer or any endpoint", async () => {
    const spoofs: Record<string, string>[] = [
      { host: "evil.example" },
      { host: "evil.example:443", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
    ];
    for (const headers of spoofs) {
      // The request's own URL names the spoofed host too, as a server that trusted Host would build it.
      const response = await send(new Request(`http://${headers.host}/.well-known/openid-configuration/api`, { headers }));
      expect(response.status).toBe(200);
      const body = await response.text();
      expect(body).not.toContain("evil.example");
      const metadata = JSON.parse(body);
      expect(metadata.issuer).toBe(issuer());
      for (const key of [
        "authorization_endpoint",
        "token_endpoint",
        "userinfo_endpoint",
        "jwks_uri",
        "revocation_endpoint",
        "introspection_endpoint",
        "end_session_endpoint",
      ]) {
        expect(metadata[key], key).toMatch(new RegExp(`^${appUrl()}/api/oauth/`));
      }
    }
  });

  it("discovery answers at the OpenID and RFC 8414 locations with one document", async () => {
    const documents = [];
    const paths = [
      "/.well-known/openid-configuration/api",
      "/.well-known/oauth-authorization-server/api",
      "/api/.well-known/openid-configuration",
      "/.well-known/openid-configuration",
      "/.well-known/oauth-authorization-server",
    ];
    for (const path of paths) {
      const response = await send(buildRequest(path));
      expect(response.status, path).toBe(200);
      documents.push(await response.json());
    }
    for (const doc of documents) expect(doc).toEqual(documents[0]);
    expect(documents[0]).toMatchObject({
      issuer: issuer(),
      authorization_endpoint: `${appUrl()}/api/oauth/authorize`,
      token_endpoint: `${appUrl()}/api/oauth/token`,
      userinfo_endpoint: `${appUrl()}/api/oauth/userinfo`,
      revocation_endpoint: `${appUrl()}/api/oauth/revoke`,
      introspection_endpoint: `${appUrl()}/api/oauth/introspect`,
      jwks_uri: `${appUrl()}/api/oauth/jwks.json`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "none"],
      subject_types_supported: ["pairwise"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(documents[0].scopes_supported).toEqual([
      "openid",
      "profile",
      "email",
      "offline_access",
      "catalog:read",
      "athlete:read",
      "sessions:read",
      "trainings:read",
      "workouts:read",
      "equipment:read",
      "records:read",
      "exports:create",
      "health:read",
      "devices:read",
      "devices:files",
      "svcsim:embed",
    ]);
    const jwks = await (await send(buildRequest("/api/oauth/jwks.json"))).json();
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) {
      for (const privateMember of ["d", "p", "q", "dp", "dq", "qi"]) expect(key[privateMember]).toBeUndefined();
    }
  });
});

describe("ownership", () => {
  it("only the owner can authorize: another signed-in user gets access_denied before any consent screen", async () => {
    const app = await registerApp(db);
    const stranger = await newPerson(db, "stranger");
    const url = authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, prompt: "consent" });
    const { callback, pages } = await runAuthorization(db, new OAuthBrowser(), url, app.redirectUri, { account: stranger });
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("code")).toBeNull();
    expect(pages).toEqual(["signin"]);
  });
});

/** Starts an authorization request in `browser`; returns the interaction's path, where the pages post their forms. */
async function startInteraction(browser: OAuthBrowser, clientId: string, redirectUri: string, prompt?: string): Promise<string> {
  const start = await browser.fetch(authorizeUrl({ clientId, redirectUri, prompt }));
  return new URL(start.headers.get("location")!).pathname;
}

describe("forms", () => {
  it("a consent form posted from another site is refused", async () => {
    const app = await registerApp(db);
    const browser = new OAuthBrowser();
    const interaction = await startInteraction(browser, app.clientId, app.redirectUri, "consent");
    const forged = await browser.fetch(interaction, {
      form: { action: "consent", decision: "allow" },
      headers: { origin: "https://attacker.example", "sec-fetch-site": "cross-site" },
    });
    expect(forged.status).toBe(403);
  });
});

describe("browser requests to the token endpoint", () => {
  it("a confidential client's browser request is taken from this site's origin only (the portal's Get a test token)", async () => {
    const redirectUri = `${appUrl()}/developer/test-token/callback`;
    const app = await registerApp(db, { redirectUris: [redirectUri] });
    const form = { grant_type: "authorization_code", code: "not-a-code", redirect_uri: redirectUri, code_verifier: "x".repeat(43) };
    const sendFrom = (origin: string) =>
      postForm("/api/oauth/token", form, { authorization: basicAuth(app.clientId, app.clientSecret!), origin });
    // Another site: refused for its origin before the code is looked at.
    const foreign = await sendFrom("https://elsewhere.example");
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({
      error: "invalid_request",
      error_description: expect.stringContaining("origin https://elsewhere.example not allowed"),
    });
    // This site: the request gets as far as the (bogus) code.
    const own = await sendFrom(new URL(appUrl()).origin);
    expect(own.status).toBe(400);
    expect(await own.json()).toMatchObject({ error: "invalid_grant" });
  });
});

describe("rate limits", () => {
  // Fixed windows: a run may straddle a window boundary, so each test keeps going up to twice
  // the limit; the first refusal must come after at least `limit` accepted requests.
  it("the token endpoint limits requests per client", async () => {
    const app = await registerApp(db);
    let limitedAt = 0;
    for (let i = 1; i <= 121 && !limitedAt; i++) {
      const form = { grant_type: "authorization_code", code: `bogus-${i}`, redirect_uri: app.redirectUri, code_verifier: "x".repeat(43) };
      const response = await postForm("/api/oauth/token", form, { authorization: basicAuth(app.clientId, app.clientSecret!) });
      if (response.status === 429) {
        limitedAt = i;
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        expect((await response.json()).error).toBe("too_many_requests");
      } else {
        expect(response.status).toBe(400);
        expect(response.headers.get("x-ratelimit-limit")).toBe("60");
      }
    }
    expect(limitedAt).toBeGreaterThan(60);
  });

  it("the introspection endpoint limits requests per client", async () => {
    const app = await registerApp(db);
    await allowIntrospection(db, app);
    let limitedAt = 0;
    for (let i = 1; i <= 241 && !limitedAt; i++) {
      const response = await postForm(
        "/api/oauth/introspect",
        { token: `bogus-${i}` },
        { authorization: basicAuth(app.clientId, app.clientSecret!) },
      );
      if (response.status === 429) limitedAt = i;
      else expect(response.status).toBe(200);
    }
    expect(limitedAt).toBeGreaterThan(120);
  });

  it("the sign-in page limits password attempts", async () => {
    const app = await registerApp(db);
    const browser = new OAuthBrowser();
    const interaction = await startInteraction(browser, app.clientId, app.redirectUri);
    let limitedAt = 0;
    for (let i = 1; i <= 21; i++) {
      // Different unknown accounts each time: the per-account lock-out never applies, only the rate limit.
      const form = { action: "signin", email: `nobody-${randomValue()}@oauth.test`, password: "not-a-password" };
      const response = await browser.fetch(interaction, { form, headers: { origin: appUrl() } });
      if (response.status === 429) {
        limitedAt = i;
        expect(await response.text()).toContain("Too many sign-in attempts");
        break;
      }
      expect(response.status).toBe(303);
    }
    expect(limitedAt).toBeGreaterThan(10);
    // The owner's right password is refused too while the limit lasts.
    const blocked = await browser.fetch(interaction, {
      form: { action: "signin", email: app.owner.email, password: app.owner.password },
      headers: { origin: appUrl() },
    });
    expect(blocked.status).toBe(429);
  });

  it("sign-in attempts are limited per client address across sign-in pages", async () => {
    const app = await registerApp(db);
    const ip = randomClientIp();
    let limitedAt = 0;
    for (let i = 1; i <= 61 && !limitedAt; i++) {
      // A new authorization request (a new sign-in page) for every attempt, all from one address.
      const browser = new OAuthBrowser(ip);
      const interaction = await startInteraction(browser, app.clientId, app.redirectUri);
      const form = { action: "signin", email: `nobody-${randomValue()}@oauth.test`, password: "not-a-password" };
      const response = await browser.fetch(interaction, { form, headers: { origin: appUrl() } });
      if (response.status === 429) limitedAt = i;
      else expect(response.status).toBe(303);
    }
    expect(limitedAt).toBeGreaterThan(30);
  });
});
