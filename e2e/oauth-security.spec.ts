import { expect, test } from "./fixtures";
import { authorizeUrl, newBrowser, registerApp } from "./oauth-helpers";

/**
 * The authorization server's security suite (issue 5) runs in process since
 * issue 22: test/oauth/*.test.ts (PKCE, redirect URIs, codes, refresh tokens,
 * revocation, client authentication, introspection, audiences, discovery,
 * rate limits, forged forms). What stays here needs the production server:
 * the sign-in and consent pages Next.js renders, with the headers
 * next.config.mjs gives them.
 */

test.describe("pages and cookies", () => {
  test("sign-in and consent pages cannot be framed and send no referrer; cookies are HttpOnly and SameSite", async ({ baseURL }) => {
    const app = await registerApp(baseURL!);
    const browser = await newBrowser(baseURL!);
    const checkCookies = (response: Awaited<ReturnType<typeof browser.get>>) => {
      const cookies = response
        .headersArray()
        .filter((h) => h.name.toLowerCase() === "set-cookie")
        .map((h) => h.value);
      for (const cookie of cookies) {
        expect(cookie, cookie).toMatch(/;\s*httponly/i);
        expect(cookie, cookie).toMatch(/;\s*samesite=lax/i);
        // The e2e server runs on plain http://localhost; with an https APP_URL every cookie is Secure.
        expect(cookie, cookie).not.toMatch(/;\s*secure/i);
      }
      return cookies.length;
    };
    const checkPage = (response: Awaited<ReturnType<typeof browser.get>>) => {
      const headers = response.headers();
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(headers["x-frame-options"]).toBe("DENY");
      expect(headers["referrer-policy"]).toBe("no-referrer");
      expect(headers["cache-control"]).toContain("no-store");
    };
    const start = await browser.get(authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, prompt: "consent" }));
    expect(checkCookies(start)).toBeGreaterThan(0);
    const interaction = new URL(start.headers()["location"]).pathname;
    const toSignIn = await browser.get(interaction);
    const signInPage = await browser.get(new URL(toSignIn.headers()["location"], baseURL).pathname);
    expect(signInPage.status()).toBe(200);
    checkPage(signInPage);
    const signedIn = await browser.post(interaction, {
      form: { action: "signin", email: app.owner.email, password: app.owner.password },
      headers: { origin: "null" },
    });
    expect(checkCookies(signedIn)).toBeGreaterThan(0);
    let location = signedIn.headers()["location"];
    for (let hop = 0; hop < 5 && !location.endsWith("/consent"); hop++) {
      const response = await browser.get(location);
      checkCookies(response);
      location = new URL(response.headers()["location"], baseURL).toString();
    }
    const consentPage = await browser.get(location);
    expect(consentPage.status()).toBe(200);
    checkPage(consentPage);
  });
});
