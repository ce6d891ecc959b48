import { randomUUID } from "node:crypto";
import type { Db } from "../../server/db/client";
import { createApplication } from "../../server/applications/applications";
import type { ApplicationInput } from "../../server/applications/application-rules";
import { createUser } from "../../server/users/users";

/** Fresh owner and application for integration tests (each test makes its own). */
export async function makeOwnerAndApp(db: Db, input: Partial<ApplicationInput> = {}) {
  const owner = await createUser(db, { name: "Owner", email: `owner-${randomUUID()}@test.example`, password: "correct horse battery" });
  const { application, clientSecret } = await createApplication(db, owner.id, {
    name: "Test app",
    surface: "data",
    clientType: "confidential",
    redirectUris: ["https://app.example/callback"],
    embedOrigins: [],
    scopes: ["openid", "profile", "offline_access", "sessions:read", "health:read"],
    ...input,
  });
  return { owner, application, clientSecret };
}

/**
 * A Data API access token stored exactly as oidc-provider stores one (opaque:
 * the id is the token), with its Grant and consent, for integration tests and
 * benchmarks that need a token without driving the browser flow.
 */
export async function issueAccessToken(
  db: Db,
  options: { userId: number; applicationId: number; clientId: string; scopes: string[]; audience: string; lifetimeSeconds?: number },
): Promise<{ token: string; grantId: string }> {
  const { createAdapterFactory } = await import("../../server/auth/oauth/adapter");
  const { recordConsent } = await import("../../server/auth/oauth/grants");
  const grantId = randomUUID();
  const adapter = createAdapterFactory(db);
  const lifetime = options.lifetimeSeconds ?? 3600;
  const nowS = Math.floor(Date.now() / 1000);
  await adapter("Grant").upsert(
    grantId,
    { jti: grantId, kind: "Grant", accountId: String(options.userId), clientId: options.clientId },
    lifetime,
  );
  await recordConsent(db, {
    grantId,
    userId: options.userId,
    applicationId: options.applicationId,
    scopes: options.scopes,
    declinedScopes: [],
    expiresAt: new Date(Date.now() + lifetime * 1000),
  });
  const token = randomUUID().replace(/-/g, "") + randomUUID().replace(/-/g, "").slice(0, 11);
  await adapter("AccessToken").upsert(
    token,
    {
      jti: token,
      kind: "AccessToken",
      accountId: String(options.userId),
      clientId: options.clientId,
      grantId,
      scope: options.scopes.join(" "),
      aud: options.audience,
      exp: nowS + lifetime,
      iat: nowS,
    },
    lifetime,
  );
  return { token, grantId };
}
