import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signUpOverHttp } from "./api-helpers";
import { authorizeUrl, newBrowser, randomClientIp, randomValue, registerApp } from "./oauth-helpers";

/**
 * One sign-in throttle behind both doors (docs/auth.md "Failed sign-ins"),
 * over HTTP against the running server, which trusts one proxy
 * (TRUST_PROXY=1): password spraying from one address (one wrong password
 * for each of 36 different emails) is refused from the 31st attempt on the
 * site's sign-in (next-auth credentials callback) and on the OAuth sign-in
 * page alike, and the two doors share the count. The OAuth door's spray by
 * itself runs in process (test/oauth/oauth-sign-in-throttle.test.ts); the
 * site's door is next-auth, which runs only inside Next.js, so it stays here.
 */
const SPRAY = 36;
const THRESHOLD = 30;

/** A site sign-in client from one address: next-auth's CSRF cookie and token, then the credentials callback. */
async function siteDoor(baseURL: string, ip: string) {
  const context = await playwrightRequest.newContext({ baseURL, maxRedirects: 0, extraHTTPHeaders: { "x-forwarded-for": ip } });
  const { csrfToken } = await (await context.get("/api/auth/csrf")).json();
  const attempt = (email: string, password: string) =>
    context.post("/api/auth/callback/credentials", { form: { csrfToken, email, password, json: "true" } });
  return { context, attempt };
}

/** One password attempt on a fresh OAuth sign-in page from `ip`. */
async function oauthDoorAttempt(baseURL: string, ip: string, clientId: string, redirectUri: string, email: string, password: string) {
  const browser: APIRequestContext = await newBrowser(baseURL, ip);
  const start = await browser.get(authorizeUrl(baseURL, { clientId, redirectUri }));
  const interaction = new URL(start.headers()["location"]).pathname;
  const response = await browser.post(interaction, { form: { action: "signin", email, password }, headers: { origin: baseURL } });
  const status = response.status();
  const text = await response.text();
  await browser.dispose();
  return { status, text };
}

const sprayEmail = () => `sprayed-${randomValue()}@e2e.example`;

/**
 * Runs `count` attempts a few at a time and returns their results in order. Only while the
 * address's failures stay below the threshold: each attempt reads the count before it fails,
 * so none can be refused whatever their order, and together they add exactly `count`.
 */
async function belowThreshold<T>(count: number, attempt: (i: number) => Promise<T>): Promise<T[]> {
  expect(count).toBeLessThanOrEqual(THRESHOLD);
  const results: T[] = [];
  for (let first = 1; first <= count; first += 6) {
    const batch = Array.from({ length: Math.min(6, count - first + 1) }, (_, k) => attempt(first + k));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

test("site sign-in: a password spray from one address is refused from attempt 31, with 429 and Retry-After, even for a right password", async ({
  baseURL,
}) => {
  const ip = randomClientIp();
  const { context, attempt } = await siteDoor(baseURL!, ip);
  const statuses: number[] = [];
  const allowed = await belowThreshold(THRESHOLD, async () => {
    const response = await attempt(sprayEmail(), "Summer2026!");
    return { status: response.status(), body: await response.json() };
  });
  allowed.forEach(({ status, body }, k) => {
    statuses.push(status);
    expect(status, `attempt ${k + 1}`).not.toBe(429);
    expect(new URL(body.url).searchParams.get("error")).toBe("Email or password is incorrect.");
  });
  for (let i = THRESHOLD + 1; i <= SPRAY; i++) {
    const response = await attempt(sprayEmail(), "Summer2026!");
    statuses.push(response.status());
    const body = await response.json();
    expect(response.status(), `attempt ${i}`).toBe(429);
    expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
    // The body is what next-auth's client reads: the sign-in page shows the message.
    expect(new URL(body.url).searchParams.get("error")).toMatch(
      /^Too many failed sign-ins from your network\. Try again in \d+ minutes?\.$/,
    );
  }
  expect(statuses.indexOf(429) + 1).toBe(THRESHOLD + 1);

  // A real account with its right password is refused from that address too, and no session cookie is set…
  const victim = await signUpOverHttp(baseURL!, "victim");
  const refused = await attempt(victim.email, victim.password);
  expect(refused.status()).toBe(429);
  expect(refused.headers()["set-cookie"] ?? "").not.toContain("session-token");
  // …while from another address it signs in: the account itself is not locked.
  const elsewhere = await siteDoor(baseURL!, randomClientIp());
  const accepted = await elsewhere.attempt(victim.email, victim.password);
  expect(accepted.status()).toBe(200);
  expect(new URL((await accepted.json()).url).searchParams.get("error")).toBeNull();
  await Promise.all([context.dispose(), elsewhere.context.dispose()]);
});

test("both doors share one count per address", async ({ baseURL }) => {
  const app = await registerApp(baseURL!);
  const ip = randomClientIp();
  const { context, attempt } = await siteDoor(baseURL!, ip);
  // 20 failures at the site, then 10 at the OAuth page: the next attempt at either door is refused.
  for (const response of await belowThreshold(20, () => attempt(sprayEmail(), "Summer2026!"))) expect(response.status()).not.toBe(429);
  const oauthAttempts = await belowThreshold(10, () =>
    oauthDoorAttempt(baseURL!, ip, app.clientId, app.redirectUri, sprayEmail(), "Summer2026!"),
  );
  for (const { status } of oauthAttempts) expect(status).toBe(303);
  expect((await oauthDoorAttempt(baseURL!, ip, app.clientId, app.redirectUri, sprayEmail(), "Summer2026!")).status).toBe(429);
  expect((await attempt(sprayEmail(), "Summer2026!")).status()).toBe(429);
  await context.dispose();
});

test("an account locked at one door is locked at the other", async ({ baseURL }) => {
  const app = await registerApp(baseURL!);
  const owner = app.owner;
  // Five wrong passwords at the site, each from another address: the account lock, not the address one.
  for (let i = 0; i < 5; i++) {
    const { context, attempt } = await siteDoor(baseURL!, randomClientIp());
    expect((await attempt(owner.email, "wrong password!")).status()).not.toBe(429);
    await context.dispose();
  }
  // The right password at the OAuth page, from yet another address: refused with the lock's message.
  const browser = await newBrowser(baseURL!);
  const start = await browser.get(authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri }));
  const interaction = new URL(start.headers()["location"]).pathname;
  const locked = await browser.post(interaction, {
    form: { action: "signin", email: owner.email, password: owner.password },
    headers: { origin: baseURL! },
  });
  expect(locked.status()).toBe(303);
  expect(locked.headers()["location"]).toContain("error=throttled");
  await browser.dispose();
});
