import { expect, test } from "./fixtures";
import { checkPageAtBothWidths, checkPageAtWidth, DESKTOP, PHONE } from "./a11y";
import { E2E_ACCOUNTS } from "./accounts";
import { signIn, signInOverHttp } from "./helpers";
import { WEB_LOG_WORLD } from "./web-log-world";

/**
 * Every page at 390×844 and 1280×900: no sideways page scroll, and axe-core
 * finds no serious or critical violation.
 */
const SIGNED_OUT = ["/signin", "/signup"];
const SIGNED_IN = [
  "/",
  "/?view=week",
  "/upload",
  "/trainings",
  "/plans",
  "/athletes",
  "/athletes/new",
  "/tracks",
  "/tracks/new",
  "/workouts",
  "/workouts/new",
  "/workouts/import",
  "/teams",
  "/teams/new",
  "/equipment",
  "/health",
  "/records",
  "/devices",
  "/account",
  "/connected-apps",
  "/developer",
  "/developer/keys",
  "/developer/applications",
  "/developer/applications/new",
  "/no-such-page",
  "/home",
  "/?view=calendar",
  "/exports",
  "/squad",
];
/** The API references are the largest pages (every operation's schemas; axe walks each node). */
const REFERENCES = [
  "/developer/docs/results-api",
  "/developer/docs/results-api/results",
  "/developer/docs/data-api",
  "/developer/docs/data-api/sessions",
];
const OPERATOR = ["/operator", "/operator/applications"];

test.describe("every page at phone and desktop width", () => {
  // One page per test, in parallel: each page is independent of the others.
  test.describe.configure({ mode: "parallel" });

  for (const url of SIGNED_OUT) {
    test(`signed-out page ${url}`, async ({ page }) => {
      await checkPageAtBothWidths(page, url);
    });
  }

  for (const url of SIGNED_IN) {
    test(`signed-in page of a coach with sessions: ${url}`, async ({ page }) => {
      await signInOverHttp(page, WEB_LOG_WORLD.coach);
      await checkPageAtBothWidths(page, url);
    });
  }

  // The references are the heaviest pages (axe walks ~1 MB of nodes): one test per width.
  for (const url of REFERENCES) {
    for (const size of [DESKTOP, PHONE]) {
      test(`the API reference ${url} at ${size.width} px`, async ({ page }) => {
        await signInOverHttp(page, WEB_LOG_WORLD.coach);
        await checkPageAtWidth(page, url, size);
      });
    }
  }

  for (const list of ["/athletes", "/tracks", "/teams"]) {
    test(`the coach's first item of ${list}`, async ({ page }) => {
      await signInOverHttp(page, WEB_LOG_WORLD.coach);
      await page.goto(list);
      const href = await page.locator(`main a[href^="${list}/"]:not([href$="/new"])`).first().getAttribute("href");
      expect(href, `a link on ${list}`).toBeTruthy();
      await checkPageAtBothWidths(page, href!);
    });
  }

  test("the coach's first athlete's training load page", async ({ page }) => {
    await signInOverHttp(page, WEB_LOG_WORLD.coach);
    await page.goto("/athletes");
    const href = await page.locator('main a[href^="/athletes/"]:not([href$="/new"])').first().getAttribute("href");
    expect(href, "a link on /athletes").toBeTruthy();
    await checkPageAtBothWidths(page, `${href}/load`);
  });

  for (const url of OPERATOR) {
    test(`operator page ${url}`, async ({ page }) => {
      if (url === "/operator") {
        // The operator lands on the operator overview.
        await signIn(page, E2E_ACCOUNTS.operator);
        await expect(page.getByRole("heading", { name: "Operator", exact: true })).toBeVisible();
      } else await signInOverHttp(page, E2E_ACCOUNTS.operator);
      await checkPageAtBothWidths(page, url);
    });
  }

  test("the 404 page is a page of its own", async ({ page }) => {
    // Signed out, any app page first asks for sign-in.
    await page.goto("/sessions/999999999");
    await expect(page).toHaveURL(/\/signin/);
    await signIn(page, WEB_LOG_WORLD.coach);
    await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
    const missing = await page.goto("/sessions/999999999");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: /Back to your sessions/ })).toBeVisible();
  });
});
