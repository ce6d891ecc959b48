import { E2E_ACCOUNTS } from "./accounts";
import { expect, test } from "./fixtures";
import { signIn } from "./helpers";

test("the operator reprocesses stored files with the current core and watches the run finish", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, E2E_ACCOUNTS.operator);
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
  await page.goto("/operator");
  const section = page.getByRole("region", { name: "Processing core" });
  // The seeded result made by core 1 (scripts/e2e-seed.ts) is at least one older file.
  await expect(section.getByText(/[1-9]\d* by an older or unknown core/)).toBeVisible();
  const start = section.getByRole("button", { name: /^Reprocess stored files with core v\d+$/ });
  await start.click();

  // The page refreshes itself while the run is active, up to its end.
  await expect(section.getByTestId("reprocess-state")).toHaveText("completed", { timeout: 90_000 });
  const counts = (await section.getByTestId("reprocess-counts").textContent())!;
  const [, finished, total, done, skipped, failed] = /^(\d+) of (\d+) files: (\d+) reprocessed, (\d+) already current, (\d+) failed\.$/.exec(counts)!.map(Number);
  expect(finished).toBe(total);
  expect(done).toBeGreaterThanOrEqual(1);
  expect(done + skipped + failed).toBe(total);
  // Other specs leave trainings whose file the core refuses (a damaged upload): they fail again, each
  // listed with its reason and keeping its previous state. Every stored result is reprocessed.
  if (failed > 0) {
    const failures = section.getByRole("table", { name: /could not be reprocessed/ }).locator("tbody tr");
    await expect(failures).toHaveCount(Math.min(failed, 20));
    for (const row of await failures.all()) await expect(row.locator("td").first()).toHaveText(/^training \d+$/);
  }
  await expect(section.getByRole("progressbar")).toHaveAttribute("value", String(total));
  await expect(section.getByText(/ 0 by an older or unknown core/)).toBeVisible();
  await expect(start).toBeEnabled();
});

test("the reprocessing control is the operator's: others get the 404 page", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.privileged);
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
  expect((await page.goto("/operator"))?.status()).toBe(404);
});
