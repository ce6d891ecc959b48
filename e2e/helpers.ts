import { expect, type Page } from "@playwright/test";
import { randomUUID } from "node:crypto";

export interface TestAccount {
  name: string;
  email: string;
  password: string;
}

/** A fresh account per test, so specs never depend on each other or on demo data. */
export function newAccount(label = "paddler"): TestAccount {
  const id = randomUUID().slice(0, 8);
  return { name: `Test ${label} ${id}`, email: `${label}-${id}@e2e.example`, password: `pw-${randomUUID()}` };
}

export async function signUp(page: Page, account: TestAccount) {
  await page.goto("/signup");
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Name").fill(account.name);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Sessions", exact: true })).toBeVisible();
}

/** Fills the sign-in form; pass navigate: false when already on it (e.g. after a redirect with callbackUrl). */
export async function signIn(page: Page, account: Pick<TestAccount, "email" | "password">, { navigate = true } = {}) {
  if (navigate) await page.goto("/signin");
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * Signs `page`'s browser in over HTTP, the request the sign-in form sends (its cookie lands in the
 * page's context): setup for tests that are not about the form, one request instead of a page.
 */
export async function signInOverHttp(page: Page, account: Pick<TestAccount, "email" | "password">) {
  const { csrfToken } = await (await page.request.get("/api/auth/csrf")).json();
  const response = await page.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, email: account.email, password: account.password, json: "true" },
    maxRedirects: 0,
  });
  expect([200, 302], `sign-in of ${account.email}`).toContain(response.status());
}

/** A new account made through the sign-up procedure the form calls, signed in in `page`'s browser (setup, not a test of the form). */
export async function signUpInBrowser(page: Page, account: TestAccount): Promise<{ id: number }> {
  const response = await page.request.post("/api/trpc/account.signUp", { data: account });
  expect(response.status(), await response.text()).toBe(200);
  await signInOverHttp(page, account);
  return { id: (await response.json()).result.data.id };
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
}

/**
 * Rate limits count in fixed one-minute windows (server/rate-limit): a burst
 * that straddles a minute boundary is split over two windows and may never
 * reach the limit. Tests of a limit start their burst early in a window.
 */
export async function startOfRateWindow(needSeconds = 20) {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < needSeconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 250));
}

/** Opens the session page's Actions menu (export, report, correction, delete) once hydrated; returns its panel. */
export async function openSessionActions(page: Page) {
  await page.waitForSelector("body[data-hydrated]", { state: "attached", timeout: 20_000 });
  const button = page.getByRole("button", { name: "Actions" });
  if ((await button.getAttribute("aria-expanded")) !== "true") await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  return page.getByRole("region", { name: "Session actions" });
}

/** The upload form reads a chosen session file for its distance (Upload waits meanwhile); a person waits for the suggestion before typing over it. */
export async function waitForDistanceSuggestion(page: Page) {
  await expect(page.getByText(/^Suggested from the recording/)).toBeVisible();
}
