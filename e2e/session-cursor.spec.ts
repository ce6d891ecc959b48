import { expect, test, type Page } from "@playwright/test";
import { createKeyPair, trpcMutation } from "./api-helpers";
import { PHONE } from "./a11y";
import { newAccount, signInOverHttp, signUpInBrowser, type TestAccount } from "./helpers";
import { simulatedSvc } from "./svc-files";

/**
 * The session page's one cursor (docs/replay.md "One cursor through the session
 * page") and its data-first layout (docs/web-app.md), at 1366 px and 390 px:
 * the charts' cursor moves as the replay plays, a click on a chart seeks the
 * replay, the position slider's arrow steps 5 s, the player shows live figures,
 * every distance label is drawn, and on a phone the splits are on the first
 * screen with every column inside their card.
 */
const DESKTOP = { width: 1366, height: 900 };

let coach: TestAccount;
let sessionId: number;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser, baseURL }) => {
  coach = newAccount("cursor-coach");
  const page = await browser.newPage();
  await signUpInBrowser(page, coach);
  const key = await createKeyPair(baseURL!, coach);
  const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Cursor basin" });
  const athlete = await trpcMutation<{ id: number }>(key.context, "athletes.create", {
    name: "Cora",
    surname: "Cursor",
    subscriptionActiveUntil: "2099-12-31",
  });
  const upload = await key.context.post("/api/v1/results", {
    multipart: {
      file: { name: "k1.svc", mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel: "K1", distanceM: 500, seed: 41 }) },
      metadata: JSON.stringify({ distance: 500, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athlete.id] }),
    },
    headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  sessionId = (await upload.json()).data.id;
  await key.context.dispose();
  // The replay artifact is built in the background after the upload: wait for it here, not inside a test.
  await expect.poll(async () => (await page.request.get(`/sessions/${sessionId}/replay`)).status()).toBe(200);
  await page.close();
});

const chartCursorM = async (page: Page, chart: string) =>
  Number(await page.locator(`figure[data-chart="${chart}"] [data-testid="chart-cursor"]`).getAttribute("data-distance-m"));

async function openPlayingReplay(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await signInOverHttp(page, coach);
  await page.goto(`/sessions/${sessionId}`);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  const player = page.locator("[data-state]");
  await player.scrollIntoViewIfNeeded(); // three.js loads once the player nears the screen
  await expect(player).toHaveAttribute("data-state", "ready");
  await expect(player).toHaveAttribute("data-playing", "true");
  return player;
}

for (const [name, size] of [
  ["1366", DESKTOP],
  ["390", PHONE],
] as const) {
  test(`at ${name} px the replay moves the charts' cursor, a chart click seeks it, the slider's arrow steps 5 s`, async ({ page }) => {
    const player = await openPlayingReplay(page, size);
    // As it plays, the cursor moves along every chart, and the live figures follow.
    const first = await chartCursorM(page, "speed");
    await expect.poll(() => chartCursorM(page, "speed")).toBeGreaterThan(first + 5);
    expect(Math.abs((await chartCursorM(page, "rate")) - (await chartCursorM(page, "speed")))).toBeLessThan(30);
    await expect(page.getByTestId("live-pace")).toHaveText(/^\d:\d{2}\.\d \/500 m$/);
    await expect(page.getByTestId("live-speed")).toHaveText(/^\d\.\d{2} m\/s$/);
    await expect(page.getByTestId("live-rate")).toHaveText(/^\d+\.\d spm$/);
    await expect(page.getByTestId("live-split")).toHaveText(/^[1-4] of 4$/);

    // Paused, a click in the middle of the speed chart's plot seeks the replay to 250 m.
    await player.getByRole("button", { name: "Pause" }).click();
    const plot = page.locator('figure[data-chart="speed"] .chart-plot');
    await plot.scrollIntoViewIfNeeded();
    const box = (await plot.boundingBox())!;
    const yAxis = 44;
    await page.mouse.click(box.x + yAxis + (box.width - yAxis - 8) / 2, box.y + box.height / 3);
    await page.mouse.move(1, 1); // off the charts: a hover while paused scrubs too
    await expect.poll(() => chartCursorM(page, "strokeDistance")).toBeGreaterThan(245);
    expect(await chartCursorM(page, "strokeDistance")).toBeLessThan(255);
    await expect(page.getByTestId("live-distance")).toHaveText(/^(24[6-9]|25[0-4]) m$/);
    const slider = player.getByRole("slider", { name: "Position in the replay" });
    const max = Number(await slider.getAttribute("max"));
    const at = Number(await slider.inputValue());
    expect(at / max).toBeGreaterThan(0.35);
    expect(at / max).toBeLessThan(0.65);

    // The slider's arrow steps 5 s, as the player's own arrows do; Shift steps 30 s.
    await slider.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(async () => Number(await slider.inputValue())).toBeCloseTo(at + 5, 1);
    await page.keyboard.press("Shift+ArrowLeft");
    await expect.poll(async () => Number(await slider.inputValue())).toBeCloseTo(at - 25, 1);

    // A split's button replays from its start: split 3 of 4 starts at 250 m.
    await page.getByRole("button", { name: "Replay from split 3" }).click();
    await expect.poll(() => chartCursorM(page, "speed")).toBeCloseTo(250, 0);
    await expect(page.locator("tr.split-current")).toHaveAttribute("data-to-m", "375");

    // The course's marker follows the cursor.
    const map = page.getByTestId("course-map");
    await map.scrollIntoViewIfNeeded();
    await expect(map).toHaveAttribute("data-ready", "true");
    await expect(map.locator("path.course-cursor")).toHaveCount(1);
    expect(Math.abs(Number(await map.getAttribute("data-cursor-m")) - 250)).toBeLessThan(1);
  });
}

test("every distance label of the charts is drawn: 0, 125, 250, 375 and 500 m, at both widths", async ({ page }) => {
  await signInOverHttp(page, coach);
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.goto(`/sessions/${sessionId}`);
    for (const chart of ["speed", "rate", "strokeDistance"]) {
      const labels = page.locator(`figure[data-chart="${chart}"] svg text`).filter({ hasText: /^\d+ m$/ });
      await expect(labels).toHaveText(["0 m", "125 m", "250 m", "375 m", "500 m"]);
    }
  }
});

test("on a phone the result and the splits come first: the whole splits table on the first screen, every column in its card", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signInOverHttp(page, coach);
  await page.goto(`/sessions/${sessionId}`);
  const table = page.getByRole("table", { name: "Splits" });
  const box = (await table.boundingBox())!;
  expect(box.y + box.height, "the splits table ends on the first screen").toBeLessThanOrEqual(PHONE.height);
  const scroll = page.getByRole("region", { name: "Splits table, scrolls sideways" });
  const { scrollWidth, clientWidth } = await scroll.evaluate((el) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
  expect(scrollWidth, "pace and rate inside the card, no sideways scroll").toBeLessThanOrEqual(clientWidth);
  for (const header of ["Pace /500 m (m/s)", "Rate"]) {
    const cell = (await table.getByRole("columnheader", { name: header }).boundingBox())!;
    expect(cell.x + cell.width).toBeLessThanOrEqual(PHONE.width);
  }
  // The result (average pace) is above the splits.
  const pace = (await page.getByTestId("average-pace").boundingBox())!;
  expect(pace.y).toBeLessThan(box.y);
});
