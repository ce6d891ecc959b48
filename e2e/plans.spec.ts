import type { Page } from "@playwright/test";
import { expectAccessible, expectNoPageOverflow } from "./a11y";
import { signedInContext, signedInNewAccount, signUpOverHttp, trpcMutation } from "./api-helpers";
import { signInOverHttp } from "./helpers";
import { expect, test } from "./fixtures";
import { simulatedTrainingFile } from "./svc-files";

// Each test makes its own coach and athlete.
test.describe.configure({ mode: "parallel" });

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const DAY_MS = 86_400_000;
const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const mondayOf = (date: string) => shift(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));

async function coachWithAthlete(page: Page, baseURL: string, label: string) {
  await signedInNewAccount(page, baseURL, label);
  return trpcMutation<{ id: number }>(page.request, "athletes.create", {
    name: "Pia",
    surname: "Plan",
    subscriptionActiveUntil: "2099-12-31",
  });
}

async function noSidewaysScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

const today = () => new Date().toISOString().slice(0, 10);
/** Two weeks ahead: nothing is due, so no mark is "missed". */
const aheadMonday = () => shift(mondayOf(today()), 14);
const planFor = (page: Page, athleteId: number, date: string, title: string) =>
  trpcMutation<{ id: number }>(page.request, "plans.create", {
    date,
    title,
    audience: { kind: "athlete", athleteId },
    source: { kind: "written", blocks: [{ reps: 4, distance_m: 500, rest_s: 120 }] },
  });

for (const [name, size] of [
  ["1366 px", DESKTOP],
  ["390 px", PHONE],
] as const) {
  test(`a coach plans a workout with the form, sees it on /plans, moves it and copies its day (${name})`, async ({ page, baseURL }) => {
    await page.setViewportSize(size);
    await coachWithAthlete(page, baseURL!, "planner");
    const day = aheadMonday();
    await page.goto(`/plans?week=${day}`);
    await page.waitForSelector("body[data-hydrated]", { state: "attached" });
    await expect(page.getByTestId("plans-empty")).toContainText("Nothing planned and nothing done this week.");

    await page.getByText("Plan a workout", { exact: true }).click();
    await page.getByLabel("Day").fill(day);
    await page.getByLabel("Title (optional)").fill("Tempo 4 × 500");
    await page.getByLabel("Pace /500 m (m:ss, optional)").fill("2:05");
    await page.getByLabel("Rate spm (optional)").fill("70");
    await page.getByRole("button", { name: "Plan workout" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Planned for ${day}.` })).toBeVisible();
    const first = page.getByTestId(`plan-day-${day}`);
    await expect(first.getByTestId("plan-card")).toContainText("Tempo 4 × 500");
    await expect(first.getByTestId("plan-card")).toContainText("4 × 500 m");
    await expect(first.getByTestId("plan-card")).toContainText("Pia Plan");
    await expect(first.getByTestId("plan-card")).toContainText("not due yet");
    if (size === PHONE) await noSidewaysScroll(page);
    else await expectAccessible(page);

    // Move it two days on, then copy that day to the next.
    await page.getByLabel("Move or copy Tempo 4 × 500 to").fill(shift(day, 2));
    await page.getByRole("button", { name: "Move Tempo 4 × 500" }).click();
    const moved = page.getByTestId(`plan-day-${shift(day, 2)}`);
    await expect(moved.getByTestId("plan-card")).toContainText("Tempo 4 × 500");
    await expect(first.getByTestId("plan-card")).toHaveCount(0);
    await moved.getByLabel("Move or copy Tempo 4 × 500 to").fill(shift(day, 3));
    await moved.getByRole("button", { name: `Copy the day ${shift(day, 2)} to the chosen date` }).click();
    await expect(page.getByTestId(`plan-day-${shift(day, 3)}`).getByTestId("plan-card")).toContainText("Tempo 4 × 500");
    await expect(moved.getByTestId("plan-card")).toHaveCount(1);
    if (size === PHONE) await noSidewaysScroll(page);
  });

  test(`a coach copies a week and deletes a plan after a confirmation (${name})`, async ({ page, baseURL }) => {
    await page.setViewportSize(size);
    const athlete = await coachWithAthlete(page, baseURL!, "plan-week");
    const day = shift(aheadMonday(), 2);
    await planFor(page, athlete.id, day, "Tempo 4 × 500");
    await page.goto(`/plans?week=${day}`);
    await page.waitForSelector("body[data-hydrated]", { state: "attached" });

    await page.getByLabel("Copy this week to the week of").fill(shift(day, 7));
    await page.getByRole("button", { name: "Copy week" }).click();
    await expect(page.getByRole("status").filter({ hasText: "1 plan copied." })).toBeVisible();
    await page.getByRole("link", { name: "Next week" }).click();
    await expect(page.getByTestId(`plan-day-${shift(day, 7)}`).getByTestId("plan-card")).toContainText("Tempo 4 × 500");

    // Delete asks first; Cancel keeps it, the dialog's action deletes it.
    await page.waitForSelector("body[data-hydrated]", { state: "attached" });
    await page.getByRole("button", { name: "Delete Tempo 4 × 500" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete the planned workout “Tempo 4 × 500”?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("plan-card")).toHaveCount(1);
    await page.getByRole("button", { name: "Delete Tempo 4 × 500" }).click();
    await dialog.getByRole("button", { name: "Delete plan" }).click();
    await expect(page.getByTestId("plans-empty")).toBeVisible();
    if (size === PHONE) await noSidewaysScroll(page);
  });
}

test("a coach plans a template's workout for a K2 crew with the form (390 px)", async ({ page, baseURL }) => {
  await page.setViewportSize(PHONE);
  await coachWithAthlete(page, baseURL!, "plan-crew");
  await trpcMutation(page.request, "athletes.create", { name: "Bo", surname: "Bow", subscriptionActiveUntil: "2099-12-31" });
  const text = JSON.stringify({
    version: 1,
    name: "Crew 3 × 1 km",
    steps: [
      {
        repeat: 3,
        steps: [
          { kind: "work", distance_m: 1000 },
          { kind: "rest", duration_s: 180 },
        ],
      },
    ],
  });
  await trpcMutation(page.request, "workouts.create", { name: "Crew 3 × 1 km", text });
  const day = shift(aheadMonday(), 4);
  await page.goto(`/plans?week=${day}`);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByText("Plan a workout", { exact: true }).click();
  await page.getByLabel("Day").fill(day);
  await page.getByLabel("Who").selectOption("crew");
  await page.getByLabel("Boat", { exact: true }).selectOption("K2");
  await page.getByLabel("Seat 1").selectOption({ label: "Bo Bow" });
  await page.getByLabel("Seat 2").selectOption({ label: "Pia Plan" });
  await page.getByLabel("From a template").check();
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "Crew 3 × 1 km" });
  await noSidewaysScroll(page);
  await page.getByRole("button", { name: "Plan workout" }).click();
  const card = page.getByTestId(`plan-day-${day}`).getByTestId("plan-card");
  await expect(card).toContainText("Crew 3 × 1 km");
  await expect(card).toContainText("3 × 1 km");
  await expect(card).toContainText("K2 crew: Bo Bow, Pia Plan");
  await noSidewaysScroll(page);
});

test("an athlete linked to their record sees their own plans, not their teammates' (390 px)", async ({ page, browser, baseURL }) => {
  const pia = await coachWithAthlete(page, baseURL!, "plan-coach");
  const bo = await trpcMutation<{ id: number }>(page.request, "athletes.create", {
    name: "Bo",
    surname: "Bow",
    subscriptionActiveUntil: "2099-12-31",
  });
  const day = shift(aheadMonday(), 1);
  await planFor(page, pia.id, day, "Pia's 4 × 500");
  await planFor(page, bo.id, day, "Bo's 4 × 500");
  const account = await signUpOverHttp(baseURL!, "plan-athlete");
  const { link } = await trpcMutation<{ link: string }>(page.request, "athleteLinks.invite", { athleteId: pia.id, email: account.email });
  const own = await signedInContext(baseURL!, account);
  await trpcMutation(own, "athleteLinks.accept", { token: new URL(link).pathname.split("/").pop() });
  await own.dispose();

  const context = await browser.newContext({ viewport: PHONE });
  const athletePage = await context.newPage();
  await signInOverHttp(athletePage, account);
  await athletePage.goto(`/plans?week=${day}`);
  const cards = athletePage.getByTestId(`plan-day-${day}`).getByTestId("plan-card");
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText("Pia's 4 × 500");
  await expect(athletePage.getByText("Bo's 4 × 500")).toHaveCount(0);
  await noSidewaysScroll(athletePage);
  await context.close();
});

test("the home shows this week's plan and links to /plans (1366 px)", async ({ page, baseURL }) => {
  await page.setViewportSize(DESKTOP);
  const athlete = await coachWithAthlete(page, baseURL!, "plan-home");
  await planFor(page, athlete.id, today(), "Home 4 × 500");
  await page.goto("/home");
  const card = page.getByTestId("home-plans");
  await expect(card).toContainText("1 planned workout");
  await expect(card).toContainText("Home 4 × 500");
  await card.getByRole("link", { name: "All plans" }).click();
  await expect(page).toHaveURL(/\/plans$/);
  await expect(page.getByTestId("plan-card")).toContainText("Home 4 × 500");
});

test("a training done on a planned day shows planned against done rep by rep on its page and on /plans (390 px)", async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(PHONE);
  const athlete = await coachWithAthlete(page, baseURL!, "plan-done");
  const { bytes } = simulatedTrainingFile({ spec: "4x250m/60s", vessel: "K1", seed: 2801 });
  const upload = await page.request.post("/api/uploads/trainings", {
    multipart: {
      file: { name: "planned.svc", mimeType: "application/octet-stream", buffer: bytes },
      metadata: JSON.stringify({
        vessel_id: 1,
        track_id: null,
        athlete_id: athlete.id,
        title: "Done 4 × 250",
        template_id: null,
        sensitivity: 5,
      }),
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const trainingPath = `/trainings/${(await upload.json()).data.id}`;
  await page.goto(trainingPath);
  await expect(page.getByTestId("sets-table")).toBeVisible();
  const date = ((await page.getByTestId("training-facts").locator("dd").first().textContent()) ?? "").trim().slice(0, 10);
  expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByTestId("training-plan")).toContainText("No planned workout matches this training.");

  // Planning that day matches the training already processed.
  await trpcMutation(page.request, "plans.create", {
    date,
    title: "Sprint 4 × 250",
    audience: { kind: "athlete", athleteId: athlete.id },
    source: { kind: "written", blocks: [{ reps: 4, distance_m: 250, rest_s: 60 }] },
  });
  await page.reload();
  const plan = page.getByTestId("training-plan");
  await expect(plan).toContainText("Sprint 4 × 250");
  await expect(plan.getByTestId("plan-rep")).toHaveCount(4);
  await expect(plan.getByTestId("plan-rep").first().getByTestId("plan-mark")).toHaveText(/within plan|near plan/);
  await expectNoPageOverflow(page);
  // Unlinked by hand it stays unlinked; Re-link matches the best plan again.
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await plan.getByRole("button", { name: "Unlink from plan" }).click();
  await expect(plan).toContainText("Unlinked by hand");
  await expect(plan.getByTestId("plan-rep")).toHaveCount(0);
  // A person may link it to a plan of their choice, then give the choice back to matching.
  await plan.getByLabel("Link to").selectOption({ label: `${date} · Sprint 4 × 250` });
  await plan.getByRole("button", { name: "Link", exact: true }).click();
  await expect(plan).toContainText("(linked by hand)");
  await plan.getByRole("button", { name: "Re-link to the best plan" }).click();
  await expect(plan).not.toContainText("(linked by hand)");
  await expect(plan.getByTestId("plan-rep")).toHaveCount(4);
  await expectAccessible(page);

  await page.goto(`/plans?week=${date}`);
  const dayCard = page.getByTestId(`plan-day-${date}`);
  await expect(dayCard.getByTestId("plan-card")).toContainText("Sprint 4 × 250");
  await expect(dayCard.getByTestId("plan-card").getByTestId("plan-mark")).toHaveText(/within plan|near plan/);
  await expect(dayCard.getByTestId("done-card")).toContainText("Done 4 × 250");
  await expect(dayCard.getByTestId("done-card").getByTestId("plan-mark")).toHaveText(/within plan|near plan/);
  await expect(page.getByTestId("plan-compliance")).toHaveText(/\d+ %/);
  await noSidewaysScroll(page);
});

test("a coach edits a plan with the form: a rep's new target and notes show on the week (1366 px)", async ({ page, baseURL }) => {
  await page.setViewportSize(DESKTOP);
  const athlete = await coachWithAthlete(page, baseURL!, "plan-edit");
  const day = shift(aheadMonday(), 3);
  await trpcMutation(page.request, "plans.create", {
    date: day,
    title: "Tempo 4 × 500",
    audience: { kind: "athlete", athleteId: athlete.id },
    source: { kind: "written", blocks: [{ reps: 4, distance_m: 500, rest_s: 120, targets: { rate_spm: 70 } }] },
  });
  await page.goto(`/plans?week=${day}`);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  const card = page.getByTestId(`plan-day-${day}`).getByTestId("plan-card");
  await expect(card.getByTestId("plan-targets")).toHaveText("Targets: 4 × 500 m at 70 spm");

  // Edit opens the same form, prefilled with the plan.
  await card.getByRole("link", { name: "Edit Tempo 4 × 500" }).click();
  const form = page.getByRole("form", { name: "Edit “Tempo 4 × 500”" });
  await expect(form).toBeVisible();
  await expect(form.getByLabel("Day")).toHaveValue(day);
  await expect(form.getByLabel("Title (optional)")).toHaveValue("Tempo 4 × 500");
  await expect(form.getByLabel("Each rep")).toHaveValue("500");
  await expect(form.getByLabel("Rate spm (optional)")).toHaveValue("70");
  await form.getByLabel("Rate spm (optional)").fill("82");
  await form.getByLabel("Pace /500 m (m:ss, optional)").fill("1:55");
  await form.getByLabel("Zone (optional)").selectOption({ label: "3 · Tempo" });
  await form.getByLabel("Notes for the athletes (optional)").fill("Hold rate in the last 100");
  await expectAccessible(page);
  await form.getByRole("button", { name: "Save changes" }).click();

  await expect(page).toHaveURL(new RegExp(`/plans\\?week=${day}$`));
  await expect(form).toHaveCount(0);
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("plan-targets")).toHaveText("Targets: 4 × 500 m at 1:55 /500 m · 82 spm · Tempo (zone 3)");
  await expect(card.getByTestId("plan-notes")).toHaveText("Notes: Hold rate in the last 100");
});

test("at 390 px the plan form with its zone selects is usable and nothing scrolls sideways, writing and editing", async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize(PHONE);
  await coachWithAthlete(page, baseURL!, "plan-zone");
  const day = shift(aheadMonday(), 5);
  await page.goto(`/plans?week=${day}`);
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByText("Plan a workout", { exact: true }).click();
  await page.getByLabel("Day").fill(day);
  await page.getByLabel("Title (optional)").fill("Zones");
  await page.getByRole("button", { name: "Add reps" }).click();
  const blocks = page.getByTestId("plan-block");
  await expect(blocks).toHaveCount(2);
  await blocks.nth(1).getByLabel("Zone (optional)").selectOption({ label: "4 · Threshold" });
  await page.getByLabel("Notes for the athletes (optional)").fill("Easy between the blocks");
  await noSidewaysScroll(page);
  await page.getByRole("button", { name: "Plan workout" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Planned for ${day}.` })).toBeVisible();
  const card = page.getByTestId(`plan-day-${day}`).getByTestId("plan-card");
  await expect(card.getByTestId("plan-targets")).toHaveText("Targets: 4 × 500 m at Threshold (zone 4)");
  await expect(card.getByTestId("plan-notes")).toHaveText("Notes: Easy between the blocks");
  await noSidewaysScroll(page);

  // Editing it: the zone comes back in its select, the page stays within the phone's width.
  await card.getByRole("link", { name: "Edit Zones" }).click();
  const form = page.getByRole("form", { name: "Edit “Zones”" });
  await expect(form).toBeVisible();
  await expect(form.getByTestId("plan-block").nth(1).getByLabel("Zone (optional)")).toHaveValue("4");
  await expect(form.getByTestId("plan-block").nth(0).getByLabel("Zone (optional)")).toHaveValue("");
  await noSidewaysScroll(page);
});
