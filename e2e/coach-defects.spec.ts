import type { Page } from "@playwright/test";
import { expectAccessible, expectNoPageOverflow, PHONE } from "./a11y";
import { createKeyPair, trpcMutation, uploadK1Session } from "./api-helpers";
import { expect, test } from "./fixtures";
import { HEALTH_WORLD } from "./health-web-world";
import { newAccount, openSessionActions, signInOverHttp, signUpInBrowser, type TestAccount } from "./helpers";

/**
 * What a new coach met (issue 28 §6), as a person sees it at 1366 and 390 px.
 * A coach's world, made over HTTP: a team of two athletes with three K1
 * sessions this week and last (so home, the records' leaderboards and the
 * log have rows). The athlete's side reads the seeded health world's Ada
 * (an athlete account who paddled a K2 with Eli).
 */
const WIDE = { width: 1366, height: 900 };
const DAY_MS = 86_400_000;
let coach: TestAccount;

test.beforeAll(async ({ browser, baseURL }) => {
  coach = newAccount("defects-coach");
  const page = await browser.newPage();
  await signUpInBrowser(page, coach);
  const key = await createKeyPair(baseURL!, coach);
  const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Defects basin" });
  const athlete = (name: string) =>
    trpcMutation<{ id: number }>(key.context, "athletes.create", { name, surname: "Rowe", subscriptionActiveUntil: "2099-12-31" });
  const [ines, jon] = [await athlete("Ines"), await athlete("Jon")];
  const team = await trpcMutation<{ id: number }>(key.context, "teams.create", { name: "Defects squad" });
  for (const a of [ines, jon]) await trpcMutation(key.context, "teams.addAthlete", { teamId: team.id, athleteId: a.id });
  const yesterday = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - DAY_MS;
  const uploads = [
    { at: yesterday + 9 * 3_600_000, athleteId: ines.id, distanceM: 500, seed: 2801 },
    { at: yesterday + 10 * 3_600_000, athleteId: jon.id, distanceM: 500, seed: 2802 },
    { at: yesterday - 7 * DAY_MS + 9 * 3_600_000, athleteId: ines.id, distanceM: 200, seed: 2803 },
  ];
  for (const u of uploads) await uploadK1Session(key, { trackId: track.id, ...u });
  await key.context.dispose();
  await page.close();
});

/** Each element's box, read in the page. */
const boxes = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect));

for (const size of [WIDE, PHONE]) {
  test.describe(`at ${size.width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(size);
      await signInOverHttp(page, coach);
    });

    test("home: the week table fits, and the weekly volume is two charts of straight segments, each plot wide", async ({ page }) => {
      await page.goto("/home");
      const table = page.getByTestId("week-athletes");
      await expect(table).toContainText("Ines Rowe");
      // Not cut off: the table is no wider than its card.
      const fit = await table.evaluate((t) => ({ table: t.scrollWidth, card: t.parentElement!.clientWidth }));
      expect(fit.table).toBeLessThanOrEqual(fit.card + 1);
      for (const id of ["volume-chart-distance", "volume-chart-time"]) {
        const chart = page.getByTestId(id);
        await expect(chart.locator("path.recharts-curve").first()).toBeVisible();
        const plot = await chart.locator(".recharts-cartesian-grid").evaluate((g) => g.getBoundingClientRect().width);
        expect(plot, `${id} plot width`).toBeGreaterThan(size.width > 1000 ? 400 : 200);
        // Straight segments between the weeks: no Bézier curves drawn between data points.
        for (const d of await chart
          .locator(".recharts-line path.recharts-curve")
          .evaluateAll((ps) => ps.map((p) => p.getAttribute("d") ?? "")))
          expect(d).not.toMatch(/C/);
      }
      await expectNoPageOverflow(page);
    });

    test("records: each leaderboard a card with room around it, a heading-sized caption, its columns in line with the others", async ({
      page,
    }) => {
      await page.goto("/records");
      const boards = page.getByTestId("leaderboard");
      await expect(boards.first()).toBeVisible();
      const cards = await boxes(page, "[data-testid=leaderboard]");
      for (let i = 1; i < cards.length; i++) expect(cards[i].top - cards[i - 1].bottom, "space between boards").toBeGreaterThanOrEqual(16);
      const captionSize = await boards
        .first()
        .locator("caption")
        .evaluate((c) => Number.parseFloat(getComputedStyle(c).fontSize));
      expect(captionSize).toBeGreaterThanOrEqual(16);
      // Every bests table's columns start at the same x as the first table's.
      const starts = await page
        .locator(".records-board table")
        .evaluateAll((tables) =>
          tables.map((t) => [...t.querySelectorAll("thead th")].map((th) => Math.round(th.getBoundingClientRect().left))),
        );
      const byCount = new Map<number, number[]>();
      for (const s of starts) {
        const first = byCount.get(s.length);
        if (first) expect(s).toEqual(first);
        else byCount.set(s.length, s);
      }
      await expectNoPageOverflow(page);
    });

    test("the log: a date and the pace header never break inside; the week view closes each week with its total", async ({ page }) => {
      await page.goto("/");
      if (size.width > 1000) {
        const table = page.getByTestId("session-log");
        // The date and its time on one line: the link and the time share a top, and the date is one line box.
        for (const cell of await table.locator("td.log-date").all()) {
          const r = await cell.evaluate((c) => ({
            dateLines: c.querySelector("a")!.getClientRects().length,
            sameLine:
              Math.abs(c.querySelector("a")!.getBoundingClientRect().top - c.querySelector(".muted")!.getBoundingClientRect().top) < 4,
          }));
          expect(r).toEqual({ dateLines: 1, sameLine: true });
        }
        const header = table.getByRole("columnheader", { name: "Pace /500 m" });
        const h = await header.evaluate((th) => ({ height: th.getBoundingClientRect().height, text: (th as HTMLElement).innerText }));
        expect(h.text).not.toContain("\n");
      }
      await page.goto("/?view=week");
      await expect(page.getByTestId("week-total").first()).toContainText("Week total");
      await expectNoPageOverflow(page);
    });
  });
}

test("the main menu links the exports page", async ({ page }) => {
  await page.setViewportSize(WIDE);
  await signInOverHttp(page, coach);
  await page.goto("/home");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Exports" }).click();
  await page.waitForURL(/\/exports$/);
  await expectNoPageOverflow(page);
});

test("an athlete: the export form offers only her own seat, and her pages offer no club administration", async ({ page }) => {
  await page.setViewportSize(WIDE);
  await signInOverHttp(page, HEALTH_WORLD.ada);
  await page.goto("/");
  await page
    .getByTestId("session-log")
    .locator("tr", { hasText: "K2" })
    .filter({ hasText: "Eli" })
    .first()
    .getByRole("link")
    .first()
    .click();
  await page.waitForURL(/\/sessions\/\d+$/);
  const actions = await openSessionActions(page);
  const exportSection = actions.getByRole("region", { name: "Export" });
  await expect(exportSection.getByTestId("export-seat")).toContainText("Ada");
  await expect(exportSection.getByLabel("Seat")).toHaveCount(0);
  await expect(exportSection).not.toContainText("Eli");
  for (const [path, offer] of [
    ["/athletes", "Add athlete"],
    ["/teams", "Create team"],
  ]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("link", { name: offer })).toHaveCount(0);
  }
});

test("the upload's subscription note is a warning, and its checkbox says Important", async ({ page }) => {
  await page.setViewportSize(WIDE);
  await signUpInBrowser(page, newAccount("defects-upload"));
  await trpcMutation(page.request, "tracks.create", { name: "Upload basin" });
  await trpcMutation(page.request, "athletes.create", { name: "Lapsed", surname: "Rowe", subscriptionActiveUntil: "2020-01-31" });
  await page.goto("/upload");
  await page.getByLabel("Boat").selectOption({ label: "K1" });
  const note = page.getByTestId("subscription-note");
  await expect(note).toContainText("No active subscription");
  const colour = await note.evaluate((n) => getComputedStyle(n).backgroundColor);
  // Amber, not the success green (#e8f5ec = rgb(232, 245, 236)).
  expect(colour).not.toBe("rgb(232, 245, 236)");
  expect(colour).toBe("rgb(255, 244, 229)");
  await expect(page.getByRole("checkbox", { name: "Important" })).toBeVisible();
  await expect(page.getByText("Flag for review")).toHaveCount(0);
  await expectAccessible(page);
});

for (const size of [WIDE, PHONE]) {
  test(`the lactate form at ${size.width} px: labels in line, a readable time field, the whole session label, the session's time by default`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await signInOverHttp(page, HEALTH_WORLD.ada);
    await page.goto("/health");
    const form = page.getByRole("form", { name: "Add a lactate reading" });
    const session = form.getByLabel("Session");
    const measured = form.getByLabel("Measured at (UTC)");
    if (size.width > 1000) {
      const tops = await form.locator(".field > label").evaluateAll((ls) => ls.map((l) => Math.round(l.getBoundingClientRect().top)));
      expect(new Set(tops).size, `label tops ${tops}`).toBe(1);
    }
    expect((await measured.boundingBox())!.width).toBeGreaterThan(170);
    // The chosen session's label fits its select.
    const fit = await session.evaluate((s: HTMLSelectElement) => {
      const probe = document.createElement("span");
      probe.style.font = getComputedStyle(s).font;
      probe.textContent = s.selectedOptions[0].textContent;
      document.body.append(probe);
      const text = probe.getBoundingClientRect().width;
      probe.remove();
      return { text, box: s.clientWidth };
    });
    expect(fit.text).toBeLessThan(fit.box);
    // The session's day, not today's.
    const label = (await session.evaluate((s: HTMLSelectElement) => s.selectedOptions[0].textContent))!;
    expect((await measured.inputValue()).slice(0, 10)).toBe(label.slice(0, 10));
    await expectNoPageOverflow(page);
  });
}
