import { request as playwrightRequest } from "@playwright/test";
import { checkPageAtBothWidths } from "./a11y";
import { expect, test } from "./fixtures";
import { signedInContext, signedInNewAccount, trpcMutation } from "./api-helpers";
import type { TestAccount } from "./helpers";
import {
  apiResourceFor,
  authorizeUrl,
  exchangeCode,
  pkcePair,
  registerApp,
  startCallbackServer,
  type CallbackServer,
} from "./oauth-helpers";

/**
 * The sandbox from an application's portal page (docs/sandbox.md): make the
 * sandbox person, sign in as it, authorize the application as it (its /me
 * says sandbox), come back, reset it.
 */
let callbacks: CallbackServer;
test.beforeEach(async () => {
  callbacks = await startCallbackServer();
});
test.afterEach(async () => {
  await callbacks.close();
});

const SANDBOX_SCOPES = ["openid", "profile", "sessions:read"];

test("create a sandbox person from the application's page; the sandbox panel passes the checks at both widths", async ({
  page,
  baseURL,
}) => {
  const owner = await signedInNewAccount(page, baseURL!, "sandbox");
  const app = await registerApp(baseURL!, { name: "Sandbox client", redirectUris: [callbacks.redirectUri], scopes: SANDBOX_SCOPES }, owner);

  await page.goto(`/developer/applications/${app.id}`);
  await page.getByLabel("Weeks").fill("1");
  await page.getByLabel("Sessions a week").fill("2");
  await page.getByRole("button", { name: "Create sandbox person" }).click();
  await expect(page.getByTestId("sandbox-counts")).toHaveText("2 sessions, 1 trainings, 2 templates, 2 devices", { timeout: 30_000 });
  // The sandbox panel, with its forms and action buttons, at desktop and phone widths.
  await checkPageAtBothWidths(page, `/developer/applications/${app.id}`);
});

/** A signed-in owner's application with a sandbox person of one week, two sessions a week, made through the portal's API. */
async function appWithSandbox(
  page: import("@playwright/test").Page,
  baseURL: string,
  label: string,
): Promise<{ owner: TestAccount; app: Awaited<ReturnType<typeof registerApp>> }> {
  const owner = await signedInNewAccount(page, baseURL, label);
  const app = await registerApp(baseURL, { name: "Sandbox client", redirectUris: [callbacks.redirectUri], scopes: SANDBOX_SCOPES }, owner);
  const portal = await signedInContext(baseURL, owner);
  await trpcMutation(portal, "sandbox.create", { applicationId: app.id, weeks: 1, sessionsPerWeek: 2 });
  await portal.dispose();
  return { owner, app };
}

test("sign in as the sandbox person and authorize the application as it (its /me says sandbox), then come back", async ({
  page,
  baseURL,
}) => {
  const { owner, app } = await appWithSandbox(page, baseURL!, "sandbox-as");
  await page.goto(`/developer/applications/${app.id}`);
  await page.getByRole("button", { name: "Sign in as sandbox person" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sandbox person" })).toContainText("“Sandbox client”: simulated data");
  await expect(page.getByRole("link", { name: "Sam Sandbox" })).toBeVisible();

  // The sandbox person may authorize the application; its token's /me says so.
  const { verifier, challenge } = pkcePair();
  await page.goto(
    authorizeUrl(baseURL!, {
      clientId: app.clientId,
      redirectUri: callbacks.redirectUri,
      scope: "openid profile sessions:read",
      prompt: "consent",
      codeChallenge: challenge,
    }),
  );
  await page.getByRole("button", { name: "Allow" }).click();
  const callback = await callbacks.next();
  const tokens = (await (
    await exchangeCode(baseURL!, app, callback.searchParams.get("code")!, verifier, { resource: apiResourceFor(baseURL!) })
  ).json()) as { access_token: string };
  const api = await playwrightRequest.newContext({ baseURL });
  const me = await api.get("/api/v1/me", { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(await me.json()).toEqual({ data: { sub: expect.any(String), name: "Sam Sandbox", sandbox: true } });
  await api.dispose();

  await page.goto("/");
  await page.getByRole("button", { name: "Back to my account" }).click();
  await expect(page.getByRole("heading", { name: "Sandbox client" })).toBeVisible();
  await expect(page.getByRole("link", { name: owner.name })).toBeVisible();
});

test("delete the sandbox's newest session, then reset the sandbox to its initial season", async ({ page, baseURL }) => {
  const { app } = await appWithSandbox(page, baseURL!, "sandbox-reset");
  await page.goto(`/developer/applications/${app.id}`);
  await expect(page.getByTestId("sandbox-counts")).toHaveText("2 sessions, 1 trainings, 2 templates, 2 devices");
  await page.getByRole("button", { name: "Delete the newest session" }).click();
  await expect(page.getByTestId("sandbox-counts")).toHaveText("1 sessions, 1 trainings, 2 templates, 2 devices");
  await page.getByRole("button", { name: "Reset sandbox" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Reset" }).click();
  await expect(page.getByText(/Reset to the initial season in/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("sandbox-counts")).toHaveText("2 sessions, 1 trainings, 2 templates, 2 devices");
});
