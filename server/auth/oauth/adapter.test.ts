import { createHash, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../../db/client";
import { openTestDb } from "../../../test/support/test-db";
import { oauthGrants, oauthModels } from "../../db/schema";
import { createAdapterFactory, deleteExpiredOAuthModels, storedModelId } from "./adapter";
import { recordConsent } from "./grants";
import { makeOwnerAndApp } from "../../../test/support/oauth-fixtures";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const epoch = () => Math.floor(Date.now() / 1000);

async function grantWithTokens(tokens: { model: string; id: string }[]) {
  const { owner, application } = await makeOwnerAndApp(handle.db);
  const grantId = randomUUID();
  const adapter = createAdapterFactory(handle.db);
  await adapter("Grant").upsert(
    grantId,
    { jti: grantId, kind: "Grant", accountId: String(owner.id), clientId: application.clientId, exp: epoch() + 3600 },
    3600,
  );
  await recordConsent(handle.db, {
    grantId,
    userId: owner.id,
    applicationId: application.id,
    scopes: ["openid"],
    declinedScopes: [],
    expiresAt: new Date(Date.now() + 3600_000),
  });
  for (const { model, id } of tokens) {
    await adapter(model).upsert(
      id,
      { jti: id, kind: model, grantId, clientId: application.clientId, accountId: String(owner.id), exp: epoch() + 600 },
      600,
    );
  }
  return { grantId, adapter, owner, application };
}

describe("oidc-provider adapter over oauth_models", () => {
  it("stores a payload and finds it by id, uid and user code", async () => {
    const adapter = createAdapterFactory(handle.db)("Session");
    const id = randomUUID();
    const uid = randomUUID();
    await adapter.upsert(id, { jti: id, uid, kind: "Session", accountId: "1" }, 60);
    expect(await adapter.find(id)).toMatchObject({ jti: id, uid });
    expect(await adapter.findByUid(uid)).toMatchObject({ jti: id });
    expect(await adapter.find(randomUUID())).toBeUndefined();
    // Upsert replaces the payload.
    await adapter.upsert(id, { jti: id, uid, kind: "Session", accountId: "2" }, 60);
    expect(await adapter.find(id)).toMatchObject({ accountId: "2" });
    await adapter.destroy(id);
    expect(await adapter.find(id)).toBeUndefined();
  });

  it("treats an expired row as gone", async () => {
    const adapter = createAdapterFactory(handle.db)("Interaction");
    const id = randomUUID();
    await adapter.upsert(id, { jti: id, kind: "Interaction" }, 60);
    await handle.db
      .update(oauthModels)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oauthModels.id, id));
    expect(await adapter.find(id)).toBeUndefined();
  });

  it("reports a consumed token as consumed, and never un-consumes it on a later upsert", async () => {
    const rt = randomUUID();
    const { adapter } = await grantWithTokens([{ model: "RefreshToken", id: rt }]);
    expect((await adapter("RefreshToken").find(rt))?.consumed).toBeUndefined();
    await adapter("RefreshToken").consume(rt);
    const found = await adapter("RefreshToken").find(rt);
    expect(typeof found?.consumed).toBe("number");
    await adapter("RefreshToken").upsert(rt, { ...found, consumed: undefined }, 600);
    expect(typeof (await adapter("RefreshToken").find(rt))?.consumed).toBe("number");
  });

  it("consumes atomically: of two parallel uses exactly one wins, and the loser revokes the whole family", async () => {
    const rt = randomUUID();
    const sibling = randomUUID();
    const { adapter, grantId } = await grantWithTokens([
      { model: "RefreshToken", id: rt },
      { model: "AccessToken", id: sibling },
    ]);
    const results = await Promise.allSettled([adapter("RefreshToken").consume(rt), adapter("RefreshToken").consume(rt)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ error: "invalid_grant" });
    // The family is gone: tokens, the Grant, and the queryable grant is marked revoked.
    expect(await adapter("AccessToken").find(sibling)).toBeUndefined();
    expect(await adapter("Grant").find(grantId)).toBeUndefined();
    const [row] = await handle.db.select({ revokedAt: oauthGrants.revokedAt }).from(oauthGrants).where(eq(oauthGrants.grantId, grantId));
    expect(row.revokedAt).toBeInstanceOf(Date);
  });

  it("a second sequential consume is a replay too", async () => {
    const code = randomUUID();
    const { adapter } = await grantWithTokens([{ model: "AuthorizationCode", id: code }]);
    await adapter("AuthorizationCode").consume(code);
    await expect(adapter("AuthorizationCode").consume(code)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("revokeByGrantId removes one model's tokens of that grant only", async () => {
    const [at1, rt1] = [randomUUID(), randomUUID()];
    const other = await grantWithTokens([{ model: "AccessToken", id: randomUUID() }]);
    const { adapter, grantId } = await grantWithTokens([
      { model: "AccessToken", id: at1 },
      { model: "RefreshToken", id: rt1 },
    ]);
    const otherAccessTokens = await handle.db.select().from(oauthModels).where(eq(oauthModels.grantId, other.grantId));
    await adapter("AccessToken").revokeByGrantId(grantId);
    expect(await adapter("AccessToken").find(at1)).toBeUndefined();
    expect(await adapter("RefreshToken").find(rt1)).toBeDefined();
    expect(await handle.db.select().from(oauthModels).where(eq(oauthModels.grantId, other.grantId))).toHaveLength(otherAccessTokens.length);
  });

  it("destroying a Grant (how oidc-provider revokes one) revokes its tokens and marks the grant revoked", async () => {
    const at = randomUUID();
    const { adapter, grantId } = await grantWithTokens([{ model: "AccessToken", id: at }]);
    await adapter("Grant").destroy(grantId);
    expect(await adapter("AccessToken").find(at)).toBeUndefined();
    const [row] = await handle.db.select({ revokedAt: oauthGrants.revokedAt }).from(oauthGrants).where(eq(oauthGrants.grantId, grantId));
    expect(row.revokedAt).toBeInstanceOf(Date);
  });

  it("stores tokens and codes under their SHA-256 and without the value in the payload, and finds them by the value", async () => {
    const [at, code] = [randomUUID(), randomUUID()];
    const { adapter } = await grantWithTokens([
      { model: "AccessToken", id: at },
      { model: "AuthorizationCode", id: code },
    ]);
    const rows = await handle.db.select({ id: oauthModels.id, payload: oauthModels.payload }).from(oauthModels);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(at);
    expect(text).not.toContain(code);
    expect(rows.map((r) => r.id)).toContain(createHash("sha256").update(at).digest("hex"));
    // oidc-provider gets the payload back whole, jti included.
    expect(await adapter("AccessToken").find(at)).toMatchObject({ jti: at, kind: "AccessToken" });
    expect(await adapter("AuthorizationCode").find(code)).toMatchObject({ jti: code });
  });

  it("cleans up expired rows and keeps live ones, consumed or not", async () => {
    const [expired, live, consumed] = [randomUUID(), randomUUID(), randomUUID()];
    const { adapter } = await grantWithTokens([
      { model: "RefreshToken", id: expired },
      { model: "RefreshToken", id: live },
      { model: "RefreshToken", id: consumed },
    ]);
    await adapter("RefreshToken").consume(consumed);
    await handle.db
      .update(oauthModels)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(oauthModels.id, storedModelId("RefreshToken", expired)));
    const deleted = await deleteExpiredOAuthModels(handle.db);
    expect(deleted).toBeGreaterThanOrEqual(1);
    const ids = (await handle.db.select({ id: oauthModels.id }).from(oauthModels)).map((r) => r.id);
    expect(ids).not.toContain(storedModelId("RefreshToken", expired));
    expect(ids).toContain(storedModelId("RefreshToken", live));
    expect(ids).toContain(storedModelId("RefreshToken", consumed));
  });

  it("reads clients from oauth_applications, with the secret's hash and never the secret", async () => {
    const { application, clientSecret } = await makeOwnerAndApp(handle.db);
    const metadata = await createAdapterFactory(handle.db)("Client").find(application.clientId);
    expect(metadata).toMatchObject({
      client_id: application.clientId,
      token_endpoint_auth_method: "client_secret_basic",
      subject_type: "pairwise",
      response_types: ["code"],
      grant_types: ["authorization_code", "refresh_token"],
      redirect_uris: ["https://app.example/callback"],
    });
    expect(metadata!.client_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(metadata)).not.toContain(clientSecret!);
  });

  it("does not hand out partner applications before an operator approved them", async () => {
    const { application } = await makeOwnerAndApp(handle.db, { surface: "partner" });
    expect(await createAdapterFactory(handle.db)("Client").find(application.clientId)).toBeUndefined();
  });
});
