import { expect, test } from "./fixtures";
import { checkDialogAtBothWidths, expectAccessible, expectNoPageOverflow, PHONE, DESKTOP } from "./a11y";
import { DATA_WORLD } from "./data-api-world";
import { newAccount, signUpInBrowser, signInOverHttp } from "./helpers";
import type { Page } from "@playwright/test";

// Each test makes its own account and world.
test.describe.configure({ mode: "parallel" });

/**
 * The web app's workout templates (list, create, edit, duplicate, delete,
 * import by paste and by file) and the session compare view reached from the
 * sessions log, each at phone width without sideways scroll and without
 * serious axe findings.
 */
const SIX_BY_500 = JSON.stringify({
  version: 1,
  name: "Six by five",
  steps: [
    {
      repeat: 6,
      steps: [
        { kind: "work", distance_m: 500 },
        { kind: "rest", duration_s: 120 },
      ],
    },
  ],
});

async function hydrated(page: Page) {
  await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 15_000 }).catch(() => {});
}

async function checkHere(page: Page) {
  await expectNoPageOverflow(page);
  await expectAccessible(page);
}

test("a coach creates, edits, duplicates and deletes a workout template", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signUpInBrowser(page, newAccount("workouts"));
  await page.goto("/");
  await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workouts", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Workout templates", level: 1 })).toBeVisible();
  await expect(page.getByTestId("workouts-empty")).toBeVisible();
  await checkHere(page);

  await page.getByRole("link", { name: "New template" }).click();
  await hydrated(page);
  await page.getByLabel("Name").fill("Race pace 6 × 500");
  // The example is valid: its preview reads as a coach writes it.
  await expect(page.getByTestId("step-preview")).toContainText("6 sets · 3000 m work");
  await expect(page.getByTestId("step-preview").locator("li").first()).toHaveText("Work 500 m at 90 spm");
  // A mistake shows at once, by path, and saving waits for the fix.
  const editor = page.getByLabel("Template (version-1 JSON)");
  await editor.fill('{"version": 1, "steps": [{"kind": "work", "distance_m": 0}, {"kind": "rest"}]}');
  const problems = page.getByTestId("template-problems");
  await expect(problems).toContainText("$.steps[0].distance_m must be from 1 to 50000");
  await expect(problems).toContainText("$.steps[1] give distance_m or duration_s");
  await expect(page.getByRole("button", { name: "Create template" })).toBeDisabled();
  await checkHere(page);
  await editor.fill(SIX_BY_500);
  await expect(problems).toHaveCount(0);
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.locator(".notice[role=status]")).toHaveText("Saved.");
  await expect(page.getByRole("heading", { name: "Race pace 6 × 500", level: 1 })).toBeVisible();
  // Stored expanded, shown folded back into its repeat block.
  await expect(page.getByLabel("Template (version-1 JSON)")).toHaveValue(/"repeat": 6/);
  await expect(page.getByTestId("step-preview").locator("li")).toHaveCount(12);
  await checkHere(page);

  await hydrated(page);
  await page.getByLabel("Name").fill("Race pace, long rests");
  await page.getByLabel("Template (version-1 JSON)").fill(SIX_BY_500.replace('"duration_s":120', '"duration_s":180'));
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("heading", { name: "Race pace, long rests", level: 1 })).toBeVisible();
  await expect(page.getByTestId("step-preview").locator("li").nth(1)).toHaveText("Rest 3 min");

  await page.goto("/workouts");
  await hydrated(page);
  await page.getByRole("button", { name: "Duplicate Race pace, long rests" }).click();
  await expect(page.getByRole("heading", { name: "Copy of Race pace, long rests", level: 1 })).toBeVisible();
  await page.goto("/workouts");
  await hydrated(page);
  const list = page.getByTestId("workout-list");
  await expect(list.locator("tbody tr")).toHaveCount(2);
  await expect(list).toContainText("6 sets · 3000 m work");
  await checkHere(page);

  // Cancelled, nothing happens; confirmed, the copy is gone.
  await page.getByRole("button", { name: "Delete Copy of Race pace, long rests" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete the workout template “Copy of Race pace, long rests”?" });
  await expect(confirm).toContainText("The template is deleted for good");
  await checkDialogAtBothWidths(page);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(list.locator("tbody tr")).toHaveCount(2);
  await page.getByRole("button", { name: "Delete Copy of Race pace, long rests" }).click();
  await confirm.getByRole("button", { name: "Delete template" }).click();
  await expect(list.locator("tbody tr")).toHaveCount(1);
  await expect(list).not.toContainText("Copy of");

  // Another person's template and a missing one are the same 404 page.
  const mine = await list.getByRole("link", { name: "Race pace, long rests" }).getAttribute("href");
  await signOutAndIn(page);
  const response = await page.goto(mine!);
  expect(response!.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

async function signOutAndIn(page: Page) {
  await page.context().clearCookies();
  await signUpInBrowser(page, newAccount("other"));
}

test("importing a workout file shows its problems by path, or saves it", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signUpInBrowser(page, newAccount("importer"));
  await page.goto("/workouts/import");
  await hydrated(page);
  await expect(page.getByRole("button", { name: "Save template" })).toBeDisabled();
  await page.getByLabel("Or paste the JSON").fill('{"version": 3, "steps": [{"kind": "work", "distance_m": 500, "pace": 100}]}');
  const problems = page.getByTestId("template-problems");
  await expect(problems).toContainText("$.version unsupported version 3");
  await expect(problems).toContainText("$.steps[0].pace unknown member");
  await expect(page.getByRole("button", { name: "Save template" })).toBeDisabled();
  await checkHere(page);

  // A file from another tool: the smallest shape other tools write.
  await page.getByLabel("A version-1 workout file (.json)").setInputFiles({
    name: "plan.json",
    mimeType: "application/json",
    buffer: Buffer.from(
      '{"version": 1, "steps": [{"kind": "work", "distance_m": 500}, {"kind": "rest", "duration_s": 120}, {"kind": "work", "distance_m": 500}]}',
    ),
  });
  await expect(problems).toHaveCount(0);
  await expect(page.getByTestId("step-preview")).toContainText("2 sets · 1000 m work");
  await page.getByRole("button", { name: "Save template" }).click();
  await expect(page.getByRole("heading", { name: "Imported workout", level: 1 })).toBeVisible();

  // A file over the size limit never reaches the server: one problem at $.
  await page.goto("/workouts/import");
  await hydrated(page);
  await page
    .getByLabel("A version-1 workout file (.json)")
    .setInputFiles({ name: "big.json", mimeType: "application/json", buffer: Buffer.alloc(70_000, " ") });
  await expect(problems).toContainText("$ the file is 70000 bytes; at most 65536 are accepted");
  await expect(page.getByRole("button", { name: "Save template" })).toBeDisabled();
  await page.goto("/workouts");
  await expect(page.getByTestId("workout-list").locator("tbody tr")).toHaveCount(1);
});

test("sessions ticked in the log open side by side in the compare view", async ({ page }) => {
  await signInOverHttp(page, DATA_WORLD.anna);
  await page.goto("/");
  await page.setViewportSize(DESKTOP);
  const log = page.getByTestId("session-log");
  const trial = await log.locator("tbody tr", { hasText: "World trial" }).getByRole("checkbox").getAttribute("value");
  const canoe = await log.locator("tbody tr", { hasText: "C1" }).first().getByRole("checkbox").getAttribute("value");
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.goto("/");
    // A phone shows the sessions as cards, each with its own compare box.
    const shown = size === PHONE ? page.getByTestId("session-cards") : log;
    await shown.locator(`input[value="${trial}"]`).check();
    await shown.locator(`input[value="${canoe}"]`).check();
    await page.getByRole("button", { name: "Compare selected" }).click();
    await expect(page).toHaveURL(/\/sessions\/compare\?ids=\d+&ids=\d+$/);
    expect(new URL(page.url()).searchParams.getAll("ids").sort()).toEqual([trial, canoe].sort());
    await expect(page.getByRole("heading", { name: "Compare 2 sessions", level: 1 })).toBeVisible();
    await expect(page.getByRole("figure", { name: "Speed (m/s)" })).toBeVisible();
    await expect(page.getByRole("figure", { name: "Stroke rate (spm)" })).toBeVisible();
    await expect(page.getByTestId("compare-times").locator("tbody tr")).toHaveCount(2);
    await expect(page.getByTestId("compare-splits").locator("tbody tr")).toHaveCount(4);
    // Session 2's splits carry their gap to session 1.
    await expect(page.getByTestId("compare-splits").locator("tbody tr").first()).toContainText(/\([+−±]\d/);
    await hydrated(page);
    await page.locator(".recharts-surface").first().waitFor();
    await checkHere(page);
  }

  // One session, a duplicate, a non-id and an absent one: each says what is wrong (the last the 404 page).
  const ids = new URL(page.url()).searchParams.getAll("ids");
  await page.goto(`/sessions/compare?ids=${ids[0]}`);
  await expect(page.getByTestId("compare-problem")).toContainText("Choose 2 to 9 sessions to compare (1 chosen)");
  await checkHere(page);
  await page.goto(`/sessions/compare?ids=${ids[0]},${ids[0]}`);
  await expect(page.getByTestId("compare-problem")).toContainText("The same session is chosen twice");
  await page.goto(`/sessions/compare?ids=${ids[0]}&ids=abc`);
  await expect(page.getByTestId("compare-problem")).toContainText("not a session");
  const response = await page.goto(`/sessions/compare?ids=${ids[0]},2147483647`);
  expect(response!.status()).toBe(404);
});
