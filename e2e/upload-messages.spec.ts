import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newAccount, signUp, waitForDistanceSuggestion } from "./helpers";
import { FIXTURES, simulatedSvc } from "./svc-files";

// Each test makes its own account and world.
test.describe.configure({ mode: "parallel" });

/** Issue 11, "Messages in people's words": the upload page names fields as it labels them; the API's sentence waits behind "Details". */
async function preparedUploadPage(page: Page) {
  await signUp(page, newAccount("wording"));
  await page.goto("/tracks/new");
  await page.getByLabel("Name").fill("Wording basin");
  await page.getByRole("button", { name: "Create track" }).click();
  await page.waitForURL("**/tracks");
  await page.goto("/athletes/new");
  await page.getByLabel("Name", { exact: true }).fill("Uno");
  await page.getByLabel("Subscription active until").fill("2099-12-31");
  await page.getByRole("button", { name: "Create athlete" }).click();
  await page.waitForURL("**/athletes");
  await page.goto("/upload");
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
}

async function chooseFile(page: Page, name: string, buffer: Buffer) {
  await page.getByLabel("Session file (.svc)").setInputFiles({ name, mimeType: "application/octet-stream", buffer });
}

/** Nothing the page shows outside "Details" names an API field. */
async function expectNoInternalNames(page: Page) {
  const shown = await page.locator("form").evaluate((form) => {
    const copy = form.cloneNode(true) as HTMLElement;
    copy.querySelectorAll("details, select, option").forEach((e) => e.remove());
    return copy.innerText;
  });
  expect(shown).not.toMatch(/athletes\[|_id\b|duration_ms|\bmetadata\b/);
}

async function openDetails(page: Page) {
  const details = page.locator("details.error-details");
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator("summary").click();
  await expect(details.locator("code")).toBeVisible();
  return details.locator("code");
}

test("crew and duration errors name the field as the form labels it, with the API's sentence behind Details", async ({ page }) => {
  await preparedUploadPage(page);
  await chooseFile(page, "k2.svc", simulatedSvc({ vessel: "K2", distanceM: 200, seed: 1101 }));
  await waitForDistanceSuggestion(page);
  await page.getByLabel("Distance (m)").fill("200");
  await page.getByLabel("Boat").selectOption({ label: "K2" });
  await page.getByLabel("Seat 1", { exact: true }).selectOption({ label: "Uno" });
  await page.getByRole("button", { name: "Upload" }).click();

  await expect(page.locator("#seat-1-error")).toHaveText("Seat 2: choose an athlete");
  await expect(page.getByLabel("Seat 2", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Seat 2", { exact: true })).toHaveAttribute("aria-describedby", "seat-1-error");
  await expect(page.getByRole("alert").first()).toHaveText("Please correct the highlighted fields.");
  await expectNoInternalNames(page);
  await expect(await openDetails(page)).toHaveText("athletes[1] must be an athlete id or an object");

  // A duration over the limit: minutes, not milliseconds.
  await page.getByLabel("Seat 2", { exact: true }).selectOption({ label: "Someone else (external athlete)" });
  await page.getByLabel("Seat 2 name").fill("Guest");
  await page.getByLabel("A duration").check();
  await page.getByLabel("Duration (s)").fill("400");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Duration must be at most 5 minutes")).toBeVisible();
  await expect(page.getByLabel("Duration (s)")).toHaveAttribute("aria-invalid", "true");
  await expectNoInternalNames(page);
  await expect(await openDetails(page)).toHaveText("duration_ms must be between 1 and 300000");
});

test("processing errors say what is wrong with the file: no effort, and not a session file", async ({ page }) => {
  await preparedUploadPage(page);
  // A valid recording in which the boat never starts an effort.
  await chooseFile(page, "reference-v1.svc", fs.readFileSync(path.join(FIXTURES, "reference-v1.svc")));
  await page.getByLabel("Distance (m)").fill("200");
  await page.getByLabel("Boat").selectOption({ label: "K1" });
  await page.getByLabel("Seat 1", { exact: true }).selectOption({ label: "Uno" });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("alert").first()).toHaveText("The file could not be processed.");
  await expect(page.locator("#file-error")).toHaveText(/^No effort was found in this recording: the boat never starts a piece/);
  await expect(page.getByLabel("Session file (.svc)")).toHaveAttribute("aria-invalid", "true");
  await expectNoInternalNames(page);
  await expect(await openDetails(page)).toHaveText(/^the session cannot be processed: /);

  await chooseFile(page, "truncated.svc", fs.readFileSync(path.join(FIXTURES, "bad", "truncated.svc")));
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.locator("#file-error")).toHaveText("This file is damaged, incomplete or not a session from a sensor unit");
  await expect(await openDetails(page)).toHaveText(/^file corrupt, truncated or not a valid device session/);
});
