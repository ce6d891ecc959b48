import type { Browser, BrowserContext, Page } from "@playwright/test";
import { PHONE } from "./a11y";
import { E2E_ACCOUNTS } from "./accounts";
import { expect, test } from "./fixtures";
import { signIn, signInOverHttp } from "./helpers";
import { WEB_LOG_WORLD } from "./web-log-world";

/**
 * The phone first and a menu that fits (issue 20 §4; docs/web-app.md "The log
 * on a phone", "Navigation by role"): at 390 px the log is cards with the
 * numbers of the desktop table and its filters behind "Filter"; no page the
 * menu reaches scrolls sideways; at 1366 px the menu is one row; each role
 * sees its own menu. One sign-in per account, shared by the tests.
 */
const DESKTOP = { width: 1366, height: 900 };
const states = new Map<string, Awaited<ReturnType<BrowserContext["storageState"]>>>();

async function pageAs(browser: Browser, account: { email: string; password: string }, viewport = DESKTOP): Promise<Page> {
  if (!states.has(account.email)) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await signInOverHttp(page, account);
    states.set(account.email, await context.storageState());
    await context.close();
  }
  const context = await browser.newContext({ viewport, storageState: states.get(account.email) });
  const page = await context.newPage();
  const goto = page.goto.bind(page);
  // As e2e/fixtures.ts: wait for hydration, so controls answer clicks.
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 15_000 }).catch(() => {});
    return response;
  };
  return page;
}

/** The main menu's top-level entries as a person reads them: link and button names, in order. */
const menuEntries = (page: Page) =>
  page
    .getByRole("navigation", { name: "Main" })
    .locator(":scope > a, :scope > .nav-group > button")
    .evaluateAll((els) => els.map((e) => (e.textContent ?? "").replace("▾", "").trim()));

test("at 390 px the log is cards with the desktop table's distance, time and pace; Filter shows the active count and operates", async ({
  browser,
}) => {
  const page = await pageAs(browser, WEB_LOG_WORLD.coach);
  await page.goto("/?sort=distance");
  const table = page.getByTestId("session-log");
  const rows = table.locator("tbody tr");
  await expect(rows.first()).toBeVisible();
  // Desktop: the table, no cards, the filters in view without a button.
  await expect(page.getByTestId("session-cards")).toBeHidden();
  await expect(page.getByRole("button", { name: /^Filter/ })).toBeHidden();
  await expect(page.getByRole("search", { name: "Filter sessions" })).toBeVisible();
  const fromTable = await rows.evaluateAll((trs) =>
    trs.slice(0, 5).map((tr) => {
      const cells = [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim());
      // Distance, time, pace (the pace cell also has m/s in brackets).
      return [cells[5], cells[6], cells[7].replace(/\s*\(.*\)$/, "")];
    }),
  );
  expect(fromTable.length).toBeGreaterThanOrEqual(3);

  await page.setViewportSize(PHONE);
  await expect(table).toBeHidden();
  const cards = page.getByTestId("session-cards").getByRole("listitem");
  await expect(cards.first()).toBeVisible();
  // The log comes first: the first card is on the first screen, the filters folded away.
  expect((await cards.first().boundingBox())!.y).toBeLessThan(PHONE.height);
  await expect(page.getByRole("search", { name: "Filter sessions" })).toBeHidden();
  const fromCards = await cards.evaluateAll((lis) =>
    lis
      .slice(0, 5)
      .map((li) => ["distance", "time", "pace"].map((f) => (li.querySelector(`[data-figure="${f}"]`)?.textContent ?? "").trim())),
  );
  expect(fromCards).toEqual(fromTable);
  for (const card of (await cards.all()).slice(0, 3)) {
    const box = (await card.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await expect(card.getByRole("link")).toBeVisible();
  }

  // Filter: no count yet; opens the form; a boat class chosen shows "1 active" and only that class.
  const filter = page.getByRole("button", { name: /^Filter/ });
  await expect(filter).toHaveText("Filter");
  await expect(filter).toHaveAttribute("aria-expanded", "false");
  await filter.click();
  await expect(filter).toHaveAttribute("aria-expanded", "true");
  const form = page.getByRole("search", { name: "Filter sessions" });
  await expect(form).toBeVisible();
  await form.getByLabel("Boat class").selectOption({ label: "K1" });
  await form.getByRole("button", { name: "Show sessions" }).click();
  await expect(page).toHaveURL(/[?&]boat=\d+/);
  await expect(page.getByRole("button", { name: /^Filter/ })).toHaveText("Filter 1 active");
  await expect(page.getByRole("search", { name: "Filter sessions" })).toBeHidden();
  await expect(cards.first()).toBeVisible();
  expect(new Set(await cards.locator(".log-card-boat").allTextContents())).toEqual(new Set(["K1"]));
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.context().close();
});

test("no page the menu reaches scrolls sideways at 390 px, nor the session and training pages", async ({ browser }) => {
  const page = await pageAs(browser, WEB_LOG_WORLD.coach, PHONE);
  await page.goto("/");
  await page.getByRole("button", { name: "Menu" }).click();
  const nav = page.getByRole("navigation", { name: "Main" });
  // On a phone the club pages show in place under their heading: every link is reachable.
  const hrefs = await nav.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  expect(hrefs).toEqual(
    expect.arrayContaining(["/", "/trainings", "/athletes", "/teams", "/tracks", "/equipment", "/devices", "/developer"]),
  );
  await page.goto("/");
  const session = await page.getByTestId("session-cards").getByRole("link").first().getAttribute("href");
  await page.goto("/trainings");
  // The log's world may hold no training: then there is none to check (e2e/web-pages.spec.ts' crawlers check training pages).
  const training = (
    await page.locator('main a[href^="/trainings/"]').evaluateAll((links) => links.map((a) => a.getAttribute("href")!))
  ).find((h) => /^\/trainings\/\d+$/.test(h));
  const wide: string[] = [];
  for (const href of [...hrefs, "/account", session, training].filter((h): h is string => Boolean(h))) {
    await page.goto(href);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > PHONE.width) wide.push(`${href}: ${width} px`);
  }
  expect(wide).toEqual([]);
  await page.context().close();
});

test("at 1366 px the menu is one row; the club pages sit behind one disclosure that opens, closes on Escape and leads to its pages", async ({
  browser,
}) => {
  for (const account of [WEB_LOG_WORLD.coach, E2E_ACCOUNTS.operator]) {
    const page = await pageAs(browser, account);
    await page.goto("/records");
    const header = page.locator("header.topbar");
    const boxes = await header
      .locator(".brand, nav[aria-label=Main] > a, nav[aria-label=Main] > .nav-group > button, .user-menu > *")
      .evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { name: (e.textContent ?? "").trim(), top: r.top, bottom: r.bottom, width: r.width };
        }),
      );
    expect(boxes.length).toBeGreaterThanOrEqual(10);
    // One row: every entry's vertical middle on the first entry's line, none folded away.
    const middle = (b: { top: number; bottom: number }) => (b.top + b.bottom) / 2;
    for (const b of boxes) {
      expect(b.width, b.name).toBeGreaterThan(0);
      expect(Math.abs(middle(b) - middle(boxes[0])), `${b.name} on the first row`).toBeLessThan(6);
    }
    expect((await header.boundingBox())!.height).toBeLessThan(80);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(DESKTOP.width);

    const nav = page.getByRole("navigation", { name: "Main" });
    const club = nav.getByRole("button", { name: "Club" });
    await expect(club).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "Athletes" })).toBeHidden();
    await club.click();
    await expect(club).toHaveAttribute("aria-expanded", "true");
    for (const name of ["Squad", "Athletes", "Teams", "Tracks", "Equipment", "Devices"])
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(club).toHaveAttribute("aria-expanded", "false");
    await expect(club).toBeFocused();
    await club.click();
    await nav.getByRole("link", { name: "Equipment" }).click();
    await expect(page).toHaveURL(/\/equipment$/);
    await expect(club).toHaveAttribute("aria-expanded", "false");
    await expect(club).toHaveAttribute("aria-current", "true");
    await page.context().close();
  }
});

test("the menu follows the role: an athlete's own pages, a coach's club, an operator's overview", async ({ browser }) => {
  const athlete = await pageAs(browser, E2E_ACCOUNTS.athlete);
  await athlete.goto("/");
  expect(await menuEntries(athlete)).toEqual([
    "Home",
    "Sessions",
    "Upload",
    "Trainings",
    "Plans",
    "Records",
    "Health",
    "Exports",
    "Devices",
  ]);
  // The developer portal is not in an athlete's menu or header; their account page reaches it.
  await expect(athlete.locator("header").getByRole("link", { name: /Developer/ })).toHaveCount(0);
  await athlete.locator("header").getByRole("link", { name: E2E_ACCOUNTS.athlete.name }).click();
  await expect(athlete.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  await athlete.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Developer portal" }).click();
  await expect(athlete).toHaveURL(/\/developer$/);
  await athlete.context().close();

  const coach = await pageAs(browser, WEB_LOG_WORLD.coach);
  await coach.goto("/");
  expect(await menuEntries(coach)).toEqual([
    "Home",
    "Sessions",
    "Upload",
    "Trainings",
    "Plans",
    "Workouts",
    "Records",
    "Health",
    "Exports",
    "Club",
    "Developer",
  ]);
  await coach.context().close();

  // The operator lands on the operator overview (a fresh sign-in), and "Operator" goes there.
  const context = await browser.newContext({ viewport: DESKTOP });
  const operator = await context.newPage();
  await signIn(operator, E2E_ACCOUNTS.operator);
  await expect(operator).toHaveURL(/\/operator$/);
  await expect(operator.getByRole("heading", { name: "Operator", level: 1 })).toBeVisible();
  expect(await menuEntries(operator)).toEqual([
    "Home",
    "Sessions",
    "Upload",
    "Trainings",
    "Plans",
    "Workouts",
    "Records",
    "Health",
    "Exports",
    "Club",
    "Developer",
    "Operator",
  ]);
  const link = operator.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Operator" });
  await expect(link).toHaveAttribute("href", "/operator");
  await expect(link).toHaveAttribute("aria-current", "page");
  await context.close();
});

test("the sign-in page names the product and says what it is", async ({ page }) => {
  await page.goto("/signin");
  await expect(page.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
  await expect(page.locator("main")).toContainText("Paddle Results");
  await expect(page.locator("main")).toContainText(/canoe and kayak sprint/);
  await expect(page.locator("main")).toContainText(".svc");
});
