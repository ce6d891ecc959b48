import { expect, test } from "@playwright/test";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { createKeyPair, trpcMutation, uploadK1Session } from "./api-helpers";
import { expectNoPageOverflow, PHONE } from "./a11y";
import { newAccount, signUpInBrowser, type TestAccount, signInOverHttp } from "./helpers";

/**
 * A club's season at a glance (issue 20 §3), as a coach sees it at 1366 and
 * 390 px: the calendar switch operates and a day's distance equals the log's
 * for that day; the exports page downloads a finished file; a share link made
 * on the session page shows a QR code at once, which decodes to the link.
 * (The home chart's drawing is checked in charts-and-controls.spec.ts.)
 */
const DESKTOP = { width: 1366, height: 900 };
const DAY_MS = 86_400_000;

let coach: TestAccount;
let sessionId: number;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser, baseURL }) => {
  coach = newAccount("home-coach");
  const page = await browser.newPage();
  await signUpInBrowser(page, coach);
  const key = await createKeyPair(baseURL!, coach);
  const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Home basin" });
  const athlete = await trpcMutation<{ id: number }>(key.context, "athletes.create", {
    name: "Nora",
    surname: "Home",
    subscriptionActiveUntil: "2099-12-31",
  });
  // Yesterday at 09:00 and 17:00 UTC (a 500 m and a 200 m), and one a week earlier.
  const yesterday = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - DAY_MS;
  const uploads = [
    { at: yesterday + 9 * 3_600_000, distanceM: 500, seed: 61 },
    { at: yesterday + 17 * 3_600_000, distanceM: 200, seed: 62 },
    { at: yesterday - 7 * DAY_MS + 9 * 3_600_000, distanceM: 500, seed: 63 },
  ];
  const ids: number[] = [];
  for (const u of uploads) ids.push(await uploadK1Session(key, { trackId: track.id, athleteId: athlete.id, ...u }));
  await key.context.dispose();
  sessionId = ids[0];
  await page.close();
});

test.beforeEach(async ({ page }) => {
  await signInOverHttp(page, coach);
});

const metres = (text: string) => {
  const value = Number.parseFloat(text.replace(/[^\d.]/g, ""));
  return text.includes("km") ? Math.round(value * 1000) : value;
};

for (const size of [DESKTOP, PHONE]) {
  test(`at ${size.width} px the calendar switch operates and a day's distance equals the log's`, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto("/");
    await page.getByRole("navigation", { name: "Log view" }).getByRole("link", { name: "Calendar" }).click();
    await expect(page).toHaveURL(/view=calendar/);
    const calendar = page.getByTestId("calendar");
    await expect(calendar).toBeVisible();
    // The day holding two sessions: the busiest of the month.
    const days = calendar.locator("[data-testid=calendar-day]:has([data-testid=day-distance])");
    await expect(days.first()).toBeVisible();
    const busy = days.filter({ has: page.locator("ul > li:nth-child(2)") }).first();
    await expect(busy).toBeVisible();
    const day = (await busy.getAttribute("data-date"))!;
    const dayDistance = metres((await busy.getByTestId("day-distance").textContent())!);
    expect(dayDistance).toBe(700);

    // The same day in the list: switch back with that day's filter; the rows' distances add up to the day's.
    // (Read from the desktop table: the phone's log has its own layout.)
    await page.setViewportSize(DESKTOP);
    await page.goto(`/?from=${day}&to=${day}&view=calendar`);
    await page.getByRole("navigation", { name: "Log view" }).getByRole("link", { name: "List" }).click();
    await expect(page).not.toHaveURL(/view=calendar/);
    const log = page.getByTestId("session-log");
    await expect(log).toBeVisible();
    const cells = await log.locator("tbody tr td:nth-child(6)").allTextContents();
    expect(cells.length).toBe(2);
    expect(cells.reduce((sum, c) => sum + metres(c), 0)).toBe(dayDistance);

    await page.setViewportSize(size);
    await page.goto("/?view=calendar");
    await expect(calendar).toBeVisible();
    await expectNoPageOverflow(page);
  });
}

test("at 1366 px the exports page lists a finished export and its link downloads the file", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  let job = await trpcMutation<{ jobId: string; state: string }>(page.request, "exports.create", { sessionId, format: "json" });
  await expect
    .poll(
      async () => {
        const response = await page.request.get(
          `/api/trpc/exports.status?input=${encodeURIComponent(JSON.stringify({ jobId: job.jobId }))}`,
        );
        job = (await response.json()).result.data;
        return job.state;
      },
      { timeout: 30_000 },
    )
    .toBe("succeeded");
  await page.goto("/exports");
  const item = page.getByTestId("export-list").locator("li").first();
  await expect(item).toContainText("JSON");
  await expect(item).toContainText("ready");
  const [download] = await Promise.all([page.waitForEvent("download"), item.getByRole("link", { name: /^Download/ }).click()]);
  const body = JSON.parse(await (await import("node:fs/promises")).readFile((await download.path())!, "utf8"));
  expect(body).toBeTruthy();
  expect(download.suggestedFilename()).toMatch(/\.json$/);
});

test("at 390 px a new share link shows its QR code at once, and it decodes to that link", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto(`/sessions/${sessionId}`);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  // A marker on the window: a reload would drop it.
  await page.evaluate(() => ((window as unknown as { noReload: boolean }).noReload = true));
  await page.getByRole("button", { name: "Create share link" }).click();
  const created = page.getByTestId("new-share-link");
  const qr = created.getByRole("img", { name: /^QR code of / });
  await expect(qr).toBeVisible();
  const url = await created.getByTestId("share-url").getAttribute("href");
  expect(await page.evaluate(() => (window as unknown as { noReload?: boolean }).noReload)).toBe(true);
  const box = (await qr.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(120);
  const png = PNG.sync.read(await qr.screenshot());
  expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(url);
  await expectNoPageOverflow(page);
});
