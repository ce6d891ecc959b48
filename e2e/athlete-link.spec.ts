import { expect, test } from "./fixtures";
import { createKeyPair, signedInContext, trpcMutation } from "./api-helpers";
import { bearer, dataApiToken } from "./data-api-helpers";
import { newAccount, signUpInBrowser } from "./helpers";
import { simulatedSvc } from "./svc-files";

// Each test makes its own account and world.
test.describe.configure({ mode: "parallel" });

/**
 * Linking an athlete record to the person's own account, through the
 * product (issue 14, defect 6; docs/access.md "Linking an athlete record to
 * an account"): the coach invites in Chromium and copies the link; the
 * athlete opens it, creates an account and accepts; then the Data API serves
 * the link: GET /athlete, subject_seat, and the person's own heart rate
 * with health:read. Unlinking ends all three.
 */
test("a coach invites an athlete, who signs up and accepts; the Data API then treats the sessions they paddled in as theirs", async ({
  page,
  browser,
  baseURL,
}) => {
  const coach = newAccount("coach");
  await signUpInBrowser(page, coach);
  const portal = await signedInContext(baseURL!, coach);
  const athleteId = (
    await trpcMutation<{ id: number }>(portal, "athletes.create", {
      name: "Lina",
      surname: "Linked",
      subscriptionActiveUntil: "2099-12-31",
    })
  ).id;
  const trackId = (await trpcMutation<{ id: number }>(portal, "tracks.create", { name: "Invitation basin" })).id;
  await portal.dispose();

  // The coach uploads a K1 session with Lina in the seat; the unit's heart rate is hers.
  const key = await createKeyPair(baseURL!, coach, "Coach laptop");
  const upload = await page.request.post("/api/v1/results", {
    multipart: {
      file: { name: "k1.svc", mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel: "K1", distanceM: 200, seed: 931 }) },
      metadata: JSON.stringify({ distance: 200, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] }),
    },
    headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const sessionId: number = (await upload.json()).data.id;
  await key.context.dispose();

  // The coach invites Lina and copies the link, shown once.
  const athlete = newAccount("lina");
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(`/athletes/${athleteId}`);
  const invite = page.getByRole("form", { name: "Invite the athlete" });
  await invite.getByLabel("Athlete's email").fill(athlete.email);
  await invite.getByRole("button", { name: "Create invitation link" }).click();
  const shown = page.getByRole("status", { name: "Invitation link" });
  await expect(shown).toContainText(`Send this link to ${athlete.email} yourself`);
  const link = (await page.getByTestId("invitation-link").textContent())!;
  expect(link).toMatch(new RegExp(`^${baseURL}/invitations/svcinv_[A-Za-z0-9_-]{43}$`));
  await shown.getByRole("button", { name: "Copy link" }).click();
  await expect(shown.getByText("Copied")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  // Shown once: after a reload only the pending invitation's address remains.
  await page.reload();
  await expect(page.getByText(`An invitation for ${athlete.email} is open until`)).toBeVisible();
  await expect(page.getByTestId("invitation-link")).toHaveCount(0);

  // Lina, in her own browser, opens the link, creates her account and accepts.
  const linaContext = await browser.newContext();
  const lina = await linaContext.newPage();
  await lina.goto(link);
  await expect(lina.getByRole("heading", { name: "Link your athlete profile" })).toBeVisible();
  await expect(lina.getByText(`${coach.name} invites you to link the athlete record Lina Linked to your account.`)).toBeVisible();
  await lina.getByRole("link", { name: "Create an account" }).click();
  await lina.waitForSelector("body[data-hydrated]", { state: "attached" });
  await lina.getByLabel("Name").fill(athlete.name);
  await lina.getByLabel("Email").fill(athlete.email);
  await lina.getByLabel("Password").fill(athlete.password);
  await lina.getByRole("button", { name: "Create account" }).click();
  // Back on the invitation, signed in.
  await expect(lina.getByText(`Signed in as ${athlete.email}.`)).toBeVisible();
  await lina.getByRole("button", { name: "Accept and link" }).click();
  await expect(lina.getByRole("heading", { name: "Athlete profile" })).toBeVisible();
  const profile = lina.getByRole("region", { name: "Your athlete profile" });
  await expect(profile).toContainText("Lina Linked");
  await expect(profile).toContainText(coach.name);
  // The link is spent.
  await lina.goto(link);
  await expect(lina.locator(".form-error[role=alert]")).toHaveText("This invitation has already been used.");

  // The coach sees the record linked.
  await page.reload();
  await expect(page.getByText("Lina Linked is linked to their own account")).toBeVisible();

  // Through the Data API, with Lina's own token (health ticked).
  const { token } = await dataApiToken(baseURL!, athlete);
  const headers = bearer(token);
  const me = await page.request.get("/api/v1/athlete", { headers });
  expect(me.status()).toBe(200);
  expect((await me.json()).data).toMatchObject({ id: athleteId, name: "Lina" });
  const session = await page.request.get(`/api/v1/sessions/${sessionId}`, { headers });
  expect(session.status()).toBe(200);
  const detail = (await session.json()).data;
  expect(detail.subject_seat).toBe(1);
  expect(detail.crew[0]).toMatchObject({ seat: 1, is_subject: true });
  expect(detail.health.avg_heart_rate_bpm).toBeGreaterThan(60);
  const summary = (await (await page.request.get(`/api/v1/sessions/${sessionId}/summary`, { headers })).json()).data;
  expect(summary.heart_rate.avg_bpm).toBeGreaterThan(60);
  expect(summary.data_quality.heart_rate_coverage).toBeGreaterThan(0.5);

  // Lina unlinks on her profile page: the record and the session are no longer hers.
  await lina.goto("/account/athlete");
  await lina.getByRole("button", { name: "Unlink from my account" }).click();
  await expect(lina.getByRole("form", { name: "Create your athlete profile" })).toBeVisible();
  expect((await page.request.get("/api/v1/athlete", { headers })).status()).toBe(404);
  expect((await page.request.get(`/api/v1/sessions/${sessionId}`, { headers })).status()).toBe(404);
  await linaContext.close();
});

test("a person creates their own athlete profile; GET /athlete returns it", async ({ page, baseURL }) => {
  const person = newAccount("self");
  await signUpInBrowser(page, person);
  await page.goto("/account/athlete");
  const form = page.getByRole("form", { name: "Create your athlete profile" });
  await form.getByLabel("Name", { exact: true }).fill("Sol");
  await form.getByLabel("Surname").fill("Self");
  await form.getByLabel("Modality").fill("Canoe");
  await form.getByRole("button", { name: "Create my athlete profile" }).click();
  const profile = page.getByRole("region", { name: "Your athlete profile" });
  await expect(profile).toContainText("Sol Self");
  await expect(profile).toContainText("you");
  const { token } = await dataApiToken(baseURL!, person, { scopes: ["openid", "athlete:read"] });
  const response = await page.request.get("/api/v1/athlete", { headers: bearer(token) });
  expect(response.status()).toBe(200);
  expect((await response.json()).data).toMatchObject({ name: "Sol", surname: "Self", modality: "Canoe" });
});

test("an invitation link that is not ours is a 404 page", async ({ page }) => {
  const response = await page.goto(`/invitations/svcinv_${"x".repeat(43)}`);
  expect(response?.status()).toBe(404);
});
