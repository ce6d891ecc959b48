import type { Page } from "@playwright/test";
import { checkPageAtBothWidths, expectAccessible, expectNoPageOverflow, PHONE } from "./a11y";
import { expect, test } from "./fixtures";
import { trpcMutation } from "./api-helpers";
import { newAccount, signUpInBrowser } from "./helpers";
import { simulatedTrainingFile } from "./svc-files";

// Each test makes its own account and world.
test.describe.configure({ mode: "parallel" });

test("upload a simulated training through the page, watch it become ready, read its sets and compare two", async ({ page }) => {
  await signUpInBrowser(page, newAccount("trainer"));
  await page.goto("/");
  const { bytes, truth } = simulatedTrainingFile({ spec: "4x250m/60s", vessel: "K1", seed: 4711 });
  const workSets = truth.sets.filter((s) => s.kind === "work").length;
  expect(workSets).toBe(4);

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trainings" }).click();
  await expect(page.getByRole("heading", { name: "Trainings", exact: true })).toBeVisible();
  await expect(page.getByText("No trainings yet.")).toBeVisible();
  await page.getByRole("link", { name: "Upload a training" }).click();
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await expect(page.getByLabel("This is a training: work sets and rests")).toBeChecked();

  // Sensitivity outside 0.5–10 is refused next to its field.
  await page.getByLabel("Training file (.svc)").setInputFiles({ name: "tuesday.svc", mimeType: "application/octet-stream", buffer: bytes });
  await page.getByLabel("Title").fill("Tuesday 4 × 250 m");
  await page.getByLabel("Boat").selectOption({ label: "K1" });
  await page.getByLabel("Sensitivity").fill("12");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Sensitivity is a number from 0.5 to 10")).toBeVisible();
  await page.getByLabel("Sensitivity").fill("5");
  await page.getByRole("button", { name: "Upload" }).click();

  await page.waitForURL(/\/trainings\/\d+$/);
  const trainingPath = new URL(page.url()).pathname;
  await expect(page.getByRole("heading", { name: "Tuesday 4 × 250 m" })).toBeVisible();
  // Queued or processing first; the page refreshes itself until the sets appear.
  await expect(page.getByTestId("sets-table")).toBeVisible({ timeout: 60_000 });
  await expect(page.locator("[data-status]")).toHaveAttribute("data-status", "ready");
  await expect(page.getByTestId("work-set-count")).toHaveText(String(workSets));
  await expect(page.getByTestId("sets-table").locator('tbody tr[data-kind="work"]')).toHaveCount(workSets);
  await expect(page.getByTestId("sets-table").locator('tbody tr[data-kind="rest"]')).toHaveCount(workSets - 1);
  // Without a template a set's distance is measured: within a few metres of the 250 m paddled.
  const firstDistance = await page
    .getByTestId("sets-table")
    .locator('tbody tr[data-kind="work"]')
    .first()
    .getByRole("cell")
    .nth(1)
    .textContent();
  expect(Math.abs(Number(/^(\d+) m/.exec(firstDistance ?? "")?.[1]) - 250)).toBeLessThanOrEqual(5);
  await expect(page.getByText(/4 work sets \(.*\) and 3 rests/)).toBeVisible();
  await expect(page.getByTestId("timeline-bar").locator("span.work")).toHaveCount(workSets);
  await expect(page.getByRole("figure", { name: "Speed (m/s)" }).locator("svg .recharts-line")).toBeVisible();
  await page.getByLabel("Work set shown").selectOption({ index: 2 });
  await expect(page.getByRole("figure", { name: "Stroke rate (spm)" }).locator("svg .recharts-line")).toBeVisible();

  // Compare two work sets side by side.
  await page.getByLabel("Compare work set 1").check();
  await expect(page.getByText("Tick one more work set to compare.")).toBeVisible();
  await page.getByLabel("Compare work set 3").check();
  const compare = page.getByTestId("set-compare");
  await expect(compare.getByRole("heading", { name: "Compare 2 work sets" })).toBeVisible();
  await expect(compare.getByRole("table", { name: "Compared sets" }).locator("thead th")).toHaveText(["Figure", "Work 1", "Work 3"]);
  await expect(compare.getByRole("figure", { name: "Speed over distance (m/s)" }).locator("svg .recharts-line")).toHaveCount(2);
  await expectAccessible(page);

  // The list shows it, ready, with its work sets.
  await page.goto("/trainings");
  const row = page.getByTestId("trainings-list").getByRole("row", { name: /Tuesday 4 × 250 m/ });
  await expect(row).toContainText("Ready");
  // Date, training, paddler, status, work sets.
  await expect(row.getByRole("cell").nth(4)).toHaveText(String(workSets));

  // The same file again: no second training, a link to the first.
  await page.goto("/upload?kind=training");
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Training file (.svc)").setInputFiles({ name: "again.svc", mimeType: "application/octet-stream", buffer: bytes });
  await page.getByLabel("Boat").selectOption({ label: "K1" });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("link", { name: "Open the existing training" })).toHaveAttribute("href", trainingPath);
});

/** A new coach with one processed 4 × 250 m training of their athlete; returns the training's page. */
async function coachWithTraining(page: Page, name: string): Promise<string> {
  await signUpInBrowser(page, newAccount(name));
  const athlete = await trpcMutation<{ id: number }>(page.request, "athletes.create", {
    name: "Tia",
    surname: "Widths",
    subscriptionActiveUntil: "2099-12-31",
  });
  const { bytes } = simulatedTrainingFile({ spec: "4x250m/60s", vessel: "K1", seed: 4711 });
  // The upload route the page posts to (the upload form is the test above).
  const upload = await page.request.post("/api/uploads/trainings", {
    multipart: {
      file: { name: "tuesday.svc", mimeType: "application/octet-stream", buffer: bytes },
      metadata: JSON.stringify({
        vessel_id: 1,
        track_id: null,
        athlete_id: athlete.id,
        title: "Tuesday 4 × 250 m",
        template_id: null,
        sensitivity: 5,
      }),
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const trainingPath = `/trainings/${(await upload.json()).data.id}`;
  await page.goto(trainingPath);
  // Queued or processing first; the page refreshes itself until the sets appear.
  await expect(page.getByTestId("sets-table")).toBeVisible({ timeout: 30_000 });
  return trainingPath;
}

test("the trainings list and a training page at both widths: no sideways scroll, accessible", async ({ page }) => {
  const trainingPath = await coachWithTraining(page, "trainwidths");
  await checkPageAtBothWidths(page, "/trainings");
  await checkPageAtBothWidths(page, trainingPath);
});

test("on a phone two sets of a training compare side by side, without sideways scroll", async ({ page }) => {
  const trainingPath = await coachWithTraining(page, "trainphone");
  await page.setViewportSize(PHONE);
  await page.goto(trainingPath);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Compare work set 2").check();
  await page.getByLabel("Compare work set 4").check();
  await expect(page.getByTestId("set-compare")).toBeVisible();
  await expectNoPageOverflow(page);
});

test("a file without a work set ends failed with the reason in words; someone else's training is a 404", async ({ page, browser }) => {
  await signUpInBrowser(page, newAccount("trainfail"));
  await page.goto("/upload?kind=training");
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Training file (.svc)").setInputFiles({
    name: "broken.svc",
    mimeType: "application/octet-stream",
    buffer: Buffer.from("SVC1 but not a real recording at all ".repeat(8)),
  });
  await page.getByLabel("Boat").selectOption({ label: "K1" });
  await page.getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/trainings\/\d+$/);
  await expect(page.getByTestId("training-state")).toContainText("This training could not be processed. The file is damaged", {
    timeout: 60_000,
  });
  await expect(page.locator("[data-status]")).toHaveAttribute("data-status", "failed");
  const path = new URL(page.url()).pathname;

  const stranger = await browser.newPage({ baseURL: new URL(page.url()).origin });
  await signUpInBrowser(stranger, newAccount("stranger"));
  expect((await stranger.goto(path))?.status()).toBe(404);
  expect((await stranger.goto("/trainings/2147483647"))?.status()).toBe(404);
  await stranger.close();
});
