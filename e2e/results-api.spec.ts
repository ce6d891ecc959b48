import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import jsQR from "jsqr";
import { checkDialogAtBothWidths } from "./a11y";
import { createKeyPair, signUpOverHttp, trpcMutation, type ApiKey } from "./api-helpers";
import { anna, bearer, dataApiToken } from "./data-api-helpers";
import { OpenApiValidator } from "./openapi-validator";
import { simulatedSvc } from "./svc-files";
import { renderPage } from "../test/support/pdf-tools";

/**
 * The results API through the real server, once: an upload over HTTP (a
 * multipart body through Next.js and the proxy's HTTPS rule), the result read
 * back, its PDF's QR code opened in the browser; the replay launch page's
 * hostile tokens (a page, not a route handler); and the portal's key pairs.
 * Every operation and error in process: test/api/results-*.test.ts,
 * api-kernel.test.ts and the two fuzz files.
 */
test.describe("results API end to end: upload, read, report, share page", () => {
  test.describe.configure({ mode: "serial" });
  let api: OpenApiValidator;
  let coach: ApiKey & { context: APIRequestContext };
  let resultId: number;

  test.beforeAll(async ({ request, baseURL }) => {
    api = await OpenApiValidator.load(request, "/api/docs/results-api.json");
    coach = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "endtoend"));
  });
  test.afterAll(async () => coach.context.dispose());

  test("an upload over HTTP answers 201 and reads back with its crew and strokes", async ({ request }) => {
    const trackId = (await trpcMutation<{ id: number }>(coach.context, "tracks.create", { name: "Report basin" })).id;
    const athlete = (
      await trpcMutation<{ id: number }>(coach.context, "athletes.create", {
        name: "Rosa",
        surname: "Privada",
        subscriptionActiveUntil: "2099-12-31",
      })
    ).id;
    const response = await request.post("/api/v1/results", {
      headers: { authorization: coach.authorization, "x-forwarded-proto": "https" },
      multipart: {
        file: { name: "race.svc", mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel: "K1", distanceM: 500, seed: 777 }) },
        metadata: JSON.stringify({ distance: 500, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athlete] }),
      },
    });
    const created = await api.check("post", "/results", response);
    expect(response.status(), JSON.stringify(created)).toBe(201);
    expect(response.headers()["x-request-id"]).toMatch(/^req_[0-9A-Za-z]{22}$/);
    resultId = created.data.id;

    const detail = await api.check(
      "get",
      "/results/{id}",
      await request.get(`/api/v1/results/${resultId}`, { headers: { authorization: coach.authorization } }),
    );
    expect(detail.data).toMatchObject({
      id: resultId,
      dist: 500,
      track: { id: trackId, name: "Report basin" },
      athletes: [{ id: athlete, full_name: "Rosa Privada" }],
    });
    expect(detail.data.data_strokes.stroke_count).toBeGreaterThan(150);
    const list = await api.check(
      "get",
      "/results",
      await request.get("/api/v1/results", { headers: { authorization: coach.authorization } }),
    );
    expect(list.data.map((r: { id: number }) => r.id)).toEqual([resultId]);
  });

  test("the PDF's QR code opens a read-only share page without private data", async ({ request, page }) => {
    const response = await request.get(`/api/v1/results/${resultId}/pdf`, { headers: { authorization: coach.authorization } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/pdf");
    const png = renderPage(new Uint8Array(await response.body()), 1, 150);
    const qr = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(qr?.data).toMatch(/\/share\/[A-Za-z0-9_-]{20,}$/);

    const shared = await page.goto(qr!.data);
    expect(shared?.status()).toBe(200);
    expect(shared?.headers()["referrer-policy"]).toBe("no-referrer");
    await expect(page.getByText("shared session (read-only)")).toBeVisible();
    await expect(page.getByRole("heading", { name: /K1 · 500 m/ })).toBeVisible();
    await expect(page.getByRole("cell", { name: "500 m" })).toBeVisible();
    const html = await page.content();
    expect(html).not.toContain("Rosa");
    expect(html).not.toContain("Privada");
    expect(html).not.toContain("SIM000");
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  });
});

test("the replay launch page answers hostile tokens with its documented 404 page or 400, never a 5xx", async ({ request, baseURL }) => {
  // A page, not a route handler: the in-process fuzz (test/api/data-api-fuzz.test.ts) cannot reach it.
  const data = await OpenApiValidator.load(request, "/api/docs/data-api.json");
  const token = (await dataApiToken(baseURL!, anna)).token;
  for (const value of [
    "%00",
    "a%00b",
    "%ED%A0%80",
    "%F0%9F",
    "%FF%FE",
    "2147483648",
    "9999999999",
    "-1",
    "NaN",
    "2020-02-30",
    "x".repeat(6000),
    "%5B%5D",
    "%25%5F%5C",
    "1?%00=1",
  ]) {
    const response = await request.get(`/api/v1/svcsim/launch/${value}`, { headers: bearer(token), maxRedirects: 0 });
    expect(response.status(), value.slice(0, 40)).toBeLessThan(500);
    await data.check("get", "/svcsim/launch/{token}", response);
    const contentType = response.headers()["content-type"] ?? "";
    expect(
      response.status() === 404 ? contentType.startsWith("text/html") : contentType.includes("application/json"),
      value.slice(0, 40),
    ).toBe(true);
  }
});

test("the portal shows a new key pair's secret once, and only its start afterwards", async ({ page, baseURL }) => {
  const account = await signUpOverHttp(baseURL!, "portal");
  await page.goto("/signin?callbackUrl=%2Fdeveloper%2Fkeys");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Key pairs", exact: true })).toBeVisible();
  await page.waitForSelector("body[data-hydrated]", { state: "attached" });
  await page.getByLabel("Key pair name").fill("Boathouse laptop");
  await page.getByRole("button", { name: "Create key pair" }).click();
  const secret = (await page.getByTestId("secret-key").textContent())!;
  const publicKey = (await page.getByTestId("public-key").textContent())!;
  expect(secret).toMatch(/^svcsk_[0-9A-Za-z]{40}$/);
  expect(publicKey).toMatch(/^svcpk_/);
  const row = page.getByRole("row", { name: /Boathouse laptop/ });
  await expect(row).toContainText(secret.slice(0, 10));

  await page.reload();
  await expect(page.getByText(secret)).toHaveCount(0);
  await page.goto("/developer/docs/results-api/results");
  await expect(page.getByRole("heading", { name: "POST /results" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "GET /results/{id}/pdf" })).toBeVisible();
  // Revoking asks first and says what happens; Cancel leaves the key working.
  const authorization = { authorization: `Bearer ${publicKey}.${secret}`, "x-forwarded-proto": "https" };
  await page.goto("/developer/keys");
  await page.getByRole("button", { name: "Revoke Boathouse laptop" }).click();
  const confirm = page.getByRole("dialog", { name: "Revoke “Boathouse laptop”?" });
  await expect(confirm).toContainText("Apps using this key pair get 401 from their next request.");
  await checkDialogAtBothWidths(page);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole("button", { name: "Revoke Boathouse laptop" })).toBeVisible();
  expect((await page.request.get("/api/v1/paces", { headers: authorization })).status()).toBe(200);
  await page.getByRole("button", { name: "Revoke Boathouse laptop" }).click();
  await confirm.getByRole("button", { name: "Revoke key pair" }).click();
  // Revoked: the row says so and offers no Revoke (the closed dialog's own text went with it).
  await expect(page.getByRole("button", { name: "Revoke Boathouse laptop" })).toHaveCount(0);
  await expect(page.getByRole("row", { name: /Boathouse laptop/ })).toContainText("revoked");
  expect((await page.request.get("/api/v1/paces", { headers: authorization })).status()).toBe(401);
});
