import { expect, test } from "./fixtures";
import { newAccount, signUpInBrowser, signInOverHttp } from "./helpers";

// Each test makes its own account and world.
test.describe.configure({ mode: "parallel" });

test("create an athlete and a track and see them listed", async ({ page }) => {
  await signUpInBrowser(page, newAccount("coach"));
  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Club" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Athletes" }).click();
  await expect(page.getByText("No athletes yet")).toBeVisible();
  await page.getByRole("link", { name: "Add athlete" }).click();
  await page.getByLabel("Name", { exact: true }).fill("Teresa");
  await page.getByLabel("Surname").fill("Portela");
  await page.getByLabel("Date of birth").fill("1988-05-02");
  await page.getByLabel("Modality").fill("Kayak");
  await page.getByLabel("Weight (kg)").fill("63.5");
  await page.getByRole("button", { name: "Create athlete" }).click();
  await expect(page.getByRole("heading", { name: "Athletes" })).toBeVisible();
  const row = page.getByRole("row", { name: /Teresa Portela/ });
  await expect(row).toContainText("Kayak");
  await expect(row).toContainText("63.5 kg");

  await page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Club" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tracks" }).click();
  await page.getByRole("link", { name: "Add track" }).click();
  await page.getByLabel("Name").fill("Verducido 1000 m");
  await page.getByLabel("Location").fill("Pontevedra");
  await page.getByRole("button", { name: "Create track" }).click();
  await expect(page.getByRole("row", { name: /Verducido 1000 m/ })).toContainText("Private");
});

test("bad athlete input shows field errors and saves nothing", async ({ page }) => {
  await signUpInBrowser(page, newAccount("coach"));
  await page.goto("/athletes/new");
  await page.getByLabel("Name", { exact: true }).fill("  ");
  await page.getByLabel("Weight (kg)").fill("900");
  await page.getByRole("button", { name: "Create athlete" }).click();
  await expect(page.getByText("Enter a name")).toBeVisible();
  await expect(page.getByText("At most 250 kg")).toBeVisible();
  await page.goto("/athletes");
  await expect(page.getByText("No athletes yet")).toBeVisible();
});

test("a coach reaches a team's athletes; a stranger gets 404", async ({ page, browser }) => {
  const coach = newAccount("coach");
  await signUpInBrowser(page, coach);
  await page.goto("/athletes/new");
  await page.getByLabel("Name", { exact: true }).fill("Ana");
  await page.getByLabel("Surname").fill("Sobral");
  await page.getByRole("button", { name: "Create athlete" }).click();
  await page.getByRole("link", { name: "Ana Sobral" }).click();
  await page.waitForURL(/\/athletes\/\d+$/);
  const athleteUrl = page.url();

  await page.goto("/teams/new");
  await page.getByLabel("Team name").fill("Morning squad");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name: "Morning squad" })).toBeVisible();
  await page.getByRole("button", { name: "Add athlete" }).click();
  await expect(page.getByRole("row", { name: /Ana Sobral/ })).toContainText("Athlete");

  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await signUpInBrowser(stranger, newAccount("stranger"));
  const response = await stranger.goto(athleteUrl);
  expect(response?.status()).toBe(404);
  await strangerContext.close();

  // A second coach added to the team can open the athlete.
  const secondCoach = newAccount("coach2");
  const ctx2 = await browser.newContext();
  const second = await ctx2.newPage();
  await signUpInBrowser(second, secondCoach);
  await page.getByLabel("Coach's account email").fill(secondCoach.email);
  await page.getByRole("button", { name: "Add coach" }).click();
  await expect(page.getByRole("row", { name: new RegExp(secondCoach.name) })).toContainText("Coach");
  const allowed = await second.goto(athleteUrl);
  expect(allowed?.status()).toBe(200);
  await expect(second.getByRole("heading", { name: "Ana Sobral" })).toBeVisible();
  await ctx2.close();
});

test("sign out everywhere ends other sessions at once", async ({ page, browser }) => {
  const account = newAccount();
  await signUpInBrowser(page, account);
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signInOverHttp(other, account);

  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();

  await other.goto("/tracks");
  await expect(other).toHaveURL(/\/signin/);
  await otherContext.close();
});
