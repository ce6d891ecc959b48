import { expect, test } from "./fixtures";
import { checkDialogAtBothWidths } from "./a11y";
import { E2E_ACCOUNTS } from "./accounts";
import { signedInNewAccount, signInPageOverHttp } from "./api-helpers";
import { newAccount, signIn, signUp } from "./helpers";
import {
  apiResourceFor,
  authorizeAndExchange,
  authorizeUrl,
  exchangeCode,
  pkcePair,
  refresh,
  registerApp,
  startCallbackServer,
  userinfo,
  type CallbackServer,
  type TestApp,
} from "./oauth-helpers";

/**
 * The developer portal, the consent screen and connected apps, driven in
 * Chromium like a person would.
 */
let callbacks: CallbackServer;
test.beforeEach(async () => {
  callbacks = await startCallbackServer();
});
test.afterEach(async () => {
  await callbacks.close();
});

test("register an app in the portal, authorize it (health unticked, then ticked), see it under connected apps", async ({
  page,
  baseURL,
}) => {
  const owner = await signedInNewAccount(page, baseURL!, "portal");

  await page.goto("/developer/applications");
  await expect(page.getByText("No applications yet.")).toBeVisible();
  await page.getByRole("link", { name: "Register an application" }).click();
  await page.getByLabel("Application name").fill("Boathouse sync");
  await page.getByLabel("Redirect URIs", { exact: true }).fill(callbacks.redirectUri);
  for (const scope of ["offline_access", "sessions:read", "health:read"])
    await page.getByRole("checkbox", { name: new RegExp(`^${scope} `) }).check();
  await page.getByRole("button", { name: "Register application" }).click();
  await expect(page.getByText("Application “Boathouse sync” registered.")).toBeVisible();
  const clientId = (await page.getByTestId("client-id").textContent())!;
  const clientSecret = (await page.getByTestId("client-secret").textContent())!;
  expect(clientId).toMatch(/^svcapp_/);
  expect(clientSecret).toMatch(/^svcas_/);
  const app: TestApp = { id: 0, clientId, clientSecret, redirectUri: callbacks.redirectUri, owner };

  // The secret is shown once: the application page only shows its first characters.
  await page.getByRole("link", { name: "Go to the application" }).click();
  await expect(page.getByRole("heading", { name: "Boathouse sync" })).toBeVisible();
  await expect(page.getByText(`${clientSecret.slice(0, 12)}…`)).toBeVisible();
  expect(await page.content()).not.toContain(clientSecret);

  const authorize = async (health: boolean) => {
    const { verifier, challenge } = pkcePair();
    const url = authorizeUrl(baseURL!, {
      clientId,
      redirectUri: callbacks.redirectUri,
      scope: "openid profile offline_access sessions:read health:read",
      prompt: "consent",
      codeChallenge: challenge,
    });
    await page.goto(url);
    await expect(page.getByRole("heading", { name: "Allow Boathouse sync to access your account?" })).toBeVisible();
    await expect(page.getByText(`Registered by${owner.name}`)).toBeVisible();
    await expect(page.getByText("Data application: reads your data through the Data API")).toBeVisible();
    const box = page.getByRole("checkbox", { name: /health data/i });
    await expect(box).not.toBeChecked();
    if (health) await box.check();
    await page.getByRole("button", { name: "Allow" }).click();
    const callback = await callbacks.next();
    const response = await exchangeCode(baseURL!, app, callback.searchParams.get("code")!, verifier, {
      resource: apiResourceFor(baseURL!),
    });
    expect(response.status()).toBe(200);
    return response.json();
  };

  // Health left unticked: granted without it, and recorded as declined.
  const first = await authorize(false);
  expect(first.scope.split(" ").sort()).toEqual(["openid", "profile", "sessions:read"]);
  await page.goto("/connected-apps");
  const card = page.getByRole("region", { name: "Boathouse sync" });
  await expect(card.getByText("Read your sessions: splits, strokes, summaries and analyses")).toBeVisible();
  await expect(card.getByText(/You declined: read your health data/)).toBeVisible();

  // Asked again and ticked this time.
  const second = await authorize(true);
  expect(second.scope.split(" ").sort()).toEqual(["health:read", "openid", "profile", "sessions:read"]);
  await page.goto("/connected-apps");
  await expect(card.getByText(/Read your health data/)).toBeVisible();
  await expect(card.getByText(/You declined/)).toHaveCount(0);
});

// The rest of an application's life starts from one registered and authorized over HTTP (e2e/oauth-helpers.ts).
async function authorizedBoathouseSync(baseURL: string) {
  const app = await registerApp(baseURL, { name: "Boathouse sync", redirectUris: [callbacks.redirectUri] });
  const { tokens } = await authorizeAndExchange(baseURL, app, {
    scope: "openid profile offline_access sessions:read health:read",
    health: true,
    tokenResource: apiResourceFor(baseURL),
  });
  return { app, tokens };
}

test("revoke an app from connected apps: it asks first, then its tokens stop working at once", async ({ page, baseURL }) => {
  const { app, tokens } = await authorizedBoathouseSync(baseURL!);
  await signInPageOverHttp(page, baseURL!, app.owner);
  await page.goto("/connected-apps");
  const card = page.getByRole("region", { name: "Boathouse sync" });
  await expect(card.getByText(/Read your health data/)).toBeVisible();

  // Narrowed to the OIDC scopes, a refresh gives a userinfo token (without, a Data API one: docs/oauth.md).
  const userinfoToken = await (await refresh(baseURL!, app, tokens.refresh_token!, { scope: "openid profile" })).json();
  expect((await userinfo(baseURL!, userinfoToken.access_token)).status()).toBe(200);
  // The revoke asks first; Cancel leaves the access (and its tokens) as they were.
  await card.getByRole("button", { name: "Revoke access for Boathouse sync" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke Boathouse sync's access?" });
  await expect(confirm).toContainText("Boathouse sync loses access to your data; its tokens stop working now.");
  await checkDialogAtBothWidths(page);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(card).toBeVisible();
  expect((await userinfo(baseURL!, userinfoToken.access_token)).status()).toBe(200);
  await card.getByRole("button", { name: "Revoke access for Boathouse sync" }).click();
  await confirm.getByRole("button", { name: "Revoke access" }).click();
  await expect(page.getByText("No application holds access to your account.")).toBeVisible();
  expect((await userinfo(baseURL!, userinfoToken.access_token)).status()).toBe(401);
  expect((await refresh(baseURL!, app, userinfoToken.refresh_token)).status()).toBe(400);
});

test("rotating the secret and deleting the application ask first; Cancel changes nothing", async ({ page, baseURL }) => {
  const { app } = await authorizedBoathouseSync(baseURL!);
  await signInPageOverHttp(page, baseURL!, app.owner);
  await page.goto("/developer/applications");
  await page.getByRole("link", { name: "Boathouse sync" }).click();
  await page.getByRole("button", { name: "Rotate client secret" }).click();
  const rotate = page.getByRole("dialog", { name: "Replace the client secret?" });
  await expect(rotate).toContainText("The current secret stops working now");
  await rotate.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("client-secret")).toHaveCount(0);
  await page.getByRole("button", { name: "Rotate client secret" }).click();
  await rotate.getByRole("button", { name: "Replace secret" }).click();
  await expect(page.getByTestId("client-secret")).toHaveText(/^svcas_/);
  expect(await page.getByTestId("client-secret").textContent()).not.toBe(app.clientSecret);
  await page.getByRole("button", { name: "Delete application" }).click();
  const remove = page.getByRole("dialog", { name: "Delete “Boathouse sync”?" });
  await expect(remove).toContainText("Every authorization and token it holds is revoked now");
  await checkDialogAtBothWidths(page);
  await remove.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { name: "Boathouse sync" })).toBeVisible();
  await page.getByRole("button", { name: "Delete application" }).click();
  await remove.getByRole("button", { name: "Delete application" }).click();
  await expect(page).toHaveURL(/\/developer\/applications$/);
  await expect(page.getByText("No applications yet.")).toBeVisible();
});

test("registration refuses unsafe redirect URIs and origins with field messages", async ({ page }) => {
  await signUp(page, newAccount("portal"));
  await page.goto("/developer/applications/new");
  await page.getByLabel("Application name").fill("Sloppy app");
  await page.getByLabel("Redirect URIs", { exact: true }).fill("http://app.example/callback\nhttps://*.example.com/cb");
  await page.getByLabel("Embed origins", { exact: true }).fill("https://club.example/replays");
  await page.getByRole("button", { name: "Register application" }).click();
  await expect(page.getByText(/must use https \(http only on localhost/)).toBeVisible();
  await expect(page.getByText(/must not contain wildcards/)).toBeVisible();
  await expect(page.getByText(/must be an origin only/)).toBeVisible();
  await page.goto("/developer/applications");
  await expect(page.getByText("No applications yet.")).toBeVisible();
});

test("a partner application waits for the operator, who approves it and its embed origin", async ({ page, browser, baseURL }) => {
  const owner = newAccount("partner");
  await signUp(page, owner);
  await page.goto("/developer/applications/new");
  await page.getByLabel("Application name").fill("Regatta live");
  await page.getByRole("radio", { name: /^Partner/ }).check();
  await page.getByLabel("Redirect URIs", { exact: true }).fill(callbacks.redirectUri);
  await page.getByLabel("Embed origins", { exact: true }).fill("https://regatta.example");
  await page.getByRole("button", { name: "Register application" }).click();
  await expect(page.getByText("An operator reviews partner applications before they can be used.")).toBeVisible();
  const clientId = (await page.getByTestId("client-id").textContent())!;

  // Before review the application cannot be authorized at all.
  const url = authorizeUrl(baseURL!, { clientId, redirectUri: callbacks.redirectUri, scope: "openid profile" });
  // (A plain navigation: the provider's error page is not a React page, so there is no hydration to wait for.)
  await page.evaluate((target) => window.location.assign(target), url);
  await expect(page.getByRole("heading", { name: "Authorization failed" })).toBeVisible();
  await expect(page.getByText("invalid_client")).toBeVisible();

  const operatorContext = await browser.newContext();
  const operator = await operatorContext.newPage();
  await signIn(operator, E2E_ACCOUNTS.operator);
  await expect(operator.getByRole("heading", { name: "Operator", exact: true })).toBeVisible();
  await operator.goto("/operator/applications");
  const row = operator.getByRole("row", { name: /Regatta live/ });
  await expect(row).toContainText("awaiting review");
  await row.getByRole("link", { name: "Regatta live" }).click();
  await operator.getByRole("button", { name: "Approve https://regatta.example" }).click();
  await expect(operator.getByRole("row", { name: /https:\/\/regatta.example/ })).toContainText("approved");
  await operator.getByRole("button", { name: "Approve application" }).click();
  // The application's own badge (the origin's row says "approved" already): the review is saved before the owner tries again.
  await expect(operator.locator(".page-header").getByText("approved", { exact: true })).toBeVisible();
  await operatorContext.close();

  await page.goto(url);
  await expect(page.getByRole("heading", { name: "Allow Regatta live to access your account?" })).toBeVisible();
  await expect(page.getByText("Partner application: reviewed by Paddle Results operators")).toBeVisible();
  await page.getByRole("button", { name: "Deny" }).click();
  expect((await callbacks.next()).searchParams.get("error")).toBe("access_denied");
});

test("operator pages are not found for other users", async ({ page }) => {
  await signUp(page, newAccount("curious"));
  const response = await page.goto("/operator/applications");
  expect(response?.status()).toBe(404);
});
