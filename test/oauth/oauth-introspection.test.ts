import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import {
  allowIntrospection,
  apiResource,
  authorizeUrl,
  basicAuth,
  buildRequest,
  issuer,
  newPerson,
  oauthHarness,
  registerApp,
  send,
  type TestApp,
  USERINFO_SCOPE,
} from "./harness";
import { authorizeAndExchange, exchangeCode, firstHop, getCode, postForm, userinfo } from "./flow";

/**
 * The authorization server's security suite (issue 5), in process (issue 22):
 * introspection, audiences, bearer tokens and pairwise subjects.
 */
const harness = oauthHarness();
let db: Db;
beforeAll(() => {
  db = harness.db;
});

describe("introspection", () => {
  it("a confidential client the operator has not approved gets an error, whatever the token", async () => {
    const app = await registerApp(db);
    const { tokens } = await authorizeAndExchange(db, app);
    for (const token of [tokens.access_token, "not-a-token"]) {
      const response = await postForm("/api/oauth/introspect", { token }, { authorization: basicAuth(app.clientId, app.clientSecret!) });
      expect(response.status).toBe(403);
      const body = await response.json();
      expect(body.error).toBe("unauthorized_client");
      expect(body.active).toBeUndefined();
    }
  });

  it("a public client cannot introspect", async () => {
    const app = await registerApp(db, { clientType: "public" });
    const { tokens } = await authorizeAndExchange(db, app);
    const response = await postForm("/api/oauth/introspect", { token: tokens.access_token, client_id: app.clientId });
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body.error).toBe("invalid_client");
    expect(body.active).toBeUndefined();
  });

  it("an approved confidential client introspects its own tokens, with a pairwise sub", async () => {
    const app = await registerApp(db);
    await allowIntrospection(db, app);
    const { tokens } = await authorizeAndExchange(db, app, { tokenResource: apiResource() });
    const response = await postForm(
      "/api/oauth/introspect",
      { token: tokens.access_token },
      { authorization: basicAuth(app.clientId, app.clientSecret!) },
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    // Issued with openid: the token names both audiences, the Data API and the userinfo endpoint.
    expect(body).toMatchObject({
      active: true,
      client_id: app.clientId,
      aud: [apiResource(), `${issuer()}/oauth/userinfo`],
      iss: issuer(),
    });
    expect(body.sub).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.scope.split(" ")).toContain("sessions:read");
    // And another client's token is "inactive" to it.
    const other = await registerApp(db);
    const { tokens: otherTokens } = await authorizeAndExchange(db, other);
    const foreign = await postForm(
      "/api/oauth/introspect",
      { token: otherTokens.access_token },
      { authorization: basicAuth(app.clientId, app.clientSecret!) },
    );
    expect(await foreign.json()).toEqual({ active: false });
  });
});

describe("audience", () => {
  it("tokens for another resource are not issued", async () => {
    const app = await registerApp(db);
    const hop = await firstHop(
      authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, resource: "https://elsewhere.example/api" }),
    );
    expect(hop.location!.searchParams.get("error")).toBe("invalid_target");
    const { code, verifier } = await getCode(db, app);
    const response = await exchangeCode(app, code, verifier, { resource: "https://elsewhere.example/api" });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_target");
  });

  it("a Data API token issued with openid is accepted at userinfo; one without openid is refused there", async () => {
    const app = await registerApp(db);
    const { tokens } = await authorizeAndExchange(db, app, { tokenResource: apiResource() });
    const accepted = await userinfo(tokens.access_token);
    const acceptedBody = await accepted.text();
    expect(accepted.status, acceptedBody).toBe(200);
    expect(JSON.parse(acceptedBody)).toMatchObject({
      sub: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      name: app.owner.name,
      email: app.owner.email,
      email_verified: false,
    });

    const apiOnly = await registerApp(db, { scopes: ["sessions:read"] });
    const { tokens: apiTokens } = await authorizeAndExchange(db, apiOnly, { scope: "sessions:read", tokenResource: apiResource() });
    const refused = await userinfo(apiTokens.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await refused.json()).error_description).toContain("not issued for the userinfo endpoint");
  });
});

describe("bearer tokens", () => {
  it("an access token in the query string is refused", async () => {
    const app = await registerApp(db);
    const { tokens } = await authorizeAndExchange(db, app, { scope: USERINFO_SCOPE });
    const response = await send(buildRequest(`/api/oauth/userinfo?access_token=${encodeURIComponent(tokens.access_token)}`));
    expect([400, 401]).toContain(response.status);
    expect(JSON.stringify(await response.json())).not.toContain(app.owner.email);
  });
});

describe("subjects", () => {
  it("sub is pairwise: stable for an application, different in another sector, never an internal id", async () => {
    const owner = await newPerson(db, "pairwise");
    const port = 40000 + Math.floor(Math.random() * 20000);
    const appA = await registerApp(db, { redirectUris: [`http://127.0.0.1:${port}/callback`] }, owner);
    const appB = await registerApp(db, { redirectUris: [`http://localhost:${port}/callback`] }, owner);
    const subOf = async (app: TestApp) => {
      const { tokens } = await authorizeAndExchange(db, app, { scope: "openid profile email" });
      const claims = JSON.parse(Buffer.from(tokens.id_token!.split(".")[1], "base64url").toString());
      const info = await (await userinfo(tokens.access_token)).json();
      expect(info.sub).toBe(claims.sub);
      // The internal id never leaves: not as sub, not in any claim or token response member.
      expect(claims.sub).not.toBe(String(owner.id));
      for (const value of [...Object.values(claims), ...Object.values(info), ...Object.values(tokens)]) {
        if (typeof value === "string") expect(value).not.toMatch(/^\d{1,10}$/);
        expect(value).not.toBe(owner.id);
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
