import type { Page } from "@playwright/test";
import { expectAccessible, expectNoPageOverflow, PHONE } from "./a11y";
import { expect, test } from "./fixtures";
import { newAccount, signUpInBrowser } from "./helpers";
import { simulatedTrainingFile } from "./svc-files";

// Each test makes its own account and world.
test.describe.configure({ mode: "parallel" });

/** A processed 4 × 250 m training of the signed-in person; returns its page's path once its sets show. */
async function processedTraining(page: Page, seed: number): Promise<string> {
  const { bytes } = simulatedTrainingFile({ spec: "4x250m/60s", vessel: "K1", seed });
  const upload = await page.request.post("/api/uploads/trainings", {
    multipart: {
      file: { name: `practice-${seed}.svc`, mimeType: "application/octet-stream", buffer: bytes },
      metadata: JSON.stringify({
        vessel_id: 1,
        track_id: null,
        athlete_id: null,
        title: "Corrections practice",
        template_id: null,
        sensitivity: 5,
      }),
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const path = `/trainings/${(await upload.json()).data.id}`;
  await page.goto(path);
  await expect(page.getByTestId("sets-table")).toBeVisible({ timeout: 30_000 });
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  return path;
}

const rows = (page: Page, kind: "work" | "rest") => page.getByTestId("sets-table").locator(`tbody tr[data-kind="${kind}"]`);
/** A row's distance in metres, as the sets table shows it. */
const metres = async (page: Page, kind: "work" | "rest", index: number) =>
  Number(/^(\d+) m/.exec((await rows(page, kind).nth(index).getByRole("cell").nth(1).textContent()) ?? "")?.[1]);
const strokes = async (page: Page, index: number) => Number(await rows(page, "work").nth(index).getByRole("cell").last().textContent());

test("a coach merges two pieces, splits one and undoes, and reads the sets measured again (1366 px)", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signUpInBrowser(page, newAccount("corrector"));
  await processedTraining(page, 9101);
  await expect(page.getByTestId("work-set-count")).toHaveText("4");
  const [w1, r1, w2] = [await metres(page, "work", 0), await metres(page, "rest", 0), await metres(page, "work", 1)];
  const [s1, s2] = [await strokes(page, 0), await strokes(page, 1)];
  const corrections = page.getByTestId("set-corrections");

  // Merge work 1 with work 2: one set over both pieces and the rest between.
  await corrections.getByLabel("Set", { exact: true }).selectOption({ index: 0 });
  await corrections.getByLabel("Correction", { exact: true }).selectOption({ label: "Merge with work 2" });
  await corrections.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("correction-status")).toHaveText("Merged work 1 with work 2. 3 work sets now.");
  await expect(page.getByTestId("work-set-count")).toHaveText("3");
  await expect(rows(page, "work")).toHaveCount(3);
  await expect(rows(page, "work").first().getByRole("rowheader")).toHaveText("Work 1 (corrected)");
  expect(Math.abs((await metres(page, "work", 0)) - (w1 + r1 + w2))).toBeLessThanOrEqual(2);
  expect(await strokes(page, 0)).toBeGreaterThanOrEqual(s1 + s2);
  await expect(page.getByText(/3 work sets \(.*\) and 2 rests/)).toBeVisible();

  // Undo: the four pieces and their figures come back.
  await corrections.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByTestId("correction-status")).toHaveText("Undone. 4 work sets now.");
  await expect(rows(page, "work")).toHaveCount(4);
  // Bounds come back to the millisecond; a distance measured again may round to the next metre.
  expect(Math.abs((await metres(page, "work", 0)) - w1)).toBeLessThanOrEqual(1);
  expect(Math.abs((await strokes(page, 0)) - s1)).toBeLessThanOrEqual(1);
  await expect(rows(page, "work").first().getByRole("rowheader")).toHaveText("Work 1");

  // Split work 3 at 20 s: two work sets whose strokes add up to the one.
  const s3 = await strokes(page, 2);
  await corrections.getByLabel("Set", { exact: true }).selectOption({ index: 4 });
  await corrections.getByLabel("Correction", { exact: true }).selectOption({ label: "Split at a time into the set" });
  await corrections.getByLabel("Split at (seconds into the set)").fill("20");
  await corrections.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("correction-status")).toHaveText("Split work 3 at 20 s. 5 work sets now.");
  await expect(page.getByTestId("work-set-count")).toHaveText("5");
  expect((await strokes(page, 2)) + (await strokes(page, 3))).toBe(s3);
  await expect(rows(page, "work").nth(3).getByRole("rowheader")).toHaveText("Work 4 (corrected)");
  // A split too close to the end is refused in words, and nothing changes.
  await corrections.getByLabel("Set", { exact: true }).selectOption({ index: 0 });
  await corrections.getByLabel("Correction", { exact: true }).selectOption({ label: "Split at a time into the set" });
  await corrections.getByLabel("Split at (seconds into the set)").fill("0.5");
  await corrections.getByRole("button", { name: "Apply" }).click();
  await expect(corrections.getByRole("alert")).toContainText("A split must leave at least 1 s on each side");
  await expect(page.getByTestId("work-set-count")).toHaveText("5");
  await expectAccessible(page);
});

test("on a phone the corrections operate without sideways scroll, and undo restores the sets (390 px)", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signUpInBrowser(page, newAccount("phonecorrector"));
  await processedTraining(page, 9102);
  const w2 = await metres(page, "work", 1);
  const corrections = page.getByTestId("set-corrections");
  await corrections.getByLabel("Set", { exact: true }).selectOption({ index: 2 });
  await corrections.getByLabel("Correction", { exact: true }).selectOption({ label: "Mark as rest" });
  await corrections.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("correction-status")).toHaveText("Marked work 2 as rest. 3 work sets now.");
  await expect(rows(page, "work")).toHaveCount(3);
  await expect(rows(page, "rest")).toHaveCount(2);
  await expect(rows(page, "rest").first().getByRole("rowheader")).toHaveText("Rest (corrected)");
  await expectNoPageOverflow(page);
  await corrections.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByTestId("correction-status")).toHaveText("Undone. 4 work sets now.");
  await expect(rows(page, "work")).toHaveCount(4);
  expect(Math.abs((await metres(page, "work", 1)) - w2)).toBeLessThanOrEqual(1);
  await expectNoPageOverflow(page);
});
