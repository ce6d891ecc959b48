import { expect } from "vitest";
import type { Scope, Surface } from "@/server/auth/oauth/scopes";
import { NOT_FOUND_DESCRIPTION } from "@/server/http/data-api/errors";
import type { ApiAnswer, ApiHarness, ApiName } from "./harness";
import { createOAuthApplication, issueToken, tokenScopesOfSurface } from "./harness/credentials";
import type { FixtureKey, MatrixRequest, MatrixWorld, OperationFixture } from "./security-fixtures";

/**
 * The security cases every secured operation of both APIs must pass (issue
 * 22 §3, docs/data-api.md "Errors", docs/results-api.md "Errors"), from the
 * operation's own declaration in the served document (x-scopes, x-surfaces,
 * security) and a concrete request for it (security-fixtures.ts). Every
 * answer is validated against the document by the harness's call().
 */
export interface SecuredOperation {
  key: FixtureKey;
  api: ApiName;
  method: string;
  template: string;
  scopes: Scope[];
  surfaces: Surface[];
  /** Results API: the bare public key is enough. */
  publicKeyAllowed: boolean;
}

/** Every operation of a served document that asks for a credential. */
export function securedOperations(api: ApiHarness, name: ApiName): SecuredOperation[] {
  const doc = api.documents[name].doc as {
    paths: Record<string, Record<string, { security?: Record<string, string[]>[]; "x-scopes"?: Scope[]; "x-surfaces"?: Surface[] }>>;
  };
  return Object.entries(doc.paths).flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([, op]) => op.security?.length)
      .map(([method, op]) => ({
        key: `${name} ${method} ${template}` as FixtureKey,
        api: name,
        method,
        template,
        scopes: op["x-scopes"] ?? [],
        surfaces: op["x-surfaces"] ?? [],
        publicKeyAllowed: Boolean(op.security!.some((s) => "publicKey" in s)),
      })),
  );
}

const send = (api: ApiHarness, op: SecuredOperation, request: MatrixRequest, token: string | null) =>
  api.call(op.method, request.path, { token, body: request.body, query: request.query, headers: request.headers });

/** An error body without its request id: what must be the same for absent and not-yours. */
const withoutRequestId = (answer: ApiAnswer) => {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { request_id, ...rest } = answer.body as Record<string, unknown>;
  return { status: answer.status, ...rest };
};

function expectRequestId(answer: ApiAnswer) {
  expect(answer.body.request_id).toBe(answer.headers.get("x-request-id"));
}

/** Another person's row answers exactly as no row at all. */
async function expectForeignAsAbsent(api: ApiHarness, op: SecuredOperation, fixture: OperationFixture, token: string, label: string) {
  if (!fixture.foreign || !fixture.absent) {
    expect(fixture.noForeign, `${label}: names a row, so it needs foreign and absent requests`).toBeTruthy();
    return;
  }
  const foreign = await send(api, op, fixture.foreign, token);
  const absent = await send(api, op, fixture.absent, token);
  expect(foreign.status, `${label}: another person's row`).toBe(404);
  expect(withoutRequestId(foreign), label).toEqual(withoutRequestId(absent));
}

/** A token of the person holding every scope of the data surface but `missing`. */
async function tokenLacking(api: ApiHarness, world: MatrixWorld, missing: Scope[]): Promise<string> {
  const scopes = tokenScopesOfSurface("data").filter((s) => !missing.includes(s));
  return (await issueToken(api.db, { userId: world.world.anna.userId, application: world.anna.app, scopes })).token;
}

export async function checkDataApiOperation(api: ApiHarness, world: MatrixWorld, op: SecuredOperation, fixture: OperationFixture) {
  const label = op.key;
  const tokens = world.anna;
  const own = fixture.own;
  const ownToken = own.freshToken
    ? (
        await issueToken(api.db, {
          userId: world.world.anna.userId,
          application: await createOAuthApplication(api.db, world.world.anna.userId),
          scopes: tokenScopesOfSurface("data"),
        })
      ).token
    : tokens.full;
  const shared = api.documents.results.templateOf(op.method, own.path) !== null;

  // No credential: 401 with the bare challenge (a shared path answers both shapes, validated against both documents).
  const none = await send(api, op, own, null);
  expect(none.status, label).toBe(401);
  expect(none.body.error, label).toBe(shared ? "unauthorized" : "invalid_token");
  expectRequestId(none);
  if (!shared) expect(none.headers.get("www-authenticate"), label).toBe('Bearer realm="data-api"');

  // A bad, an expired, a revoked token, and a key pair (the other API's credential): 401 invalid_token.
  for (const [what, token] of [
    ["not a token we issued", "not-a-token-we-issued"],
    ["expired", tokens.expired],
    ["revoked", tokens.revoked],
  ] as const) {
    const refused = await send(api, op, own, token);
    expect(refused.status, `${label}: ${what}`).toBe(401);
    expect(refused.body, `${label}: ${what}`).toMatchObject({
      error: "invalid_token",
      error_description: "The access token is invalid, expired or revoked",
    });
    expect(refused.headers.get("www-authenticate"), `${label}: ${what}`).toContain('error="invalid_token"');
  }
  const keyPair = await send(api, op, own, world.keyPair);
  if (shared) {
    // The path is the results API's too: a key pair is answered there.
    expect(keyPair.status, `${label}: key pair on a shared path`).toBe(200);
  } else {
    expect(keyPair.status, `${label}: key pair`).toBe(401);
    expect(keyPair.body.error, `${label}: key pair`).toBe("invalid_token");
  }

  // Another audience (the userinfo endpoint's token): 401 that says so.
  const audience = await send(api, op, own, tokens.userinfoOnly);
  expect(audience.status, `${label}: userinfo token`).toBe(401);
  expect(audience.body.error_description, `${label}: userinfo token`).toMatch(/audience is not the Data API/);

  // Without one of the scopes: 403 insufficient_scope naming all of them.
  const lacking = [op.scopes, ...(op.scopes.length > 1 ? op.scopes.map((s) => [s]) : [])];
  for (const missing of lacking) {
    const forbidden = await send(api, op, own, await tokenLacking(api, world, missing));
    expect(forbidden.status, `${label}: without ${missing.join(" ")}`).toBe(403);
    expect(forbidden.body, label).toMatchObject({ error: "insufficient_scope", scope: op.scopes.join(" ") });
    expect(forbidden.headers.get("www-authenticate"), label).toContain('error="insufficient_scope"');
  }

  // A surface that does not serve the operation: absent, before any scope is looked at.
  for (const surface of ["partner", "session"] as const) {
    if (op.surfaces.includes(surface)) continue;
    const other = await send(api, op, own, tokens[surface]);
    expect(other.status, `${label} on the ${surface} surface`).toBe(404);
    expect(other.body, `${label} on the ${surface} surface`).toMatchObject({
      error: "not_found",
      error_description: NOT_FOUND_DESCRIPTION,
    });
  }

  // The subject's own request: the documented answer; then another person's row.
  const allowed = await send(api, op, own, ownToken);
  expect(allowed.status, `${label}: ${JSON.stringify(allowed.body).slice(0, 300)}`).toBe(own.status);
  await expectForeignAsAbsent(api, op, fixture, tokens.full, label);
}

export async function checkResultsApiOperation(api: ApiHarness, world: MatrixWorld, op: SecuredOperation, fixture: OperationFixture) {
  const label = op.key;
  const own = fixture.own;
  const shared = api.documents.data.templateOf(op.method, own.path) !== null;

  const none = await send(api, op, own, null);
  expect(none.status, label).toBe(401);
  expect(none.body.error, label).toBe("unauthorized");
  expectRequestId(none);
  if (!shared) expect(none.headers.get("www-authenticate"), label).toBe('Bearer realm="results-api"');

  for (const [what, token] of [
    ["not a key we issued", "svcpk_nope.svcsk_nope"],
    ["revoked", world.revokedKeyPair],
  ] as const) {
    const refused = await send(api, op, own, token);
    expect(refused.status, `${label}: ${what}`).toBe(401);
    expect(refused.body, `${label}: ${what}`).toMatchObject({ error: "unauthorized", message: "Public or secret key invalid" });
  }

  // An access token (the other API's credential): refused, unless the path is the Data API's too.
  const accessToken = await send(api, op, own, world.anna.full);
  expect(accessToken.status, `${label}: access token`).toBe(shared ? 200 : 401);

  // The bare public key: enough for the reference tables only.
  const bare = await send(api, op, own, world.publicKey);
  if (op.publicKeyAllowed) expect(bare.status, `${label}: public key`).toBe(own.status);
  else
    expect(bare.body, `${label}: public key`).toMatchObject({
      error: "unauthorized",
      message: expect.stringMatching(/^Secret key not supplied/),
    });

  const allowed = await send(api, op, own, world.keyPair);
  expect(allowed.status, `${label}: ${JSON.stringify(allowed.body).slice(0, 300)}`).toBe(own.status);
  await expectForeignAsAbsent(api, op, fixture, world.keyPair, label);
}
