import { expect, test } from "@playwright/test";
import { signInPageOverHttp, signUpOverHttp } from "./api-helpers";
import { authorizeUrl, registerApp } from "./oauth-helpers";

/**
 * Issue 30 §5: on the consent screen at 1280 px, "Signed in as Name
 * (long-address@…)" ran past the card's edge: the facts grid's columns are
 * 160 px at least and an email address has no place to break. Every fact
 * (and the email's own text) must end inside the card. Needs a browser:
 * layout is the point.
 */
test("the consent screen keeps a long email address inside its card at 1280 px", async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await signUpOverHttp(baseURL!, "consent-with-a-rather-long-address");
  const app = await registerApp(baseURL!, {}, owner);
  await signInPageOverHttp(page, baseURL!, owner);
  await page.goto(authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri, prompt: "consent" }));
  await expect(page.getByRole("heading", { name: "Allow E2E app to access your account?" })).toBeVisible();

  const card = page.locator(".card").filter({ has: page.locator("dl.facts") });
  const email = card.locator("dd").filter({ hasText: owner.email });
  await expect(email).toBeVisible();
  const cardBox = (await card.boundingBox())!;
  // The text's own extent (a Range), not the dd's box: overflowing text leaves its box where the grid put it.
  const textRight = await email.evaluate((dd) => {
    const range = document.createRange();
    range.selectNodeContents(dd);
    return Math.max(...[...range.getClientRects()].map((r) => r.right));
  });
  expect(textRight).toBeLessThanOrEqual(cardBox.x + cardBox.width);
  for (const dd of await card.locator("dd").all()) {
    const box = (await dd.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
  }
  expect(await card.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
});
