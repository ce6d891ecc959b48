import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client";
import { openTestDb } from "../../../test/support/test-db";
import { getSubjectIdentity } from "../../identity/identity";
import { apiResource } from "./config";
import { revokeGrant } from "./grants";
import { issueAccessToken, makeOwnerAndApp } from "../../../test/support/oauth-fixtures";
import { handleUserinfo } from "./userinfo";
import { verifyAccessToken } from "./verify-access-token";

/**
 * Our userinfo endpoint (issue 21): a token issued with openid names both
 * audiences, the Data API and userinfo, and each checks it is among them.
 */
const APP_URL = "https://results.example";
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

/** `audience: null`: a token without one, as oidc-provider issues for userinfo alone. */
async function tokenFor(scopes: string[], audience: string | null = apiResource(APP_URL)) {
  const { owner, application } = await makeOwnerAndApp(handle.db, { scopes: ["openid", "profile", "email", "sessions:read"] });
  const issued = await issueAccessToken(handle.db, {
    userId: owner.id,
    applicationId: application.id,
    clientId: application.clientId,
    scopes,
    audience: audience ?? (undefined as unknown as string),
  });
  return { ...issued, owner, application };
}

const call = (token: string | null, init: RequestInit = {}) =>
  handleUserinfo(
    handle.db,
    new Request(`${APP_URL}/api/oauth/userinfo`, {
      ...init,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) },
    }),
    APP_URL,
  );

describe("userinfo", () => {
  it("answers a Data API token issued with openid, with the claims its scopes allow", async () => {
    const { token, owner, application } = await tokenFor(["openid", "profile", "email", "sessions:read"]);
    const response = await call(token);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { sub } = await getSubjectIdentity(handle.db, owner.id, application.id);
    expect(await response.json()).toEqual({ sub, name: owner.name, email: owner.email, email_verified: false });
    // The same token still works at the Data API.
    expect((await verifyAccessToken(handle.db, token, new Date(), apiResource(APP_URL), APP_URL)).ok).toBe(true);
    // POST works too (OpenID Connect Core §5.3.1).
    expect((await call(token, { method: "POST" })).status).toBe(200);
  });

  it("gives only sub without profile and email", async () => {
    const { token } = await tokenFor(["openid", "sessions:read"]);
    expect(Object.keys(await (await call(token)).json())).toEqual(["sub"]);
  });

  it("answers oidc-provider's userinfo-only token (no audience), which the Data API refuses", async () => {
    const { token } = await tokenFor(["openid", "profile"], null);
    expect((await call(token)).status).toBe(200);
    expect(await verifyAccessToken(handle.db, token, new Date(), apiResource(APP_URL), APP_URL)).toEqual({
      ok: false,
      reason: "wrong_audience",
    });
  });

  it("refuses a token without openid, a token for another audience, none, a malformed one and a revoked one", async () => {
    const apiOnly = await tokenFor(["sessions:read"]);
    const refused = await call(apiOnly.token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer realm="https:\/\/results\.example\/api", error="invalid_token"/);
    expect((await refused.json()).error_description).toContain("not issued for the userinfo endpoint");

    const foreign = await tokenFor(["openid", "profile"], "https://elsewhere.example/api");
    expect((await call(foreign.token)).status).toBe(401);

    const none = await call(null);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect((await call(null, { headers: { authorization: "Basic abc" } })).status).toBe(401);

    const revoked = await tokenFor(["openid", "profile"]);
    await revokeGrant(handle.db, revoked.grantId);
    expect((await call(revoked.token)).status).toBe(401);
  });

  it("allows a browser client's own redirect origin (CORS), no other", async () => {
    const { token } = await tokenFor(["openid"]);
    const own = await call(token, { headers: { origin: "https://app.example" } });
    expect(own.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const other = await call(token, { headers: { origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});
