import { request as playwrightRequest } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signedInContext, signUpOverHttp } from "./api-helpers";
import { signIn } from "./helpers";

/**
 * Open-redirect probes on every return path after sign-in (issue 14, defect
 * 10; docs/auth.md "Return paths"): the callbackUrl of /signin, for a
 * signed-in visitor (307 Location) and in the browser after signing in, and
 * next-auth's own redirect (the url its credentials callback answers).
 * Every hostile value ends on the site's own origin.
 */
const HOSTILE = [
  "/\\evil.example/x",
  "\\\\evil.example/x",
  "/\t/evil.example/x",
  "/\n/evil.example/x",
  "//evil.example/x",
  "///evil.example/x",
  "/.//evil.example/x",
  "https:evil.example/x",
  "https://evil.example/x",
  "http://localhost.evil.example/x",
  "javascript:alert(document.domain)",
];
/** The raw query strings a link would carry: encoded forms included. */
const ENCODED = [
  "%2F%5Cevil.example%2Fx",
  "%2F%09%2Fevil.example",
  "%2F%2Fevil.example",
  "https%3Aevil.example",
  "%5C%5Cevil.example",
  "javascript%3Aalert(1)",
];

test("a signed-in visitor is sent to a same-origin path, never to another host (307 Location)", async ({ baseURL }) => {
  const account = await signUpOverHttp(baseURL!, "return");
  const context = await signedInContext(baseURL!, account);
  const queries = [...HOSTILE.map((v) => `callbackUrl=${encodeURIComponent(v)}`), ...ENCODED.map((v) => `callbackUrl=${v}`)];
  for (const query of queries) {
    const response = await context.get(`/signin?${query}`, { maxRedirects: 0 });
    expect(response.status(), query).toBe(307);
    expect(response.headers()["location"], query).toBe("/");
  }
  // A same-origin path is kept.
  const kept = await context.get(`/signin?callbackUrl=${encodeURIComponent("/records?x=1")}`, { maxRedirects: 0 });
  expect(kept.headers()["location"]).toBe("/records?x=1");
  await context.dispose();
});

test("next-auth's redirect after the credentials callback stays on the site", async ({ baseURL }) => {
  const account = await signUpOverHttp(baseURL!, "callback");
  for (const callbackUrl of HOSTILE) {
    const context = await playwrightRequest.newContext({ baseURL });
    const { csrfToken } = await (await context.get("/api/auth/csrf")).json();
    const response = await context.post("/api/auth/callback/credentials", {
      form: { csrfToken, email: account.email, password: account.password, callbackUrl, json: "true" },
      maxRedirects: 0,
    });
    const url = new URL((await response.json()).url);
    expect(url.origin, callbackUrl).toBe(new URL(baseURL!).origin);
    expect(url.pathname.startsWith("//"), callbackUrl).toBe(false);
    await context.dispose();
  }
});

test("after signing in in the browser, a hostile callbackUrl lands on the site's home page", async ({ page, baseURL }) => {
  const account = await signUpOverHttp(baseURL!, "browser");
  for (const query of ["callbackUrl=%2F%5Cevil.example%2Fx", "callbackUrl=%2F%09%2Fevil.example", "callbackUrl=https%3Aevil.example"]) {
    await page.context().clearCookies();
    await page.goto(`/signin?${query}`);
    await signIn(page, account, { navigate: false });
    await expect(page.getByRole("heading", { name: "Sessions", exact: true })).toBeVisible();
    expect(new URL(page.url()).origin, query).toBe(new URL(baseURL!).origin);
    expect(new URL(page.url()).pathname, query).toBe("/");
  }
});
