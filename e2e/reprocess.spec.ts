import { E2E_ACCOUNTS } from "./accounts";
import { expect, test } from "./fixtures";
import { signInOverHttp } from "./helpers";

// In file order: the first test frees the way the seed blocked with a lost run, the second starts a run of its own.
test("the operator stops a stalled run whose function is lost, and may start a new one", async ({ page }) => {
  await signInOverHttp(page, E2E_ACCOUNTS.operator);
  await page.goto("/operator");
  const section = page.getByRole("region", { name: "Processing core" });
  const start = section.getByRole("button", { name: /^Reprocess stored files with core v\d+$/ });
  // scripts/e2e-seed.ts left a running run no runner will ever work, its last progress an hour ago.
  const run = section.getByTestId("reprocess-run");
  await expect(run.getByTestId("reprocess-stalled")).toHaveText("stalled");
  await expect(run.getByRole("status")).toContainText("No progress for over 15 minutes");
  await expect(start).toBeDisabled();
  const runId = Number(/^Run (\d+)/.exec((await run.getByRole("heading", { level: 3 }).textContent()) ?? "")?.[1]);
  expect(runId).toBeGreaterThan(0);

  await run.getByRole("button", { name: `Stop run ${runId}` }).click();
  const dialog = page.getByRole("dialog", { name: `Stop reprocessing run ${runId}?` });
  await expect(dialog).toContainText("its background function is probably lost");
  await expect(dialog).toContainText("Files already reprocessed keep their new figures");
  await dialog.getByLabel("Reason (optional)").fill("e2e: its function was lost");
  await dialog.getByRole("button", { name: "Stop run" }).click();
  await expect(dialog).toBeHidden();

  await expect(run.getByTestId("reprocess-state")).toHaveText("stopped");
  const { name, email } = E2E_ACCOUNTS.operator;
  await expect(run.getByTestId("reprocess-last-error")).toHaveText(
    `Stopped by ${name} (${email}) on the operator page: e2e: its function was lost`,
  );
  await expect(run.getByTestId("reprocess-stalled")).toHaveCount(0);
  await expect(run.getByRole("button", { name: /^Stop run/ })).toHaveCount(0);
  // The way is free for a new run (the next test starts one), and the decision is in the operators' log.
  await expect(start).toBeEnabled();
  const log = page.getByRole("region", { name: "Recent decisions" });
  await expect(log.getByRole("row").filter({ hasText: `stopped reprocessing run ${runId}: e2e: its function was lost` })).toContainText(
    name,
  );
});

test("the operator reprocesses stored files with the current core and watches the run finish", async ({ page }) => {
  await signInOverHttp(page, E2E_ACCOUNTS.operator);
  await page.goto("/operator");
  const section = page.getByRole("region", { name: "Processing core" });
  // The seeded result made by core 1 (scripts/e2e-seed.ts) is at least one older file.
  await expect(section.getByText(/[1-9]\d* by an older or unknown core/)).toBeVisible();
  const start = section.getByRole("button", { name: /^Reprocess stored files with core v\d+$/ });
  // The page shows the latest run: one made before (the unit tests share CI's database) must not pass for ours.
  const runHeading = section.getByTestId("reprocess-run").getByRole("heading", { level: 3 });
  const runIdShown = async () =>
    Number(/^Run (\d+)/.exec((await runHeading.count()) ? ((await runHeading.textContent()) ?? "") : "")?.[1] ?? 0);
  const before = await runIdShown();
  await start.click();
  await expect.poll(runIdShown, { timeout: 30_000 }).toBeGreaterThan(before);

  // The page refreshes itself while the run is active, up to its end.
  await expect(section.getByTestId("reprocess-state")).toHaveText("completed", { timeout: 90_000 });
  const counts = (await section.getByTestId("reprocess-counts").textContent())!;
  const [, finished, total, done, skipped, failed] = /^(\d+) of (\d+) files: (\d+) reprocessed, (\d+) already current, (\d+) failed\.$/
    .exec(counts)!
    .map(Number);
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
  await signInOverHttp(page, E2E_ACCOUNTS.privileged);
  expect((await page.goto("/operator"))?.status()).toBe(404);
});
