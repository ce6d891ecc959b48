import { request as playwrightRequest, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { PHONE, checkDialogAtBothWidths, checkPageAtBothWidths } from "./a11y";
import { E2E_ACCOUNTS } from "./accounts";
import { createKeyPair, signedInContext, signUpOverHttp, trpcMutation } from "./api-helpers";
import { newAccount, signIn, signInOverHttp, signUpInBrowser, type TestAccount } from "./helpers";
import { authorizeUrl, registerApp } from "./oauth-helpers";
import { simulatedSvc } from "./svc-files";

/**
 * Housekeeping and safety (issue 11; docs/web-app.md "Deleting", "Operator",
 * "Health entered by a coach"), in Chromium at desktop and phone width with
 * axe-core: every destructive action asks in a dialog that says what happens
 * to linked sessions, or why it cannot be done.
 */

/** A coach with an athlete, a track and one uploaded K1 session with the athlete in the seat. */
async function coachWorld(page: Page, baseURL: string, coach: TestAccount) {
  await signUpInBrowser(page, coach);
  const portal = await signedInContext(baseURL, coach);
  const athleteId = (
    await trpcMutation<{ id: number }>(portal, "athletes.create", { name: "Rosa", surname: "Díaz", subscriptionActiveUntil: "2099-12-31" })
  ).id;
  const trackId = (await trpcMutation<{ id: number }>(portal, "tracks.create", { name: `Housekeeping basin ${coach.email.slice(6, 14)}` }))
    .id;
  const key = await createKeyPair(baseURL, coach, "Housekeeping laptop");
  const upload = await page.request.post("/api/v1/results", {
    multipart: {
      file: {
        name: "k1.svc",
        mimeType: "application/octet-stream",
        buffer: simulatedSvc({ vessel: "K1", distanceM: 200, seed: 4711 + Math.floor(Math.random() * 1000) }),
      },
      metadata: JSON.stringify({ distance: 200, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] }),
    },
    headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const sessionId: number = (await upload.json()).data.id;
  await key.context.dispose();
  return { portal, athleteId, trackId, sessionId, keyPairId: key.id };
}

const dialog = (page: Page) => page.getByRole("dialog");

// Every test makes its own coach and world.
test.describe.configure({ mode: "parallel" });

test("deletes ask first: a track a session uses says why it stays", async ({ page, baseURL }) => {
  const coach = newAccount("tidy");
  const { portal, trackId } = await coachWorld(page, baseURL!, coach);

  // A track a session uses: the dialog explains and offers no delete.
  await page.goto(`/tracks/${trackId}`);
  await page.getByRole("button", { name: /^Delete track / }).click();
  await expect(dialog(page)).toContainText(
    "is the track of 1 session. A session always has a track: change theirs first (session page, Actions, “Correct this session”), then delete this one.",
  );
  await expect(dialog(page).getByRole("button", { name: "Delete track" })).toHaveCount(0);
  await checkDialogAtBothWidths(page);
  await dialog(page).getByRole("button", { name: "Close" }).click();
  await expect(dialog(page)).toBeHidden();
  await portal.dispose();
});

test("deletes ask first: a team's only coach stays, the team goes", async ({ page, baseURL }) => {
  const coach = newAccount("tidyteam");
  const { portal, athleteId } = await coachWorld(page, baseURL!, coach);

  // The team's only coach cannot be removed; the team itself can be deleted.
  const teamId = (await trpcMutation<{ id: number }>(portal, "teams.create", { name: "Tidy squad" })).id;
  await trpcMutation(portal, "teams.addAthlete", { teamId, athleteId });
  await page.goto(`/teams/${teamId}`);
  await page.getByRole("button", { name: `Remove ${coach.name}` }).click();
  await expect(dialog(page)).toContainText(
    `${coach.name} is the team's only coach. A team always keeps at least one coach: add another coach first.`,
  );
  await checkDialogAtBothWidths(page);
  await dialog(page).getByRole("button", { name: "Close" }).click();
  // Removing the athlete asks, Cancel keeps them.
  await page.getByRole("button", { name: "Remove Rosa Díaz" }).click();
  await expect(dialog(page)).toContainText(
    "The team's coaches no longer see Rosa Díaz's sessions through this team. No session is deleted.",
  );
  await dialog(page).getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("cell", { name: "Rosa Díaz", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Delete team Tidy squad" }).click();
  await expect(dialog(page)).toContainText(
    "1 coach and 1 athlete leave the team; no account or athlete record is deleted. 1 session of the team's athletes keeps its data; coaches who see it only through this team no longer do.",
  );
  await dialog(page).getByRole("button", { name: "Delete team" }).click();
  await expect(page).toHaveURL(/\/teams$/);
  await expect(page.getByRole("link", { name: "Tidy squad" })).toHaveCount(0);
  await portal.dispose();
});

test("deletes ask first: the athlete goes, the session keeps the name", async ({ page, baseURL }) => {
  const coach = newAccount("tidyathlete");
  const { portal, athleteId, sessionId } = await coachWorld(page, baseURL!, coach);

  // The athlete: the session stays, the seat keeps the name.
  await page.goto(`/athletes/${athleteId}`);
  await page.getByRole("button", { name: "Delete athlete Rosa Díaz" }).click();
  await expect(dialog(page)).toContainText(
    "1 session keeps its data; Rosa Díaz's seat in it keeps the name as an external paddler, no longer linked to this record",
  );
  await checkDialogAtBothWidths(page);
  await dialog(page).getByRole("button", { name: "Delete athlete" }).click();
  await expect(page).toHaveURL(/\/athletes$/);
  expect((await page.goto(`/athletes/${athleteId}`))!.status()).toBe(404);
  await page.goto(`/sessions/${sessionId}`);
  await expect(page.getByRole("main")).toContainText("Rosa Díaz");
  await portal.dispose();
});

test("deletes ask first: a unit holding a file says why it stays, then goes after Delete files", async ({ page, baseURL }) => {
  const coach = newAccount("tidyunit");
  const { portal, sessionId } = await coachWorld(page, baseURL!, coach);

  // The unit: refused while it holds the file; after "Delete files" it goes, and the session stays.
  await page.goto("/devices");
  await page.getByRole("button", { name: /^Delete unit / }).click();
  await expect(dialog(page)).toContainText("still holds 1 stored original file. Delete its files first (“Delete files”), then the unit.");
  await dialog(page).getByRole("button", { name: "Close" }).click();
  // "Delete files" asks, saying what goes and what stays; Cancel deletes nothing.
  await page.getByRole("button", { name: "Delete files" }).click();
  await expect(dialog(page)).toContainText(
    "The unit's 1 stored original file is deleted for good; the sessions keep their processed data and results.",
  );
  await checkDialogAtBothWidths(page);
  await dialog(page).getByRole("button", { name: "Cancel" }).click();
  await expect(dialog(page)).toBeHidden();
  await page.reload();
  await page.getByRole("button", { name: /^Delete unit / }).click();
  await expect(dialog(page)).toContainText("still holds 1 stored original file.");
  await dialog(page).getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "Delete files" }).click();
  await dialog(page).getByRole("button", { name: "Delete files" }).click();
  await expect(page.getByText("Deleted 1 file.")).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await page.getByRole("button", { name: /^Delete unit / }).click();
  await expect(dialog(page)).toContainText("1 session recorded with it keeps its data and no longer names a unit.");
  await dialog(page).getByRole("button", { name: "Delete unit" }).click();
  await expect(page.getByText("No devices yet")).toBeVisible();
  expect((await page.goto(`/sessions/${sessionId}`))!.status()).toBe(200);
  await portal.dispose();
});

test("deletes ask first: the key pair that uploaded a session goes, the session stays", async ({ page, baseURL }) => {
  const coach = newAccount("tidykey");
  const { portal } = await coachWorld(page, baseURL!, coach);

  // The key pair that uploaded it.
  await page.goto("/developer/keys");
  await page.getByRole("button", { name: "Delete key pair Housekeeping laptop" }).click();
  await expect(dialog(page)).toContainText("Requests with it fail from now on. 1 session uploaded with it keeps its data.");
  await checkDialogAtBothWidths(page);
  await dialog(page).getByRole("button", { name: "Delete key pair" }).click();
  await expect(page.getByRole("cell", { name: "Housekeeping laptop" })).toHaveCount(0);
  await portal.dispose();
});

test("deletes ask first: equipment asks", async ({ page, baseURL }) => {
  const coach = newAccount("tidygear");
  await signUpInBrowser(page, coach);
  const portal = await signedInContext(baseURL!, coach);

  // Equipment asks too.
  await trpcMutation(portal, "equipment.createPaddle", { name: "Spare wing", kind: "kayak" });
  await page.goto("/equipment");
  await page.getByRole("button", { name: "Delete Spare wing" }).click();
  await expect(dialog(page)).toContainText("Sessions recorded with it keep their data; they no longer name this paddle.");
  await dialog(page).getByRole("button", { name: "Delete paddle" }).click();
  await expect(page.getByRole("button", { name: "Delete Spare wing" })).toHaveCount(0);
  await portal.dispose();
});

test("a coach records weight and lactate for a linked athlete; the athlete sees them as entered by the coach", async ({
  page,
  browser,
  baseURL,
}) => {
  const coach = newAccount("labcoach");
  const { portal, athleteId, sessionId } = await coachWorld(page, baseURL!, coach);
  // The athlete links the record to their own account (the invitation flow, over HTTP).
  const rosa = await signUpOverHttp(baseURL!, "rosa");
  const invitation = await trpcMutation<{ link: string }>(portal, "athleteLinks.invite", { athleteId, email: rosa.email });
  const rosaApi = await signedInContext(baseURL!, rosa);
  await trpcMutation(rosaApi, "athleteLinks.accept", { token: invitation.link.split("/").pop() });
  await rosaApi.dispose();

  await page.setViewportSize(PHONE);
  await page.goto(`/athletes/${athleteId}`);
  const health = page.getByRole("region", { name: "Health", exact: true });
  await health.getByLabel("Weight (kg)").fill("58.5");
  await health.getByRole("button", { name: "Add weight" }).click();
  await expect(health.getByRole("table", { name: "Weights you entered for Rosa Díaz" })).toContainText("58.5 kg");
  await health.getByLabel("Session").selectOption(String(sessionId));
  await health.getByLabel("Lactate (mmol/L)").fill("6.2");
  await health.getByLabel("Note").fill("3 min after");
  await health.getByRole("button", { name: "Add reading" }).click();
  await expect(health.getByRole("table", { name: "Lactate readings you entered for Rosa Díaz" })).toContainText("6.2 mmol/L");
  // A value out of range is a field error, tied to its field.
  await health.getByLabel("Weight (kg)").fill("900");
  await health.getByRole("button", { name: "Add weight" }).click();
  await expect(health.getByLabel("Weight (kg)")).toHaveAttribute("aria-invalid", "true");
  await checkPageAtBothWidths(page, `/athletes/${athleteId}`);

  // Rosa, in her own browser, sees both on her health page, entered by her coach.
  const rosaContext = await browser.newContext();
  const rosaPage = await rosaContext.newPage();
  await signInOverHttp(rosaPage, rosa);
  await rosaPage.goto("/health");
  await expect(rosaPage.getByRole("row", { name: /58\.5 kg/ })).toContainText(`entered by ${coach.name} (coach)`);
  await expect(rosaPage.getByRole("row", { name: /6\.2 mmol\/L/ })).toContainText(`entered by ${coach.name} (coach)`);
  // Deleting a health row asks first.
  await rosaPage.getByRole("button", { name: /^Delete weight of / }).click();
  await expect(rosaPage.getByRole("dialog")).toContainText("The entry is removed for good");
  await rosaPage.getByRole("dialog").getByRole("button", { name: "Delete entry" }).click();
  await expect(rosaPage.getByRole("row", { name: /58\.5 kg/ })).toHaveCount(0);
  await rosaContext.close();
  await portal.dispose();
});

test("the operator unlocks a throttled account, changes its role and disables it; each decision hides its button", async ({
  page,
  browser,
  baseURL,
}) => {
  // The person is signed in in their own browser.
  const person = newAccount("locked");
  const personContext = await browser.newContext();
  const personPage = await personContext.newPage();
  await signUpInBrowser(personPage, person);
  // Five wrong passwords lock the account's sign-in.
  const guesser = await playwrightRequest.newContext({ baseURL });
  const { csrfToken } = await (await guesser.get("/api/auth/csrf")).json();
  for (let i = 0; i < 5; i++) {
    await guesser.post("/api/auth/callback/credentials", {
      form: { csrfToken, email: person.email, password: `wrong-${i}-password`, json: "true" },
      maxRedirects: 0,
    });
  }
  await guesser.dispose();

  await signInOverHttp(page, E2E_ACCOUNTS.operator);
  // The operator finds the person by email: the overview lists only the newest accounts.
  await page.goto("/operator");
  await page.getByLabel("Email or name").fill(person.email);
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("accounts-shown")).toHaveText(`1 account matching “${person.email}”.`);
  const row = page.getByTestId(`account-${person.email}`);
  await expect(row).toContainText("sign-in locked until");
  const found = `/operator?q=${encodeURIComponent(person.email)}`;
  await checkPageAtBothWidths(page, found);

  await row.getByRole("button", { name: `Unlock ${person.email}` }).click();
  await expect(row.getByRole("button", { name: `Unlock ${person.email}` })).toHaveCount(0);
  await expect(row).not.toContainText("sign-in locked");

  await row.getByLabel(`Role of ${person.email}`).selectOption("viewer");
  await row.getByRole("button", { name: `Change role of ${person.email}` }).click();
  await expect(dialog(page)).toContainText("From coach to viewer.");
  await dialog(page).getByRole("button", { name: "Change role" }).click();
  await expect(row.getByRole("cell", { name: "viewer", exact: true })).toBeVisible();
  await expect(row.getByRole("button", { name: `Change role of ${person.email}` })).toHaveCount(0);

  await row.getByRole("button", { name: `Disable ${person.email}` }).click();
  await expect(dialog(page)).toContainText("The account can no longer sign in; it is signed out everywhere");
  await checkDialogAtBothWidths(page);
  await dialog(page).getByRole("button", { name: "Disable account" }).click();
  await expect(row.getByRole("button", { name: `Enable ${person.email}` })).toBeVisible();
  await expect(row.getByRole("button", { name: `Disable ${person.email}` })).toHaveCount(0);
  await expect(row).toContainText("disabled");
  // The decisions, with who made them.
  const log = page.getByRole("region", { name: "Recent decisions" });
  for (const decision of ["unlocked sign-in", "changed role from coach to viewer", "disabled"]) {
    await expect(log.getByRole("row").filter({ hasText: person.email }).filter({ hasText: decision })).toContainText(
      E2E_ACCOUNTS.operator.name,
    );
  }

  await personContext.close();
});

test("a disabled account: its open session has ended, and the sign-in form and the OAuth sign-in refuse it with the reason", async ({
  page,
  browser,
  baseURL,
}) => {
  // The person is signed in in their own browser; the operator disables the account (the decision above, over its procedure).
  const person = newAccount("disabled");
  const personContext = await browser.newContext();
  const personPage = await personContext.newPage();
  const { id: userId } = await signUpInBrowser(personPage, person);
  await signInOverHttp(page, E2E_ACCOUNTS.operator);
  await trpcMutation(page.request, "operator.disableAccount", { userId });

  // The person's open session has ended, and sign-in is refused with the reason.
  await personPage.goto("/");
  await expect(personPage).toHaveURL(/\/signin/);
  await signIn(personPage, person);
  await expect(personPage.getByText("This account is disabled. Ask the service operator.")).toBeVisible();
  // The OAuth sign-in says the same, and only after the right password.
  const app = await registerApp(baseURL!);
  await personPage.goto(authorizeUrl(baseURL!, { clientId: app.clientId, redirectUri: app.redirectUri }));
  await expect(personPage).toHaveURL(/\/oauth\/interaction\/[^/]+\/signin/);
  await personPage.getByLabel("Email").fill(person.email);
  await personPage.getByLabel("Password").fill("not-the-password-at-all");
  await personPage.getByRole("button", { name: "Sign in" }).click();
  await expect(personPage.locator("form .form-error")).toHaveText("Email or password is incorrect.");
  await personPage.getByLabel("Email").fill(person.email);
  await personPage.getByLabel("Password").fill(person.password);
  await personPage.getByRole("button", { name: "Sign in" }).click();
  await expect(personPage.locator("form .form-error")).toHaveText("This account is disabled. Ask the service operator.");
  await expect(personPage).toHaveURL(/\/signin\?error=disabled$/);
  await personContext.close();
});

test("over the app's API: not yours is a 404, a refused delete a 409 with its reason, health without an account a 422", async ({
  page,
  baseURL,
}) => {
  const coach = newAccount("owner");
  const { portal, athleteId, trackId } = await coachWorld(page, baseURL!, coach);
  const stranger = await signUpOverHttp(baseURL!, "stranger");
  const other = await signedInContext(baseURL!, stranger);
  const call = async (context: typeof portal, procedure: string, input: unknown) => {
    const response = await context.post(`/api/trpc/${procedure}`, { data: input });
    const body = await response.json();
    return { status: response.status(), message: body.error?.message as string | undefined };
  };
  for (const [procedure, input] of [
    ["athletes.delete", { id: athleteId }],
    ["tracks.delete", { id: trackId }],
    ["health.addWeightForAthlete", { athleteId, measuredOn: "2026-03-01", weightKg: "60" }],
  ] as const) {
    expect(await call(other, procedure, input), procedure).toEqual({ status: 404, message: expect.stringMatching(/not found$/) });
  }
  expect(await call(portal, "tracks.delete", { id: trackId })).toEqual({
    status: 409,
    message: expect.stringContaining("is the track of 1 session."),
  });
  expect(await call(portal, "health.addWeightForAthlete", { athleteId, measuredOn: "2026-03-01", weightKg: "60" })).toEqual({
    status: 422,
    message: "Rosa has no account yet. Health data belongs to the athlete's own account: invite them to link one first.",
  });
  // Not an operator: the operator's procedures do not exist.
  expect(await call(portal, "operator.disableAccount", { userId: 1 })).toEqual({ status: 404, message: "Not found." });
  await other.dispose();
  await portal.dispose();
});
