import { expect, test } from "./fixtures";
import { newAccount, signIn, signOut, signUp } from "./helpers";

test("sign up, sign out and sign in again", async ({ page }) => {
  const account = newAccount();
  await signUp(page, account);
  await expect(page.getByText("No sessions yet")).toBeVisible();
  await expect(page.getByRole("link", { name: account.name })).toBeVisible();

  await signOut(page);
  // Signed-in pages are protected on the server; sign-in returns to the page asked for.
  await page.goto("/athletes");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fathletes/);

  await signIn(page, account, { navigate: false });
  await expect(page.getByRole("heading", { name: "Athletes" })).toBeVisible();
});

test("a wrong password and an unknown email show the same error", async ({ page }) => {
  const account = newAccount();
  await signUp(page, account);
  await signOut(page);

  await signIn(page, { email: account.email, password: "not-the-password" });
  await expect(page.locator(".form-error[role=alert]")).toHaveText("Email or password is incorrect.");
  await expect(page).toHaveURL(/\/signin/);

  await signIn(page, { email: `nobody-${Date.now()}@e2e.example`, password: "whatever-password" });
  await expect(page.locator(".form-error[role=alert]")).toHaveText("Email or password is incorrect.");
});

test("sign-up shows field errors from the server and saves nothing", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("Name").fill("Short Password");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter a valid email address")).toBeVisible();
  await expect(page.getByText("Use at least 10 characters")).toBeVisible();
  await expect(page).toHaveURL(/\/signup/);
});

test("unknown routes get the 404 page", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});
