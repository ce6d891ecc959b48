import type { APIRequestContext, Page } from "@playwright/test";
import { expectAccessible, PHONE } from "./a11y";
import { createKeyPair, signedInContext, signUpOverHttp, trpcMutation, uploadK1Session } from "./api-helpers";
import { expect, test } from "./fixtures";
import { newAccount, signInOverHttp, signUpInBrowser, type TestAccount } from "./helpers";
import { encodeSvc } from "../server/svc/container";
import { loadKeyring } from "../server/svc/keyring";
import { parseTrainingSpec, simulateTraining } from "../server/svc/simulator/training";

/**
 * The training-load pages (docs/load.md "Pages") at 1366 and 390 px. A coach's
 * world made over HTTP: Ines (linked to an account of her own, so she can
 * share her heart rate) with a 500 m K1 alone in its week three weeks ago and
 * one yesterday, and a training alone in its week two weeks ago; Jon with a
 * 200 m K1 yesterday.
 */
const WIDE = { width: 1366, height: 900 };
const DAY_MS = 86_400_000;
let coach: TestAccount;
let ines: TestAccount;
let inesId: number;
let soloSession: number;
let soloWeek: string;
let training: number;
let trainingWeek: string;

const mondayOf = (ms: number) => {
  const d = new Date(ms);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
};

test.beforeAll(async ({ browser, baseURL }) => {
  coach = newAccount("load-coach");
  const page = await browser.newPage();
  await signUpInBrowser(page, coach);
  await page.close();
  const key = await createKeyPair(baseURL!, coach);
  const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Load basin" });
  const athlete = (name: string) =>
    trpcMutation<{ id: number }>(key.context, "athletes.create", { name, surname: "Loadtest", subscriptionActiveUntil: "2099-12-31" });
  inesId = (await athlete("Ines")).id;
  const jonId = (await athlete("Jon")).id;
  // Ines accepts her coach's invitation: her heart rate is hers to share.
  ines = await signUpOverHttp(baseURL!, "load-ines");
  const invitation = await trpcMutation<{ link: string }>(key.context, "athleteLinks.invite", { athleteId: inesId, email: ines.email });
  const inesContext = await signedInContext(baseURL!, ines);
  await trpcMutation(inesContext, "athleteLinks.accept", { token: invitation.link.split("/invitations/")[1] });
  await inesContext.dispose();
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  // A 3 × 250 m training of Ines two weeks ago, alone in its week; first, so it is processed while the sessions upload.
  const trainingAt = today - 14 * DAY_MS + 9 * 3_600_000;
  trainingWeek = mondayOf(trainingAt);
  const { content } = simulateTraining({ vessel: "K1", steps: parseTrainingSpec("3x250m/60s")!, seed: 2904, warmupS: 60, cooldownS: 30 });
  const bytes = Buffer.from(encodeSvc({ ...content, header: { ...content.header, startUnixMs: trainingAt } }, loadKeyring({})));
  const upload = await key.context.post("/api/uploads/trainings", {
    multipart: {
      file: { name: "load.svc", mimeType: "application/octet-stream", buffer: bytes },
      metadata: JSON.stringify({
        vessel_id: 1,
        track_id: null,
        athlete_id: inesId,
        title: "Load pieces",
        template_id: null,
        sensitivity: 5,
      }),
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  training = (await upload.json()).data.id;
  const soloAt = today - 21 * DAY_MS + 9 * 3_600_000;
  soloWeek = mondayOf(soloAt);
  soloSession = await uploadK1Session(key, { trackId: track.id, athleteId: inesId, distanceM: 500, seed: 2901, at: soloAt });
  await uploadK1Session(key, { trackId: track.id, athleteId: inesId, distanceM: 500, seed: 2902, at: today - DAY_MS + 9 * 3_600_000 });
  await uploadK1Session(key, { trackId: track.id, athleteId: jonId, distanceM: 200, seed: 2903, at: today - DAY_MS + 10 * 3_600_000 });
  await key.context.dispose();
});

async function noSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

const soloBar = (page: Page) => page.locator(`rect.load-bar[data-week="${soloWeek}"]`);
const barLoad = async (page: Page) => Number(await soloBar(page).getAttribute("data-load"));

async function share(baseURL: string, shared: boolean) {
  const context: APIRequestContext = await signedInContext(baseURL, ines);
  await trpcMutation(context, "account.setHeartRateShare", { shared });
  await context.dispose();
}

for (const size of [WIDE, PHONE]) {
  test.describe(`at ${size.width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(size);
      await signInOverHttp(page, coach);
    });

    test("the load page draws its bars and three lines; the session's load is its week's bar", async ({ page }) => {
      await page.goto(`/athletes/${inesId}`);
      await page.getByTestId("athlete-load-link").click();
      await expect(page.getByRole("heading", { name: /Training load: Ines Loadtest/ })).toBeVisible();
      await expect(page.locator("rect.load-bar")).toHaveCount(16);
      const lines = await page.locator("path.load-line").evaluateAll((ps) => ps.map((p) => p.getAttribute("d") ?? ""));
      expect(lines).toHaveLength(3);
      for (const d of lines) expect(d.length).toBeGreaterThan(10);
      const bar = await barLoad(page);
      expect(bar).toBeGreaterThan(0);
      await noSidewaysScroll(page);
      await page.goto(`/sessions/${soloSession}`);
      await expect(page.getByTestId("effort-speed-load")).toHaveText(String(bar));
      await noSidewaysScroll(page);
    });

    test("the training page's load is the one its week's bar counts", async ({ page }) => {
      // Queued or processing first; the page refreshes itself until the load appears.
      await page.goto(`/trainings/${training}`);
      const figure = page.getByTestId("effort-speed-load");
      await expect(figure).toBeVisible();
      const load = (await figure.textContent())!;
      await page.goto(`/athletes/${inesId}/load`);
      await expect(page.locator(`rect.load-bar[data-week="${trainingWeek}"]`)).toHaveAttribute("data-load", load);
    });

    test("the squad page sorts on the server when a header is clicked", async ({ page }) => {
      await page.goto("/squad");
      const table = page.getByTestId("squad-table");
      await expect(table).toContainText("Ines Loadtest");
      await expect(table).toContainText("Jon Loadtest");
      await table.locator('a[data-sort="average"]').click();
      await expect(page).toHaveURL(/sort=-average/);
      const averages = (await table.locator('td[data-col="average"]').allTextContents()).map(Number);
      expect(averages).toEqual([...averages].sort((a, b) => b - a));
      await table.locator('a[data-sort="name"]').click();
      await expect(page).toHaveURL(/sort=name/);
      const names = await table.locator("tbody td:first-child").allTextContents();
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      await noSidewaysScroll(page);
    });

    test("editing the zones changes the figures and the reset restores them exactly", async ({ page }) => {
      await page.goto(`/athletes/${inesId}/load`);
      const before = await barLoad(page);
      const editor = page.getByTestId("zone-editor");
      // Every zone from 2 on starts lower: the same effort counts in heavier zones.
      for (const [zone, pct] of [30, 40, 50, 60, 70].entries()) await editor.getByLabel(`Zone ${zone + 2} starts at`).fill(String(pct));
      await editor.getByRole("button", { name: "Save zones" }).click();
      await expect.poll(() => barLoad(page)).toBeGreaterThan(before);
      await expect(editor).toContainText("This athlete's own zones.");
      await editor.getByRole("button", { name: "Reset to defaults" }).click();
      await expect.poll(() => barLoad(page)).toBe(before);
      await expect(editor.getByLabel("Zone 2 starts at")).toHaveValue("70");
      await noSidewaysScroll(page);
    });

    test("the account page's sharing switch is off by default, says what it does, and passes axe", async ({ browser }) => {
      const context = await browser.newContext({ viewport: size });
      const own = await context.newPage();
      await signInOverHttp(own, ines);
      await own.goto("/account");
      const toggle = own.getByRole("switch", { name: "Your coaches can see your heart rate and heart-rate load" });
      await expect(toggle).not.toBeChecked();
      await expect(own.getByTestId("hr-share-state")).toHaveText("Off: only you see your heart rate and heart-rate load.");
      await expectAccessible(own);
      await noSidewaysScroll(own);
      await context.close();
    });

    test("the coach sees heart-rate load only while the athlete shares it", async ({ page, baseURL, browser }) => {
      await page.goto(`/sessions/${soloSession}`);
      await expect(page.getByTestId("effort-speed-load")).toBeVisible();
      await expect(page.getByTestId("effort-hr-load")).toHaveCount(0);
      // Ines turns the switch on her account page.
      const own = await browser.newPage({ viewport: size });
      await signInOverHttp(own, ines);
      await own.goto("/account");
      await expect(own.getByTestId("hr-share-state")).toContainText("Off");
      await own.getByRole("switch", { name: "Your coaches can see your heart rate and heart-rate load" }).click();
      await expect(own.getByTestId("hr-share-state")).toContainText("On");
      await noSidewaysScroll(own);
      await own.close();
      try {
        await page.reload();
        await expect(page.getByTestId("effort-hr-load")).toHaveText(/^\d+(\.\d)?$/);
        await page.goto(`/athletes/${inesId}/load`);
        await expect(page.getByTestId("load-hr-this-week")).toBeVisible();
      } finally {
        await share(baseURL!, false);
      }
      await page.reload();
      await expect(page.getByTestId("load-this-week")).toBeVisible();
      await expect(page.getByTestId("load-hr-this-week")).toHaveCount(0);
    });
  });
}
