import { expect, test } from "./fixtures";
import { signUpOverHttp } from "./api-helpers";
import { bearer, dataApiToken, loadDataApi } from "./data-api-helpers";
import { signIn, signInOverHttp, waitForDistanceSuggestion } from "./helpers";
import { apiResourceFor, authorizeAndExchange, registerApp } from "./oauth-helpers";
import { simulatedSvc } from "./svc-files";

/**
 * What a person enters in the web application is what the Data API returns,
 * and health data only under a consented health:read.
 */
test("a weight entered in the web app is readable through the API with health:read, and refused without it", async ({
  page,
  request,
  baseURL,
}) => {
  const api = await loadDataApi(request);
  const person = await signUpOverHttp(baseURL!, "weigher");
  await signIn(page, person);
  // The sign-in must land before the next navigation, or that navigation cancels it.
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
  await page.goto("/health");
  await page.getByLabel("Date").fill("2026-11-01");
  await page.getByLabel("Weight (kg)").fill("71.3");
  await page.getByRole("button", { name: "Add weight" }).click();
  await expect(page.getByRole("cell", { name: "71.3 kg" })).toBeVisible();

  const withHealth = await dataApiToken(baseURL!, person, { scopes: ["openid", "health:read"] });
  const response = await request.get("/api/v1/health/weights", { headers: bearer(withHealth.token) });
  const body = await api.check("get", "/health/weights", response);
  expect(response.status()).toBe(200);
  expect(body.data).toEqual([expect.objectContaining({ measured_on: "2026-11-01", weight_kg: 71.3 })]);

  // The application asks for health:read, the person leaves the box unticked: the token has no health access.
  const app = await registerApp(baseURL!, { scopes: ["openid", "sessions:read", "health:read"] }, person);
  const declined = await authorizeAndExchange(baseURL!, app, {
    scope: "openid sessions:read health:read",
    health: false,
    tokenResource: apiResourceFor(baseURL!),
  });
  await declined.browser.dispose();
  const refused = await request.get("/api/v1/health/weights", { headers: bearer(declined.tokens.access_token) });
  const error = await api.check("get", "/health/weights", refused);
  expect(refused.status()).toBe(403);
  expect(error).toMatchObject({ error: "insufficient_scope", scope: "health:read" });
});

test("a boat and a paddle added in the web app are the person's equipment in the API", async ({ page, request, baseURL }) => {
  const api = await loadDataApi(request);
  const person = await signUpOverHttp(baseURL!, "equipped");
  await signIn(page, person);
  // The sign-in must land before the next navigation, or that navigation cancels it.
  await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
  await page.goto("/equipment");
  await page.getByLabel("Boat name").fill("Green K2");
  await page.getByLabel("Type").selectOption({ label: "K2" });
  await page.getByRole("button", { name: "Add boat" }).click();
  await expect(page.getByRole("cell", { name: "Green K2", exact: true })).toBeVisible();
  await page.getByLabel("Paddle name").fill("Spare wing");
  await page.getByRole("button", { name: "Add paddle" }).click();
  await expect(page.getByRole("cell", { name: "Spare wing", exact: true })).toBeVisible();

  const { token } = await dataApiToken(baseURL!, person, { scopes: ["openid", "equipment:read"] });
  const vessels = await api.check("get", "/equipment/{kind}", await request.get("/api/v1/equipment/vessels", { headers: bearer(token) }));
  expect(vessels.data).toEqual([expect.objectContaining({ name: "Green K2" })]);
  const paddles = await api.check("get", "/equipment/{kind}", await request.get("/api/v1/equipment/paddles", { headers: bearer(token) }));
  expect(paddles.data).toEqual([expect.objectContaining({ name: "Spare wing" })]);
});

test("a session uploaded in the web app brings its unit, file, record and a lactate reading to the API", async ({
  page,
  request,
  baseURL,
}) => {
  const api = await loadDataApi(request);
  const person = await signUpOverHttp(baseURL!, "uploader");
  await signInOverHttp(page, person);
  await page.goto("/tracks/new");
  await page.getByLabel("Name").fill("Web-to-API basin");
  await page.getByRole("button", { name: "Create track" }).click();
  await page.waitForURL("**/tracks");
  await page.goto("/athletes/new");
  await page.getByLabel("Name", { exact: true }).fill("Solo");
  await page.getByLabel("Subscription active until").fill("2099-12-31");
  await page.getByRole("button", { name: "Create athlete" }).click();
  await page.waitForURL("**/athletes");
  await page.goto("/upload");
  await page.getByLabel("Session file (.svc)").setInputFiles({
    name: "k1-web.svc",
    mimeType: "application/octet-stream",
    buffer: simulatedSvc({ vessel: "K1", distanceM: 200, seed: 4242 }),
  });
  await waitForDistanceSuggestion(page);
  await page.getByLabel("Distance (m)").fill("200");
  await page.getByLabel("Boat").selectOption({ label: "K1" });
  await page.getByLabel("Seat 1", { exact: true }).selectOption({ label: "Solo" });
  await page.getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/sessions\/\d+$/);
  const sessionId = Number(page.url().split("/").at(-1));

  await page.goto("/devices");
  await expect(page.getByRole("cell", { name: "k1-web.svc" })).toBeVisible();
  await page.goto("/records");
  await expect(page.getByRole("cell", { name: "200 m", exact: true })).toBeVisible();
  await page.goto("/health");
  await page.getByLabel("Lactate (mmol/L)").fill("5.6");
  await page.getByLabel("Note").fill("after 3 min");
  await page.getByRole("button", { name: "Add reading" }).click();
  await expect(page.getByRole("cell", { name: "after 3 min" })).toBeVisible();

  const { token } = await dataApiToken(baseURL!, person, {
    scopes: ["openid", "sessions:read", "records:read", "health:read", "devices:read", "devices:files"],
  });
  const get = async (template: string, path: string) => {
    const response = await request.get(`/api/v1${path}`, { headers: bearer(token) });
    const body = await api.check("get", template, response);
    expect(response.status(), path).toBe(200);
    return body.data;
  };
  const devices = await get("/devices", "/devices");
  expect(devices).toEqual([expect.objectContaining({ file_count: 1, model: expect.any(String) })]);
  const files = await get("/devices/{device_id}/files", `/devices/${devices[0].id}/files`);
  expect(files).toEqual([expect.objectContaining({ filename: "k1-web.svc", session_id: sessionId })]);
  expect(await get("/records", "/records")).toEqual([
    expect.objectContaining({ session_id: sessionId, distance_m: 200, current: true, boat_class: expect.objectContaining({ type: "K1" }) }),
  ]);
  expect(await get("/health/lactate", `/health/lactate?session_id=${sessionId}`)).toEqual([
    expect.objectContaining({ session_id: sessionId, lactate_mmol_l: 5.6, note: "after 3 min" }),
  ]);
});
