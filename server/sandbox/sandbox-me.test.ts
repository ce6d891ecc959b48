import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getMe } from "@/app/api/v1/me/route";
import { apiResource } from "../auth/oauth/config";
import { issueAccessToken, makeOwnerAndApp } from "../../test/support/oauth-fixtures";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { createSandbox } from "./sandbox";

/** GET /me through its route handler, as an application calls it (data-api.md "Identity"; docs/sandbox.md). */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

async function me(token: string) {
  const response = await getMe(
    new Request("http://localhost:3000/api/v1/me", { headers: { authorization: `Bearer ${token}`, "x-request-id": randomUUID() } }),
    { params: Promise.resolve({}) },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Record<string, unknown> }).data;
}

describe("GET /me of a sandbox person", () => {
  it("says sandbox: true for the sandbox person's token, whatever the scopes, and nothing for the owner's", async () => {
    const { owner, application } = await makeOwnerAndApp(handle.db);
    const sandbox = await createSandbox(handle.db, owner, application.id, { weeks: 1, sessionsPerWeek: 1 });
    const issue = (userId: number, scopes: string[]) =>
      issueAccessToken(handle.db, {
        userId,
        applicationId: application.id,
        clientId: application.clientId,
        scopes,
        audience: apiResource(),
      });

    const bare = await me((await issue(sandbox.userId, ["openid"])).token);
    expect(bare).toEqual({ sub: expect.any(String), sandbox: true });
    const withProfile = await me((await issue(sandbox.userId, ["openid", "profile"])).token);
    expect(withProfile).toEqual({ sub: bare.sub, name: "Sam Sandbox", sandbox: true });

    const ownersOwn = await me((await issue(owner.id, ["openid", "profile"])).token);
    expect(ownersOwn).toEqual({ sub: expect.any(String), name: owner.name });
    expect(ownersOwn.sub).not.toBe(bare.sub);
  }, 60_000);
});

describe("who may authorize an application", () => {
  it("is its owner and the owner's sandbox person for it, nobody else", async () => {
    const { findClientMetadata, mayAuthorize } = await import("../auth/oauth/clients");
    const { owner, application } = await makeOwnerAndApp(handle.db);
    const before = (await findClientMetadata(handle.db, application.clientId)) as {
      appOwnerUserId: number;
      appSandboxUserId: number | null;
    };
    expect(before.appSandboxUserId).toBeNull();
    const sandbox = await createSandbox(handle.db, owner, application.id, { weeks: 1, sessionsPerWeek: 1 });
    const after = (await findClientMetadata(handle.db, application.clientId)) as {
      appOwnerUserId: number;
      appSandboxUserId: number | null;
    };
    const app = { ownerUserId: after.appOwnerUserId, sandboxUserId: after.appSandboxUserId };
    expect(mayAuthorize(app, String(owner.id))).toBe(true);
    expect(mayAuthorize(app, String(sandbox.userId))).toBe(true);
    // Another application's sandbox person is nobody here.
    const other = await makeOwnerAndApp(handle.db);
    const otherSandbox = await createSandbox(handle.db, other.owner, other.application.id, { weeks: 1, sessionsPerWeek: 1 });
    expect(mayAuthorize(app, String(otherSandbox.userId))).toBe(false);
    expect(mayAuthorize(app, String(other.owner.id))).toBe(false);
    expect(mayAuthorize(app, undefined)).toBe(false);
  }, 60_000);
});
