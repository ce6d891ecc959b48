import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as route from "@/app/(oauth)/oauth/interaction/[uid]/route";
import { getEnv } from "../../config/env";
import type { DbHandle } from "../../db/client";
import { openTestDb } from "../../../test/support/test-db";
import { handleOAuthRequest } from "./handle-request";
import { OAUTH_LIMITS } from "./rate-limits";
import { makeOwnerAndApp } from "../../../test/support/oauth-fixtures";

/**
 * The OAuth interaction route, called with a Request against the real
 * provider and database (docs/oauth.md "Sign-in and consent"): the step
 * redirects, the cross-site refusal, unreadable forms, the sign-in's rate
 * limit with its HTML 429, and a sign-in that completes.
 */
let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

const origin = () => new URL(getEnv().appUrl).origin;

/** A fresh authorization request: the interaction's uid and the browser's interaction cookies. */
async function startInteraction() {
  const { owner, application } = await makeOwnerAndApp(handle.db);
  const url = new URL(`${origin()}/api/oauth/authorize`);
  const params = {
    client_id: application.clientId,
    redirect_uri: "https://app.example/callback",
    response_type: "code",
    scope: "openid sessions:read",
    state: "s1",
    nonce: "n-0S6_WzA2Mj",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const response = await handleOAuthRequest(new Request(url), ["authorize"]);
  const location = new URL(response.headers.get("location")!, origin());
  const uid = /^\/oauth\/interaction\/([^/]+)$/.exec(location.pathname)![1];
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return { owner, uid, cookie };
}

const context = (uid: string) => ({ params: Promise.resolve({ uid }) });
const post = (uid: string, body: BodyInit | null, headers: Record<string, string>) =>
  route.POST(
    new Request(`${origin()}/oauth/interaction/${uid}`, {
      method: "POST",
      body,
      headers: { "sec-fetch-site": "same-origin", origin: "null", ...headers },
    }),
    context(uid),
  );
const postForm = (uid: string, cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post(uid, new URLSearchParams(fields), { cookie, "content-type": "application/x-www-form-urlencoded", ...headers });

describe("the OAuth interaction route", () => {
  it("GET sends the browser to the sign-in page of its interaction, an unknown one to /oauth/expired", async () => {
    const { uid, cookie } = await startInteraction();
    const step = await route.GET(new Request(`${origin()}/oauth/interaction/${uid}`, { headers: { cookie } }), context(uid));
    expect(step.status).toBe(303);
    expect(new URL(step.headers.get("location")!).pathname).toBe(`/oauth/interaction/${uid}/signin`);
    expect(step.headers.get("cache-control")).toBe("no-store");
    const unknown = await route.GET(new Request(`${origin()}/oauth/interaction/nope`), context("nope"));
    expect(new URL(unknown.headers.get("location")!).pathname).toBe("/oauth/expired");
  });

  it("refuses a cross-site post (Fetch Metadata or Origin) with 403, an unreadable form or unknown action with 400", async () => {
    const { uid, cookie } = await startInteraction();
    const consent = { action: "consent", decision: "allow" };
    expect((await postForm(uid, cookie, consent, { "sec-fetch-site": "cross-site", origin: "https://attacker.example" })).status).toBe(403);
    expect((await postForm(uid, cookie, consent, { "sec-fetch-site": "same-site" })).status).toBe(403);
    const noFetchMetadata = route.POST(
      new Request(`${origin()}/oauth/interaction/${uid}`, {
        method: "POST",
        body: new URLSearchParams(consent),
        headers: { cookie, origin: "https://attacker.example" },
      }),
      context(uid),
    );
    expect((await noFetchMetadata).status).toBe(403);

    expect((await post(uid, JSON.stringify(consent), { cookie, "content-type": "application/json" })).status).toBe(400);
    expect(
      (await post(uid, "action=signin&email=" + "a".repeat(20_000), { cookie, "content-type": "application/x-www-form-urlencoded" }))
        .status,
    ).toBe(400);
    expect((await postForm(uid, cookie, { action: "something-else" })).status).toBe(400);
  });

  it(`a wrong password goes back to the form; past ${OAUTH_LIMITS.signInPerInteraction.limit} attempts on one sign-in page an HTML 429, the right password too`, async () => {
    const { owner, uid, cookie } = await startInteraction();
    for (let i = 1; i <= OAUTH_LIMITS.signInPerInteraction.limit; i++) {
      const response = await postForm(uid, cookie, { action: "signin", email: `nobody-${i}@test.example`, password: "not-a-password" });
      expect(response.status, `attempt ${i}`).toBe(303);
      expect(response.headers.get("location")).toContain(`/oauth/interaction/${uid}/signin?error=invalid`);
    }
    const refused = await postForm(uid, cookie, { action: "signin", email: owner.email, password: "correct horse battery" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(refused.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const html = await refused.text();
    expect(html).toContain("Too many sign-in attempts");
    expect(html).toContain(`href="/oauth/interaction/${uid}/signin"`);
  });

  it("the right password completes the sign-in: back to the provider, with the site session", async () => {
    const { owner, uid, cookie } = await startInteraction();
    const signedIn = await postForm(uid, cookie, { action: "signin", email: owner.email, password: "correct horse battery" });
    expect(signedIn.status).toBe(303);
    expect(new URL(signedIn.headers.get("location")!).pathname).toMatch(/^\/api\/oauth\/authorize\/[^/]+$/);
    expect(signedIn.headers.getSetCookie().join("\n")).toMatch(/session-token=/);
  });
});
