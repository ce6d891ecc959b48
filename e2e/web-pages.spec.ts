import { expect, test } from "./fixtures";
import { checkPageAtBothWidths } from "./a11y";
import { E2E_ACCOUNTS } from "./accounts";
import { signIn } from "./helpers";
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
];
/** The API references are the largest pages (every operation's schemas; axe walks each node): a test of their own. */
const REFERENCES = ["/developer/docs/results-api", "/developer/docs/results-api/results", "/developer/docs/data-api", "/developer/docs/data-api/sessions"];
const OPERATOR = ["/operator", "/operator/applications"];

test.describe("every page at phone and desktop width", () => {
  test("signed-out pages", async ({ page }) => {
    for (const url of SIGNED_OUT) await checkPageAtBothWidths(page, url);
  });

  // In groups of six, so each test stays well within its time on a busy machine.
  for (let group = 0; group * 6 < SIGNED_IN.length; group++) {
    const urls = SIGNED_IN.slice(group * 6, group * 6 + 6);
    test(`signed-in pages of a coach with sessions: ${urls.join(" ")}`, async ({ page }) => {
      test.setTimeout(180_000);
      await signIn(page, WEB_LOG_WORLD.coach);
      await expect(page.getByRole("heading", { name: "Sessions", exact: true })).toBeVisible();
      for (const url of urls) await checkPageAtBothWidths(page, url);
    });
  }

  test(`the API references: ${REFERENCES.join(" ")}`, async ({ page }) => {
    test.setTimeout(300_000);
    await signIn(page, WEB_LOG_WORLD.coach);
    await expect(page.getByRole("heading", { name: "Sessions", exact: true })).toBeVisible();
    for (const url of REFERENCES) await checkPageAtBothWidths(page, url);
  });

  test("the coach's first athlete, track and team pages", async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, WEB_LOG_WORLD.coach);
    await expect(page.getByRole("heading", { name: "Sessions", exact: true })).toBeVisible();
    for (const list of ["/athletes", "/tracks", "/teams"]) {
      await page.goto(list);
      const href = await page.locator(`main a[href^="${list}/"]:not([href$="/new"])`).first().getAttribute("href");
      expect(href, `a link on ${list}`).toBeTruthy();
      await checkPageAtBothWidths(page, href!);
    }
  });

  test("operator pages", async ({ page }) => {
    // The overview lists up to 200 accounts with their actions; with CI's shared database full, the
    // accessibility check takes ~12 s per width on a loaded machine.
    test.setTimeout(120_000);
    await signIn(page, E2E_ACCOUNTS.operator);
    await expect(page.getByRole("heading", { name: "Operator", exact: true })).toBeVisible();
    for (const url of OPERATOR) await checkPageAtBothWidths(page, url);
  });

  test("the 404 page is a page of its own", async ({ page }) => {
    // Signed out, any app page first asks for sign-in.
    await page.goto("/sessions/999999999");
    await expect(page).toHaveURL(/\/signin/);
    await signIn(page, WEB_LOG_WORLD.coach);
    await expect(page.getByRole("heading", { name: "Sessions", exact: true })).toBeVisible();
    const missing = await page.goto("/sessions/999999999");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("link", { name: /Back to your sessions/ })).toBeVisible();
  });
});
