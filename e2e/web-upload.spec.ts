import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { trpcMutation } from "./api-helpers";
import { checkDialogAtBothWidths } from "./a11y";
import { newAccount, openSessionActions, signUpInBrowser, waitForDistanceSuggestion } from "./helpers";
import { simulatedSvc } from "./svc-files";

/** A new account with a track and athlete "Uno", and one K1 500 m session uploaded over HTTP (the route the upload page posts to). */
async function accountWithSession(page: Page, label: string, seed: number): Promise<{ sessionPath: string; bytes: Buffer }> {
  await signUpInBrowser(page, newAccount(label));
  const track = await trpcMutation<{ id: number }>(page.request, "tracks.create", { name: "Web basin" });
  const athlete = await trpcMutation<{ id: number }>(page.request, "athletes.create", {
    name: "Uno",
    subscriptionActiveUntil: "2099-12-31",
  });
  const bytes = simulatedSvc({ vessel: "K1", distanceM: 500, seed });
  const upload = await page.request.post("/api/uploads", {
    multipart: {
      file: { name: "k1-500.svc", mimeType: "application/octet-stream", buffer: bytes },
      metadata: JSON.stringify({ distance: 500, vessel_id: 1, track_id: track.id, category_id: 1, pace_id: 1, athletes: [athlete.id] }),
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  return { sessionPath: `/sessions/${(await upload.json()).data.id}`, bytes };
}

// Each test makes its own account.
test.describe.configure({ mode: "parallel" });

test("upload a simulated file through the page: its field errors, then its strokes, splits and charts", async ({ page }) => {
  await signUpInBrowser(page, newAccount("webuploader"));
  await page.goto("/tracks/new");
  await page.getByLabel("Name").fill("Web basin");
  await page.getByRole("button", { name: "Create track" }).click();
  await page.waitForURL("**/tracks");
  for (const name of ["Uno", "Dos"]) {
    await page.goto("/athletes/new");
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Subscription active until").fill("2099-12-31");
    await page.getByRole("button", { name: "Create athlete" }).click();
    await page.waitForURL("**/athletes");
  }

  await page.goto("/upload");
  // Server-side field errors come back next to their fields.
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Choose the .svc file from your sensor unit")).toBeVisible();

  await page.getByLabel("Session file (.svc)").setInputFiles({
    name: "k2-200.svc",
    mimeType: "application/octet-stream",
    buffer: simulatedSvc({ vessel: "K2", distanceM: 200, seed: 909 }),
  });
  await waitForDistanceSuggestion(page);
  await page.getByLabel("Distance (m)").fill("200");
  await page.getByLabel("Boat").selectOption({ label: "K2" });
  await page.getByLabel("Seat 1", { exact: true }).selectOption({ label: "Uno" });
  await page.getByLabel("Seat 2", { exact: true }).selectOption({ label: "Uno" });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Seat 2: this athlete already sits in Seat 1")).toBeVisible();

  await page.getByLabel("Seat 2", { exact: true }).selectOption({ label: "Dos" });
  await page.getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/sessions\/\d+$/);
  await expect(page.getByRole("heading", { name: /K2 · 200 m/ })).toBeVisible();
  const strokeRows = page.getByRole("table", { name: "Strokes" }).locator("tbody tr");
  expect(await strokeRows.count()).toBeGreaterThan(60);
  await expect(page.getByRole("figure", { name: "Speed (m/s)" }).locator("svg .recharts-line")).toBeVisible();
  await expect(page.getByRole("figure", { name: "Stroke rate (spm)" }).locator("svg .recharts-line")).toBeVisible();
  await expect(page.getByRole("figure", { name: "Distance per stroke (m)" }).locator("svg .recharts-line")).toBeVisible();

  await page.getByLabel("Number of splits").fill("8");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page.getByRole("cell", { name: "200 m", exact: true })).toBeVisible();
  await expect(page.getByRole("table", { name: "Splits" }).locator("tbody tr")).toHaveCount(8);
});

test("a share link works until revoked; revoking asks first and Cancel leaves it working", async ({ page }) => {
  const { sessionPath } = await accountWithSession(page, "webshare", 911);
  await page.goto(sessionPath);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByRole("button", { name: "Create share link" }).click();
  const shareUrl = await page.getByTestId("share-url").getAttribute("href");
  const shared = await page.context().newPage();
  expect((await shared.goto(shareUrl!))?.status()).toBe(200);
  // Revoking asks first; Cancel leaves the link working.
  await page.getByRole("button", { name: /Revoke link created/ }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke this share link?" });
  await expect(confirm).toContainText("Anyone opening it gets “not found” from now on.");
  await checkDialogAtBothWidths(page);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  expect((await shared.goto(shareUrl!))?.status()).toBe(200);
  await page.getByRole("button", { name: /Revoke link created/ }).click();
  await confirm.getByRole("button", { name: "Revoke link" }).click();
  // The badge, not the dialog's "A revoked link cannot be restored", which is on screen before the revoke commits.
  await expect(page.getByText("revoked", { exact: true })).toBeVisible();
  expect((await shared.goto(shareUrl!))?.status()).toBe(404);
});

test("the same file again makes no second session but links to the first; deleting asks first", async ({ page }) => {
  const { sessionPath, bytes } = await accountWithSession(page, "webagain", 912);
  // The same file again: no second session, a link to the first (issue 14, defect 13).
  await page.goto("/upload");
  await page.getByLabel("Session file (.svc)").setInputFiles({
    name: "again.svc",
    mimeType: "application/octet-stream",
    buffer: bytes,
  });
  await waitForDistanceSuggestion(page);
  await page.getByLabel("Distance (m)").fill("500");
  await page.getByLabel("Boat").selectOption({ label: "K1" });
  await page.getByLabel("Seat 1", { exact: true }).selectOption({ label: "Uno" });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("This file was already uploaded.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Open the existing session" })).toHaveAttribute("href", sessionPath);

  // Deleting the session asks first; Cancel keeps it, confirmed it is gone.
  await page.goto(sessionPath);
  await (await openSessionActions(page)).getByRole("button", { name: "Delete session" }).click();
  const remove = page.getByRole("dialog", { name: "Delete this session?" });
  await expect(remove).toContainText("The session, its results, its share links and its stored files are deleted for good.");
  await remove.getByRole("button", { name: "Cancel" }).click();
  await expect(remove).toBeHidden();
  expect((await page.reload())?.status()).toBe(200);
  await (await openSessionActions(page)).getByRole("button", { name: "Delete session" }).click();
  await remove.getByRole("button", { name: "Delete session" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect((await page.goto(sessionPath))?.status()).toBe(404);
});
