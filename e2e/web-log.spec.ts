import { expect, test } from "./fixtures";
import { checkPageAtBothWidths, DESKTOP, expectAccessible, expectNoPageOverflow, PHONE } from "./a11y";
import { newAccount, signInOverHttp, signUp } from "./helpers";
import { WEB_LOG_WORLD } from "./web-log-world";

const W = WEB_LOG_WORLD;

test.describe("sessions log", () => {
  test.describe.configure({ mode: "parallel" });
  for (const size of [DESKTOP, PHONE]) {
    test(`walks to the last page with filters in the URL, and the back button returns (${size.width}px)`, async ({ page }) => {
      await page.setViewportSize(size);
      await signInOverHttp(page, W.coach);
      await page.goto("/");
      await expect(page.getByRole("heading", { name: "Sessions", exact: true })).toBeVisible();
      // On a phone the sessions come first and the filters sit behind the "Filter" button.
      if (size === PHONE) await page.getByRole("button", { name: /^Filter/ }).click();
      await page.getByLabel("Track").selectOption({ label: W.coachTrack });
      await page.getByLabel("Sort by").selectOption("speed");
      await page.getByRole("button", { name: "Show sessions" }).click();
      await expect(page).toHaveURL(/track=\d+/);
      await expect(page).toHaveURL(/sort=speed/);
      await expectNoPageOverflow(page);
      await expectAccessible(page);

      const seen = new Set<string>();
      const pages: string[] = [];
      for (let guard = 0; guard < 10; guard++) {
        pages.push(page.url());
        // A phone lists the sessions as cards; a wide screen as the table.
        const list = page.getByTestId(size === PHONE ? "session-cards" : "session-log");
        const links = await list.getByRole("link").evaluateAll((as) => as.map((a) => a.getAttribute("href")!));
        for (const href of links) {
          expect(seen.has(href), `${href} shown twice`).toBe(false);
          seen.add(href);
        }
        const next = page.getByRole("link", { name: "Next page" });
        if (!(await next.isVisible())) break;
        await next.click();
        await expect(page).toHaveURL(/after=/);
        await expect(page).not.toHaveURL(pages.at(-1)!);
      }
      await expect(page.getByTestId("log-last-page")).toBeVisible();
      expect(seen.size).toBe(W.coachSessions);
      expect(pages.length).toBe(Math.ceil(W.coachSessions / 25));
      // Every page kept the filters in its URL.
      for (const url of pages) expect(url).toMatch(/track=\d+.*sort=speed|sort=speed.*track=\d+/);

      await page.goBack();
      await expect(page).toHaveURL(pages.at(-2)!);
      await expect(page.getByRole("link", { name: "Next page" })).toBeVisible();
      await expect(page.getByLabel("Sort by")).toHaveValue("speed");
    });
  }

  test("speed sort orders by pace, an athlete filter shows their team sessions, and no-match has its own message", async ({ page }) => {
    await signInOverHttp(page, W.coach);
    await page.goto("/?sort=speed&order=desc");
    const paces = await page.getByTestId("session-log").locator("tbody tr td:nth-child(8)").allInnerTexts();
    const seconds = paces.map((p) => {
      const [m, s] = p.split(" ")[0].split(":");
      return Number(m) * 60 + Number(s);
    });
    expect(seconds.length).toBe(25);
    expect([...seconds].sort((a, b) => a - b)).toEqual(seconds);

    await page.getByLabel("Athlete").selectOption({ label: `${W.coachedAthlete} Log` });
    await page.getByLabel("Sort by").selectOption("date");
    await page.getByRole("button", { name: "Show sessions" }).click();
    await expect(page.getByTestId("session-log").locator("tbody tr")).toHaveCount(W.paddlerSessions);
    await expect(page.getByTestId("log-last-page")).toBeVisible();

    await page.goto("/?competition=no+such+regatta");
    await expect(page.getByTestId("log-no-match")).toContainText("No sessions match");
    await page.getByRole("link", { name: "Clear filters" }).click();
    await expect(page.getByTestId("session-log")).toBeVisible();
  });

  test("the week view sums weekly volume per athlete", async ({ page }) => {
    await signInOverHttp(page, W.coach);
    await page.goto("/?view=week&from=2026-01-05&to=2026-01-18");
    const table = page.getByTestId("week-view");
    await expect(table).toBeVisible();
    // Two weeks × two athletes: the coach's sessions every 12 h (14 a week) and the paddler's daily (7 a week).
    await expect(table.locator("tbody tr:not(.week-total)")).toHaveCount(4);
    // Each week closes with its total (each session once).
    await expect(table.getByTestId("week-total")).toHaveCount(2);
    const mara = table.locator("tbody tr", { hasText: W.managedAthlete });
    await expect(mara.first().locator("td").nth(2)).toHaveText("14");
    // The paddler's 12 daily sessions from 6 January: 6 in each week.
    const cato = table.locator("tbody tr", { hasText: W.coachedAthlete });
    await expect(cato).toHaveCount(2);
    for (const row of await cato.all()) await expect(row.locator("td").nth(2)).toHaveText("6");
    await expect(page.getByRole("link", { name: "Weeks" })).toHaveAttribute("aria-current", "page");
    await expectAccessible(page);
  });

  test("a new account sees the empty state, with the way to a first upload", async ({ page }) => {
    // Through the sign-up form: the one browser test that submits it (the other specs sign up over HTTP).
    await signUp(page, newAccount("empty-log"));
    await expect(page.getByTestId("log-empty")).toContainText("No sessions yet");
    await checkPageAtBothWidths(page, "/");
  });

  test("the phone menu opens from its button and marks the current page", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await signInOverHttp(page, W.coach);
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Sessions", exact: true })).toBeVisible();
    const menu = page.getByRole("button", { name: "Menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Sessions" })).toHaveAttribute("aria-current", "page");
    await nav.getByRole("link", { name: "Tracks" }).click();
    await expect(page).toHaveURL(/\/tracks$/);
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.setViewportSize(DESKTOP);
    // On a wide screen Tracks sits in the closed Club disclosure, which says the current page is inside it.
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Club" })).toHaveAttribute(
      "aria-current",
      "true",
    );
  });

  test("an athlete's page: personal bests, progression, and the log pre-filtered to them", async ({ page }) => {
    await signInOverHttp(page, W.coach);
    await page.goto("/athletes");
    await page
      .getByRole("link", { name: new RegExp(W.managedAthlete) })
      .first()
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(W.managedAthlete);
    const bests = page.getByTestId("personal-bests");
    // The seeded efforts (scripts/bench/seed-many-results.ts): C1 200 m, K1 500 m, K1 1000 m.
    await expect(bests.locator("tbody tr")).toHaveCount(3);
    await expect(page.getByTestId("progression-summary")).toContainText("efforts from");
    await expect(page.getByLabel("Athlete", { exact: true })).toHaveCount(0);
    const log = page.getByTestId("session-log");
    await expect(log.locator("tbody tr")).toHaveCount(25);
    await expect(log).not.toContainText(W.coachedAthlete);
    await page.getByLabel("Sort by").selectOption("time");
    await page.getByRole("button", { name: "Show sessions" }).click();
    await expect(page).toHaveURL(/\/athletes\/\d+\?.*sort=time/);
    await expect(page).not.toHaveURL(/athlete=/);
    await checkPageAtBothWidths(page, page.url());
  });
});
