import { beforeAll, describe, expect, it } from "vitest";
import { rotateClientSecret } from "@/server/applications/applications";
import type { Db } from "@/server/db/client";
import { authorizeUrl, basicAuth, oauthHarness, pkcePair, registerApp, USERINFO_SCOPE } from "./harness";
import { authorizeAndExchange, exchangeCode, firstHop, getCode, postForm, refresh, userinfo } from "./flow";

/**
 * The authorization server's security suite (issue 5), in process (issue 22):
 * PKCE, redirect URIs, codes, refresh tokens, revocation and client
 * authentication, through the route modules and the real database.
 */
const harness = oauthHarness();
let db: Db;
beforeAll(() => {
  db = harness.db;
});

describe("PKCE", () => {
  it("an authorization request without a code challenge is refused", async () => {
    const app = await registerApp(db);
    const hop = await firstHop(
      authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, codeChallenge: null, codeChallengeMethod: null }),
    );
    expect(hop.location?.toString().startsWith(app.redirectUri)).toBe(true);
    expect(hop.location!.searchParams.get("error")).toBe("invalid_request");
    expect(hop.location!.searchParams.get("code")).toBeNull();
  });

  it("the plain code challenge method is refused", async () => {
    const app = await registerApp(db, { clientType: "public" });
    const hop = await firstHop(
      authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri, codeChallenge: "a".repeat(43), codeChallengeMethod: "plain" }),
    );
    expect(hop.location!.searchParams.get("error")).toBe("invalid_request");
    expect(hop.location!.searchParams.get("code")).toBeNull();
  });

  it("a wrong code verifier does not redeem the code", async () => {
    const app = await registerApp(db);
    const { code } = await getCode(db, app);
    const response = await exchangeCode(app, code, pkcePair().verifier);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe("invalid_grant");
  });
});

describe("redirect URIs", () => {
  it("an unregistered redirect URI gets an error page, never a redirect", async () => {
    const app = await registerApp(db);
    const hop = await firstHop(authorizeUrl({ clientId: app.clientId, redirectUri: "https://attacker.example/callback" }));
    expect(hop.location).toBeNull();
    expect(hop.status).toBe(400);
    expect(hop.body).toContain("redirect_uri");
  });

  it("near misses of a registered redirect URI are refused too", async () => {
    const app = await registerApp(db);
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
      const hop = await firstHop(authorizeUrl({ clientId: app.clientId, redirectUri }));
      expect(hop.location, redirectUri).toBeNull();
      expect(hop.status, redirectUri).toBe(400);
    }
  });
});

describe("authorization codes", () => {
  it("a code works once; reusing it fails and kills the tokens it gave", async () => {
    const app = await registerApp(db);
    const { code, verifier } = await getCode(db, app, USERINFO_SCOPE);
    const first = await exchangeCode(app, code, verifier);
    expect(first.status).toBe(200);
    const tokens = await first.json();
    expect((await userinfo(tokens.access_token)).status).toBe(200);

    const second = await exchangeCode(app, code, verifier);
    expect(second.status).toBe(400);
    expect((await second.json()).error).toBe("invalid_grant");
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    expect((await refresh(app, tokens.refresh_token)).status).toBe(400);
  });

  it("another client cannot redeem a client's code", async () => {
    const app = await registerApp(db);
    const other = await registerApp(db, { redirectUris: [app.redirectUri] });
    const { code, verifier } = await getCode(db, app);
    const stolen = await exchangeCode({ ...other, redirectUri: app.redirectUri }, code, verifier);
    expect(stolen.status).toBe(400);
    expect((await stolen.json()).error).toBe("invalid_grant");
  });
});

describe("refresh tokens", () => {
  it("refresh tokens rotate, and replaying a used one revokes the whole family", async () => {
    const app = await registerApp(db);
    const { tokens } = await authorizeAndExchange(db, app, { scope: USERINFO_SCOPE });
    const rotated = await refresh(app, tokens.refresh_token!);
    expect(rotated.status).toBe(200);
    const next = await rotated.json();
    expect(next.refresh_token).toBeTruthy();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);

    const replay = await refresh(app, tokens.refresh_token!);
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe("invalid_grant");
    // The family is dead: the newest refresh token and access token too.
    expect((await refresh(app, next.refresh_token)).status).toBe(400);
    expect((await userinfo(next.access_token)).status).toBe(401);
  });

  it("parallel refreshes with one token: at most one wins, and the family is revoked", async () => {
    const app = await registerApp(db);
    const { tokens } = await authorizeAndExchange(db, app, { scope: USERINFO_SCOPE });
    const responses = await Promise.all(Array.from({ length: 4 }, () => refresh(app, tokens.refresh_token!)));
    const winners = responses.filter((r) => r.status === 200);
    expect(winners.length).toBeLessThanOrEqual(1);
    for (const loser of responses.filter((r) => r.status !== 200)) {
      expect(loser.status).toBe(400);
      expect((await loser.json()).error).toBe("invalid_grant");
    }
    for (const winner of winners) {
      const won = await winner.json();
      expect((await refresh(app, won.refresh_token)).status).toBe(400);
      expect((await userinfo(won.access_token)).status).toBe(401);
    }
  });
});

describe("revocation", () => {
  it("revoking an access token makes the next call 401 and ends the grant", async () => {
    const app = await registerApp(db);
    const { tokens } = await authorizeAndExchange(db, app, { scope: USERINFO_SCOPE });
    expect((await userinfo(tokens.access_token)).status).toBe(200);
    const revoked = await postForm(
      "/api/oauth/revoke",
      { token: tokens.access_token },
      { authorization: basicAuth(app.clientId, app.clientSecret!) },
    );
    expect(revoked.status).toBe(200);
    const after = await userinfo(tokens.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain("invalid_token");
    expect((await refresh(app, tokens.refresh_token!)).status).toBe(400);
  });

  it("revoking the refresh token kills the access tokens of the grant", async () => {
    const app = await registerApp(db, { clientType: "public" });
    const { tokens } = await authorizeAndExchange(db, app, { scope: USERINFO_SCOPE });
    const revoked = await postForm("/api/oauth/revoke", { token: tokens.refresh_token!, client_id: app.clientId });
    expect(revoked.status).toBe(200);
    expect((await userinfo(tokens.access_token)).status).toBe(401);
  });

  it("a client cannot revoke another client's token", async () => {
    const app = await registerApp(db);
    const other = await registerApp(db);
    const { tokens } = await authorizeAndExchange(db, app, { scope: USERINFO_SCOPE });
    await postForm("/api/oauth/revoke", { token: tokens.access_token }, { authorization: basicAuth(other.clientId, other.clientSecret!) });
    expect((await userinfo(tokens.access_token)).status).toBe(200);
  });
});

describe("client authentication", () => {
  it("a confidential client must use HTTP Basic: client_secret_post and no authentication are refused", async () => {
    const app = await registerApp(db);
    const { code, verifier } = await getCode(db, app);
    const base = { grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: verifier };
    const post = await postForm("/api/oauth/token", { ...base, client_id: app.clientId, client_secret: app.clientSecret! });
    expect(post.status).toBe(401);
    expect((await post.json()).error).toBe("invalid_client");
    const none = await postForm("/api/oauth/token", { ...base, client_id: app.clientId });
    expect(none.status).toBe(401);
    expect((await none.json()).error).toBe("invalid_client");
  });

  it("a wrong secret, a near-miss secret and the secret's stored form are refused", async () => {
    const app = await registerApp(db);
    const { code, verifier } = await getCode(db, app);
    for (const secret of ["svcas_wrong", `${app.clientSecret}x`, app.clientSecret!.slice(0, -1), app.clientSecret!.toUpperCase()]) {
      const form = { grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: verifier };
      const response = await postForm("/api/oauth/token", form, { authorization: basicAuth(app.clientId, secret) });
      expect(response.status, secret).toBe(401);
      expect((await response.json()).error).toBe("invalid_client");
    }
    // The code was never redeemed, so the right secret still works.
    expect((await exchangeCode(app, code, verifier)).status).toBe(200);
  });

  it("a public client presenting a secret is refused", async () => {
    const app = await registerApp(db, { clientType: "public" });
    const { code, verifier } = await getCode(db, app);
    const form = { grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: verifier };
    const response = await postForm("/api/oauth/token", form, { authorization: basicAuth(app.clientId, "svcas_madeup") });
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe("invalid_client");
  });

  it("a rotated secret stops working at once", async () => {
    const app = await registerApp(db);
    const rotated = await rotateClientSecret(db, app.owner.id, app.id);
    const { code, verifier } = await getCode(db, app);
    expect((await exchangeCode(app, code, verifier)).status).toBe(401);
    expect((await exchangeCode({ ...app, clientSecret: rotated.clientSecret }, code, verifier)).status).toBe(200);
  });
});
