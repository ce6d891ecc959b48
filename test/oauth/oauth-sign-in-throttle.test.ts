import { beforeAll, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { appUrl, authorizeUrl, OAuthBrowser, oauthHarness, randomClientIp, randomValue, registerApp } from "./harness";

/**
 * The sign-in throttle at the OAuth door (docs/auth.md "Failed sign-ins"), in
 * process: password spraying from one address (one wrong password for each of
 * 36 different emails, each on a fresh sign-in page) is refused from the 31st
 * attempt. The site's door and the shared count stay in
 * e2e/sign-in-throttle.spec.ts (next-auth runs only inside Next.js).
 */
const SPRAY = 36;
const THRESHOLD = 30;

const harness = oauthHarness();
let db: Db;
beforeAll(() => {
  db = harness.db;
});

it("OAuth sign-in page: a spray from one address is refused from attempt 31", async () => {
  const app = await registerApp(db);
  const ip = randomClientIp();
  let limitedAt = 0;
  for (let i = 1; i <= SPRAY; i++) {
    const browser = new OAuthBrowser(ip);
    const start = await browser.fetch(authorizeUrl({ clientId: app.clientId, redirectUri: app.redirectUri }));
    const interaction = new URL(start.headers.get("location")!).pathname;
    const form = { action: "signin", email: `sprayed-${randomValue()}@oauth.test`, password: "Summer2026!" };
    const response = await browser.fetch(interaction, { form, headers: { origin: appUrl() } });
    if (response.status === 429) {
      limitedAt ||= i;
      expect(await response.text()).toContain("Too many sign-in attempts");
    } else {
      expect(limitedAt, `attempt ${i} after a refusal`).toBe(0);
      expect(response.status).toBe(303);
    }
  }
  expect(limitedAt).toBe(THRESHOLD + 1);
});
