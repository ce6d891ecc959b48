import type { Page } from "@playwright/test";
import { checkPageAtBothWidths } from "./a11y";
import { trpcMutation } from "./api-helpers";
import { expect, test } from "./fixtures";
import { newAccount, signUpInBrowser } from "./helpers";
import { simulatedSvc, simulatedTrainingFile } from "./svc-files";

// Each test makes its own account and world.
test.describe.configure({ mode: "parallel" });

/** A coach with a track, a team of Uno and Dos (subscriptions running) and Tres, whose subscription ended. */
async function coachWorld(page: Page, label: string) {
  await signUpInBrowser(page, newAccount(label));
  const api = page.request;
  await trpcMutation(api, "tracks.create", { name: "Records basin" });
  const athlete = (name: string, until: string) =>
    trpcMutation<{ id: number }>(api, "athletes.create", { name, surname: "Club", subscriptionActiveUntil: until });
  const uno = await athlete("Uno", "2099-12-31");
  const dos = await athlete("Dos", "2099-12-31");
  const tres = await athlete("Tres", "2020-01-31");
  const team = await trpcMutation<{ id: number }>(api, "teams.create", { name: "Sprint squad" });
  for (const a of [uno, dos]) await trpcMutation(api, "teams.addAthlete", { teamId: team.id, athleteId: a.id });
  return { uno, dos, tres };
}

/** Uploads a session through the page with the suggested distance (checked, not typed); returns its path and the time its heading shows. */
async function uploadSession(page: Page, file: { name: string; buffer: Buffer }, suggested: string, boat: string, crew: string[]) {
  await page.goto("/upload");
  await page.getByLabel("Session file (.svc)").setInputFiles({ ...file, mimeType: "application/octet-stream" });
  // Preselected from the recording, and said so; nothing stored yet.
  await expect(page.getByLabel("Distance (m)")).toHaveValue(suggested);
  await expect(page.getByText(/Suggested from the recording: the crew covered about \d+ m/)).toBeVisible();
  await page.getByLabel("Boat").selectOption({ label: boat });
  for (const [i, name] of crew.entries()) await page.getByLabel(`Seat ${i + 1}`, { exact: true }).selectOption({ label: `${name} Club` });
  await page.getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/sessions\/\d+$/);
  const heading = await page.getByRole("heading", { level: 1 }).textContent();
  expect(heading).toContain(`${boat} · ${suggested} m`);
  return { path: new URL(page.url()).pathname, time: heading!.split("·").at(-1)!.trim() };
}

test("the upload suggests the distance from the recording, explains a lapsed subscription, and records keep athletes and crews apart", async ({
  page,
}) => {
  await coachWorld(page, "records");

  // A file that is not a recording: a clear error on the file field at once, and nothing to upload.
  await page.goto("/upload");
  await page
    .getByLabel("Session file (.svc)")
    .setInputFiles({ name: "junk.svc", mimeType: "application/octet-stream", buffer: Buffer.from("not a sensor recording") });
  await expect(page.locator("#file-error")).toHaveText("This file is damaged, incomplete or not a session from a sensor unit");
  await expect(page.getByLabel("Distance (m)")).toHaveValue("");
  // The endpoint behind it: hostile requests are 4xx, never a 5xx, and a good one stores nothing (server test).
  const suggest = "/api/uploads/distance-suggestion";
  expect((await page.request.post(suggest, { data: "not multipart" })).status()).toBe(400);
  const k1File = {
    name: "x.svc",
    mimeType: "application/octet-stream",
    buffer: simulatedSvc({ vessel: "K1", distanceM: 200, seed: 4200 }),
  };
  expect((await page.request.post(suggest, { multipart: { metadata: "{", file: k1File } })).status()).toBe(400);
  expect(
    (
      await page.request.post(suggest, {
        multipart: { metadata: JSON.stringify({ vessel_id: 1 }), file: { ...k1File, buffer: k1File.buffer.subarray(0, 300) } },
      })
    ).status(),
  ).toBe(422);
  const answer = await page.request.post(suggest, { multipart: { file: k1File } });
  expect(await answer.json()).toEqual({ data: { distance_m: 200, covered_m: expect.any(Number) } });

  // The lapsed athlete is greyed out with a note that says why and what to do.
  await page.getByLabel("Boat").selectOption({ label: "K1" });
  await expect(page.getByRole("option", { name: /Tres Club \(no active subscription/ })).toBeDisabled();
  const note = page.getByTestId("subscription-note");
  await expect(note).toContainText("Tres Club (ended 2020-01-31)");
  await expect(note).toContainText("set “Subscription active until”");
  await expect(note.getByRole("link", { name: "Tres Club" })).toHaveAttribute("href", /\/athletes\/\d+$/);

  const k1 = await uploadSession(
    page,
    { name: "uno-500.svc", buffer: simulatedSvc({ vessel: "K1", distanceM: 500, seed: 4201, pace: "race" }) },
    "500",
    "K1",
    ["Uno"],
  );
  const k2 = await uploadSession(
    page,
    { name: "unodos-200.svc", buffer: simulatedSvc({ vessel: "K2", distanceM: 200, seed: 4202 }) },
    "200",
    "K2",
    ["Dos", "Uno"],
  );

  await page.goto("/records");
  // The team's leaderboard per boat class and distance, with the session pages' times.
  const k1Board = page.getByRole("table", { name: "Sprint squad K1 500 m" });
  await expect(k1Board.getByRole("row", { name: /Uno Club/ })).toContainText(k1.time);
  await expect(page.getByRole("table", { name: "Sprint squad K2 200 m" }).getByRole("row", { name: /Dos Club, Uno Club/ })).toContainText(
    k2.time,
  );
  // Uno's bests: K1 and K2 apart, each linking to its session.
  const unoBests = page.getByRole("table", { name: "Bests of Uno Club" });
  await expect(unoBests.getByRole("row", { name: /K1 500 m/ }).getByRole("link", { name: k1.time })).toHaveAttribute("href", k1.path);
  await expect(unoBests.getByRole("row", { name: /K2 200 m/ }).getByRole("link", { name: k2.time })).toHaveAttribute("href", k2.path);
  // Dos has no K1 best: Uno's single never counts for the crew.
  await expect(page.getByRole("table", { name: "Bests of Dos Club" }).getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("table", { name: "Bests of the K2 Dos Club, Uno Club" })).toContainText(k2.time);
  await checkPageAtBothWidths(page, "/records");
});

test("a K2 training names its whole crew", async ({ page }) => {
  await coachWorld(page, "crewtrainer");
  await page.goto("/upload?kind=training");
  const { bytes } = simulatedTrainingFile({ spec: "2x100m/30s", vessel: "K2", seed: 4203 });
  await page
    .getByLabel("Training file (.svc)")
    .setInputFiles({ name: "k2-practice.svc", mimeType: "application/octet-stream", buffer: bytes });
  await page.getByLabel("Title").fill("K2 starts");
  await page.getByLabel("Boat").selectOption({ label: "K2" });
  await expect(page.getByRole("group", { name: "Crew of the K2, from the bow (optional)" })).toBeVisible();
  // Seat 2 alone is refused: the heart-rate strap is seat 1's.
  await page.getByLabel("Seat 2", { exact: true }).selectOption({ label: "Dos Club" });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.locator("#seat-0-error")).toContainText("Seat 1: name the stroke seat's paddler too");
  await page.getByLabel("Seat 1", { exact: true }).selectOption({ label: "Uno Club" });
  await expect(page.locator("#seat-0-error")).toBeHidden();
  await page.getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/trainings\/\d+$/);
  await expect(page.getByRole("heading", { name: "K2 starts" })).toBeVisible();
  await expect(page.locator("dd", { hasText: "1. Uno Club, 2. Dos Club" })).toBeVisible();
  await checkPageAtBothWidths(page, new URL(page.url()).pathname);
});
