import { randomBytes, randomUUID } from "node:crypto";
import type { Db } from "@/server/db/client";
import { createApplication } from "@/server/applications/applications";
import { reviewApplication } from "@/server/applications/application-review";
import { createAdapterFactory } from "@/server/auth/oauth/adapter";
import { apiResource } from "@/server/auth/oauth/config";
import { recordConsent, revokeGrant } from "@/server/auth/oauth/grants";
import { SCOPE_INFO, type Scope, type Surface } from "@/server/auth/oauth/scopes";
import { createKeyPair } from "@/server/keys/key-pairs";
import { createUser } from "@/server/users/users";

/**
 * Credentials made directly through the domain's own functions, without a
 * browser or a consent screen: people, key pairs, OAuth applications, grants
 * and access tokens. A token is stored exactly as oidc-provider stores one
 * (through its adapter, with the Grant and the consent record), so the
 * admission code verifies it as it verifies a token from the real flow.
 */
export type Person = Awaited<ReturnType<typeof createUser>>;
export type Application = Awaited<ReturnType<typeof createApplication>>["application"];

export async function createPerson(
  db: Db,
  options: { role?: "viewer" | "athlete" | "coach" | "operator"; name?: string } = {},
): Promise<Person> {
  const tag = randomBytes(6).toString("hex");
  return createUser(
    db,
    { name: options.name ?? `Person ${tag}`, email: `person-${tag}@api-test.example`, password: `password-${tag}` },
    { role: options.role ?? "coach" },
  );
}

/** A key pair of `userId`, as the results API's bearer credential `<public>.<secret>`. */
export async function createKeyPairToken(db: Db, userId: number): Promise<{ token: string; publicKey: string; keyPairId: number }> {
  const { keyPair, secretKey } = await createKeyPair(db, userId, { name: `Key ${randomBytes(3).toString("hex")}` });
  return { token: `${keyPair.publicKey}.${secretKey}`, publicKey: keyPair.publicKey, keyPairId: keyPair.id };
}

/** The scopes a token of the surface gets in the tests (e2e's too): openid, profile and every API scope the surface allows. */
export const tokenScopesOfSurface = (surface: Surface) =>
  scopesOfSurface(surface).filter((scope) => scope !== "email" && scope !== "offline_access");

/** Every scope an application of the surface may register. */
export const scopesOfSurface = (surface: Surface) =>
  (Object.keys(SCOPE_INFO) as Scope[]).filter((scope) => SCOPE_INFO[scope].surfaces.includes(surface));

const operatorOf = new WeakMap<Db, Promise<Person>>();

/** An application of `ownerId` on the surface; a partner application is approved by an operator, as on the operator pages. */
export async function createOAuthApplication(
  db: Db,
  ownerId: number,
  options: { surface?: Surface; scopes?: Scope[]; embedOrigins?: string[] } = {},
): Promise<Application> {
  const surface = options.surface ?? "data";
  const { application } = await createApplication(db, ownerId, {
    name: `API test ${surface} app`,
    surface,
    clientType: "confidential",
    // A host of its own: the pairwise subject is per sector (the redirect host), as for two real applications.
    redirectUris: [`https://app-${randomBytes(4).toString("hex")}.example/callback`],
    embedOrigins: options.embedOrigins ?? [],
    scopes: options.scopes ?? scopesOfSurface(surface),
  });
  if (surface === "partner") {
    if (!operatorOf.has(db)) operatorOf.set(db, createPerson(db, { role: "operator" }));
    await reviewApplication(db, (await operatorOf.get(db)!).id, { id: application.id, decision: "approved" });
  }
  return application;
}

export interface IssuedToken {
  token: string;
  grantId: string;
}

/**
 * An access token of `userId` for the application holding `scopes`, with its
 * grant. `tokenLifetimeSeconds` below zero makes a token that has expired
 * while its grant lives; `audience` defaults to the Data API's.
 */
export async function issueToken(
  db: Db,
  options: {
    userId: number;
    application: Pick<Application, "id" | "clientId">;
    scopes: string[];
    audience?: string | null;
    tokenLifetimeSeconds?: number;
    grantLifetimeSeconds?: number;
  },
): Promise<IssuedToken> {
  const adapter = createAdapterFactory(db);
  const grantId = randomUUID();
  const grantLifetime = options.grantLifetimeSeconds ?? 3600;
  const tokenLifetime = options.tokenLifetimeSeconds ?? 3600;
  const nowS = Math.floor(Date.now() / 1000);
  await adapter("Grant").upsert(
    grantId,
    { jti: grantId, kind: "Grant", accountId: String(options.userId), clientId: options.application.clientId },
    grantLifetime,
  );
  await recordConsent(db, {
    grantId,
    userId: options.userId,
    applicationId: options.application.id,
    scopes: options.scopes as Scope[],
    declinedScopes: [],
    expiresAt: new Date(Date.now() + grantLifetime * 1000),
  });
  // 43 base64url characters, as oidc-provider's opaque tokens.
  const token = randomBytes(32).toString("base64url");
  const payload: Record<string, unknown> = {
    jti: token,
    kind: "AccessToken",
    accountId: String(options.userId),
    clientId: options.application.clientId,
    grantId,
    scope: options.scopes.join(" "),
    exp: nowS + tokenLifetime,
    iat: nowS,
  };
  if (options.audience !== null) payload.aud = options.audience ?? apiResource();
  await adapter("AccessToken").upsert(token, payload, tokenLifetime);
  return { token, grantId };
}

/** Revokes the grant behind a token, as DELETE /authorization and the connected-apps page do. */
export const revokeToken = (db: Db, issued: IssuedToken) => revokeGrant(db, issued.grantId);
