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
  // The page shows the latest run: one made before (the unit tests share CI's database) must not pass for ours.
  const runHeading = section.getByTestId("reprocess-run").getByRole("heading", { level: 3 });
  const runIdShown = async () => Number(/^Run (\d+)/.exec((await runHeading.count()) ? ((await runHeading.textContent()) ?? "") : "")?.[1] ?? 0);
  const before = await runIdShown();
  await start.click();
  await expect.poll(runIdShown, { timeout: 30_000 }).toBeGreaterThan(before);

  // The page refreshes itself while the run is active, up to its end.
  await expect(section.getByTestId("reprocess-state")).toHaveText("completed", { timeout: 90_000 });
  const counts = (await section.getByTestId("reprocess-counts").textContent())!;
  const [, finished, total, done, skipped, failed] = /^(\d+) of (\d+) files: (\d+) reprocessed, (\d+) already current, (\d+) failed\.$/.exec(counts)!.map(Number);
  expect(finished).toBe(total);
  expect(done).toBeGreaterThanOrEqual(1);
  expect(done + skipped + failed).toBe(total);
  await expect(section.getByRole("progressbar")).toHaveAttribute("value", String(total));
  // Other tests leave files the core refuses (damaged uploads): they fail again, each listed with its
  // reason and keeping its previous figures. Everything else is now made by the current core.
  if (failed > 0) {
    const failures = section.getByRole("table", { name: /could not be reprocessed/ }).locator("tbody tr");
    await expect(failures).toHaveCount(Math.min(failed, 20));
    for (const row of await failures.all()) await expect(row.locator("td").nth(1)).toHaveText(/corrupt|cannot be processed|missing/);
  }
  const older = Number(/ (\d+) by an older or unknown core/.exec((await section.textContent()) ?? "")?.[1]);
  expect(older).toBeLessThanOrEqual(failed);
  await expect(start).toBeEnabled();
});

test("the reprocessing control is the operator's: others get the 404 page", async ({ page }) => {
  await signIn(page, E2E_ACCOUNTS.privileged);
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
  expect((await page.goto("/operator"))?.status()).toBe(404);
});
