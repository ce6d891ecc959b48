import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client";
import { openTestDb } from "../../../test/support/test-db";
import { oauthApplications } from "../../db/schema";
import { createAdapterFactory } from "./adapter";
import { recordConsent, revokeGrant } from "./grants";
import { makeOwnerAndApp } from "../../../test/support/oauth-fixtures";
import { verifyAccessToken } from "./verify-access-token";

const AUDIENCE = "https://results.example/api/v1";
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const epoch = () => Math.floor(Date.now() / 1000);

/** An access token as oidc-provider stores it (opaque: the id is the token). */
async function issue(
  options: {
    aud?: string | null;
    scope?: string;
    expSeconds?: number;
    grantScopes?: string[];
    surface?: "data" | "partner" | "session";
  } = {},
) {
  const { owner, application } = await makeOwnerAndApp(handle.db, options.surface ? { surface: options.surface } : {});
  const grantId = randomUUID();
  const adapter = createAdapterFactory(handle.db);
  await adapter("Grant").upsert(
    grantId,
    { jti: grantId, kind: "Grant", accountId: String(owner.id), clientId: application.clientId },
    3600,
  );
  await recordConsent(handle.db, {
    grantId,
    userId: owner.id,
    applicationId: application.id,
    scopes: options.grantScopes ?? ["openid", "sessions:read", "health:read"],
    declinedScopes: [],
    expiresAt: new Date(Date.now() + 3600_000),
  });
  const token = randomUUID().replace(/-/g, "");
  const payload: Record<string, unknown> = {
    jti: token,
    kind: "AccessToken",
    accountId: String(owner.id),
    clientId: application.clientId,
    grantId,
    scope: options.scope ?? "openid sessions:read",
    exp: epoch() + (options.expSeconds ?? 600),
    iat: epoch(),
  };
  if (options.aud !== null) payload.aud = options.aud ?? AUDIENCE;
  await adapter("AccessToken").upsert(token, payload, Math.max(1, options.expSeconds ?? 600));
  return { token, owner, application, grantId };
}

describe("verifyAccessToken", () => {
  it("accepts a live Data API token and says who, which application, surface and scopes", async () => {
    const { token, owner, application, grantId } = await issue();
    expect(await verifyAccessToken(handle.db, token, new Date(), AUDIENCE)).toEqual({
      ok: true,
      userId: owner.id,
      applicationId: application.id,
      clientId: application.clientId,
      surface: "data",
      scopes: ["openid", "sessions:read"],
      grantId,
      // The token's exp (600 s from now), before the grant's expiry: how long the verification may be reused.
      validUntil: expect.any(Date),
    });
  });

  it("rejects unknown, empty and absurdly long tokens", async () => {
    expect(await verifyAccessToken(handle.db, "nope", new Date(), AUDIENCE)).toEqual({ ok: false });
    expect(await verifyAccessToken(handle.db, "", new Date(), AUDIENCE)).toEqual({ ok: false });
    expect(await verifyAccessToken(handle.db, "x".repeat(5000), new Date(), AUDIENCE)).toEqual({ ok: false });
  });

  it("rejects an expired token", async () => {
    const { token } = await issue({ expSeconds: 1 });
    expect(await verifyAccessToken(handle.db, token, new Date(Date.now() + 5_000), AUDIENCE)).toEqual({ ok: false });
  });

  it("rejects a token for another audience, and a userinfo token (no audience)", async () => {
    const other = await issue({ aud: "https://elsewhere.example/api" });
    expect(await verifyAccessToken(handle.db, other.token, new Date(), AUDIENCE)).toEqual({ ok: false, reason: "wrong_audience" });
    const userinfoToken = await issue({ aud: null });
    // The reason lets the Data API name the audience instead of "invalid, expired or revoked".
    expect(await verifyAccessToken(handle.db, userinfoToken.token, new Date(), AUDIENCE)).toEqual({ ok: false, reason: "wrong_audience" });
  });

  it("rejects every token of a revoked grant at once", async () => {
    const { token, grantId } = await issue();
    expect((await verifyAccessToken(handle.db, token, new Date(), AUDIENCE)).ok).toBe(true);
    await revokeGrant(handle.db, grantId);
    expect(await verifyAccessToken(handle.db, token, new Date(), AUDIENCE)).toEqual({ ok: false });
  });

  it("narrows the token's scopes to what the grant holds now", async () => {
    const { token } = await issue({ scope: "openid sessions:read health:read", grantScopes: ["openid", "sessions:read"] });
    const result = await verifyAccessToken(handle.db, token, new Date(), AUDIENCE);
    expect(result.ok && result.scopes).toEqual(["openid", "sessions:read"]);
  });

  it("rejects tokens of an application that may no longer be used (partner application back in review)", async () => {
    const { token, application } = await issue();
    await handle.db.update(oauthApplications).set({ reviewStatus: "pending" }).where(eq(oauthApplications.id, application.id));
    expect(await verifyAccessToken(handle.db, token, new Date(), AUDIENCE)).toEqual({ ok: false });
  });
});
