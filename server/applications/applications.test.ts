import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { oauthApplications, oauthModels } from "../db/schema";
import { AppError } from "../errors";
import { createAdapterFactory } from "../auth/oauth/adapter";
import { listConnectedApps, recordConsent, revokeApplicationAccess } from "../auth/oauth/grants";
import { createUser } from "../users/users";
import { listApplicationsForOperator, reviewApplication, reviewOrigin, setIntrospectionAllowed } from "./application-review";
import { createApplication, deleteApplication, getApplication, rotateClientSecret, updateApplication } from "./applications";
import { clientSecretMatches } from "./client-secrets";

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const newUser = (role?: "operator") =>
  createUser(handle.db, { name: "User", email: `u-${randomUUID()}@test.example`, password: "correct horse battery" }, role ? { role } : {});
const base = {
  name: "Club sync",
  redirectUris: ["https://sync.example/cb"],
  embedOrigins: [] as string[],
  scopes: ["openid", "sessions:read"],
};

describe("applications", () => {
  it("returns a confidential client's secret once and stores only its hash", async () => {
    const owner = await newUser();
    const { application, clientSecret } = await createApplication(handle.db, owner.id, {
      ...base,
      surface: "data",
      clientType: "confidential",
    });
    const [row] = await handle.db.select().from(oauthApplications).where(eq(oauthApplications.id, application.id));
    expect(clientSecretMatches(row.clientSecretHash, clientSecret)).toBe(true);
    expect(JSON.stringify(row)).not.toContain(clientSecret!.slice(12));
    expect(JSON.stringify(await getApplication(handle.db, owner.id, application.id))).not.toContain(clientSecret!.slice(12));
    const rotated = await rotateClientSecret(handle.db, owner.id, application.id);
    const [after] = await handle.db.select().from(oauthApplications).where(eq(oauthApplications.id, application.id));
    expect(clientSecretMatches(after.clientSecretHash, clientSecret)).toBe(false);
    expect(clientSecretMatches(after.clientSecretHash, rotated.clientSecret)).toBe(true);
  });

  it("gives public clients no secret", async () => {
    const owner = await newUser();
    const { application, clientSecret } = await createApplication(handle.db, owner.id, { ...base, surface: "data", clientType: "public" });
    expect(clientSecret).toBeNull();
    expect(application.clientSecretStart).toBeNull();
    await expect(rotateClientSecret(handle.db, owner.id, application.id)).rejects.toMatchObject({ code: "invalid" });
  });

  it("approves a data application's origins at once and puts a partner application and its origins in review", async () => {
    const owner = await newUser();
    const data = await createApplication(handle.db, owner.id, {
      ...base,
      surface: "data",
      clientType: "public",
      embedOrigins: ["https://club.example"],
    });
    expect(data.application.reviewStatus).toBe("not_required");
    expect(data.application.origins).toMatchObject([{ origin: "https://club.example", status: "approved" }]);
    const partner = await createApplication(handle.db, owner.id, {
      ...base,
      surface: "partner",
      clientType: "confidential",
      embedOrigins: ["https://club.example"],
    });
    expect(partner.application.reviewStatus).toBe("pending");
    expect(partner.application.origins).toMatchObject([{ status: "pending" }]);
    // The operator's list counts each application's own pending origins.
    const listed = await listApplicationsForOperator(handle.db);
    expect(listed.find((a) => a.id === partner.application.id)?.pendingOrigins).toBe(1);
    expect(listed.find((a) => a.id === data.application.id)?.pendingOrigins).toBe(0);
  });

  it("sends a reviewed partner application back to review when its redirect URIs or scopes change, not its name", async () => {
    const owner = await newUser();
    const operator = await newUser("operator");
    const { application } = await createApplication(handle.db, owner.id, {
      ...base,
      surface: "partner",
      clientType: "confidential",
      embedOrigins: ["https://club.example"],
    });
    await reviewApplication(handle.db, operator.id, { id: application.id, decision: "approved" });
    await reviewOrigin(handle.db, { applicationId: application.id, originId: application.origins[0].id, decision: "approved" });
    expect(
      (await updateApplication(handle.db, owner.id, application.id, { ...base, name: "Renamed", embedOrigins: ["https://club.example"] }))
        .reviewStatus,
    ).toBe("approved");
    const edited = await updateApplication(handle.db, owner.id, application.id, {
      ...base,
      redirectUris: ["https://sync.example/other"],
      embedOrigins: ["https://club.example", "https://new.example"],
    });
    expect(edited.reviewStatus).toBe("pending");
    expect(edited.origins).toMatchObject([
      { origin: "https://club.example", status: "approved" },
      { origin: "https://new.example", status: "pending" },
    ]);
  });

  it("keeps other users' applications out of reach (same 404 as a missing one)", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const { application } = await createApplication(handle.db, owner.id, { ...base, surface: "data", clientType: "confidential" });
    for (const attempt of [
      () => getApplication(handle.db, stranger.id, application.id),
      () => updateApplication(handle.db, stranger.id, application.id, base),
      () => rotateClientSecret(handle.db, stranger.id, application.id),
      () => deleteApplication(handle.db, stranger.id, application.id),
    ]) {
      const error = await attempt().catch((e) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error.code).toBe("not_found");
    }
  });

  it("lets only confidential clients be allowed to introspect", async () => {
    const owner = await newUser();
    const { application } = await createApplication(handle.db, owner.id, { ...base, surface: "data", clientType: "public" });
    await expect(setIntrospectionAllowed(handle.db, { id: application.id, allowed: true })).rejects.toMatchObject({ code: "invalid" });
  });

  it("deleting an application revokes its grants and deletes their tokens", async () => {
    const owner = await newUser();
    const { application } = await createApplication(handle.db, owner.id, { ...base, surface: "data", clientType: "confidential" });
    const grantId = randomUUID();
    const token = randomUUID();
    const adapter = createAdapterFactory(handle.db);
    await adapter("Grant").upsert(grantId, { jti: grantId, accountId: String(owner.id), clientId: application.clientId }, 3600);
    await adapter("AccessToken").upsert(token, { jti: token, grantId, clientId: application.clientId }, 600);
    await recordConsent(handle.db, {
      grantId,
      userId: owner.id,
      applicationId: application.id,
      scopes: ["openid"],
      declinedScopes: [],
      expiresAt: new Date(Date.now() + 3600_000),
    });
    expect(await listConnectedApps(handle.db, owner.id)).toHaveLength(1);
    await deleteApplication(handle.db, owner.id, application.id);
    expect(await handle.db.select().from(oauthModels).where(eq(oauthModels.grantId, grantId))).toHaveLength(0);
    expect(await listConnectedApps(handle.db, owner.id)).toHaveLength(0);
  });
});

describe("connected apps", () => {
  it("lists the applications holding an active grant with their scopes, and revokes them", async () => {
    const owner = await newUser();
    const { application } = await createApplication(handle.db, owner.id, {
      ...base,
      surface: "data",
      clientType: "confidential",
      scopes: ["openid", "sessions:read", "health:read"],
    });
    const grantId = randomUUID();
    await recordConsent(handle.db, {
      grantId,
      userId: owner.id,
      applicationId: application.id,
      scopes: ["sessions:read", "openid"],
      declinedScopes: ["health:read"],
      expiresAt: new Date(Date.now() + 3600_000),
    });
    expect(await listConnectedApps(handle.db, owner.id)).toMatchObject([
      { applicationId: application.id, name: "Club sync", scopes: ["openid", "sessions:read"], declinedScopes: ["health:read"] },
    ]);
    const stranger = await newUser();
    await expect(revokeApplicationAccess(handle.db, stranger.id, application.id)).rejects.toMatchObject({ code: "not_found" });
    await revokeApplicationAccess(handle.db, owner.id, application.id);
    expect(await listConnectedApps(handle.db, owner.id)).toEqual([]);
  });
});
