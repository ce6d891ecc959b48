import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { checkDialogAtBothWidths } from "./a11y";
import { E2E_ACCOUNTS } from "./accounts";
import { createKeyPair, signUpOverHttp, trpcMutation, type ApiKey } from "./api-helpers";
import { startOfRateWindow } from "./helpers";
import { OpenApiValidator } from "./openapi-validator";

const DOC = "/api/docs/results-api.json";

test.describe("results API: authentication, reference tables, roster", () => {
  let api: OpenApiValidator;
  let key: ApiKey & { context: APIRequestContext };

  test.beforeAll(async ({ request, baseURL }) => {
    api = await OpenApiValidator.load(request, DOC);
    key = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "reader"));
  });
  test.afterAll(async () => key.context.dispose());

  test("health answers without credentials, in a shape both APIs accept", async ({ request }) => {
    const body = await api.check("get", "/health", await request.get("/api/v1/health"));
    expect(body).toEqual({ status: "ok", data: { status: "ok" } });
  });

  test("reference tables accept the bare public key and the full pair", async ({ request }) => {
    for (const authorization of [`Bearer ${key.publicKey}`, key.authorization]) {
      const response = await request.get("/api/v1/vessels", { headers: { authorization } });
      const body = await api.check("get", "/vessels", response);
      expect(body.data.map((v: { type: string }) => v.type)).toEqual(expect.arrayContaining(["K1", "K2", "K4", "C1", "C2", "C4"]));
      expect(body.pagination).toMatchObject({ page: 1, per_page: 20, has_prev: false });
      expect(response.headers()["x-ratelimit-limit"]).toBe("100");
    }
    const one = await api.check("get", "/vessels/{id}", await request.get("/api/v1/vessels/3", { headers: { authorization: `Bearer ${key.publicKey}` } }));
    expect(one.data).toEqual({ id: 3, type: "K4", npeople: 4 });
    for (const kind of ["categories", "paces"]) {
      const list = await api.check("get", `/${kind}`, await request.get(`/api/v1/${kind}?per_page=2&page=2`, { headers: { authorization: key.authorization } }));
      expect(list.data).toHaveLength(2);
      expect(list.pagination).toMatchObject({ page: 2, per_page: 2, has_prev: true });
      const missing = await api.check("get", `/${kind}/{id}`, await request.get(`/api/v1/${kind}/9999`, { headers: { authorization: key.authorization } }));
      expect(missing.error).toBe("not_found");
    }
  });

  test("per_page is capped at 100 and bad paging parameters are 400", async ({ request }) => {
    const capped = await api.check("get", "/paces", await request.get("/api/v1/paces?per_page=5000", { headers: { authorization: key.authorization } }));
    expect(capped.pagination.per_page).toBe(100);
    for (const query of ["page=0", "page=abc", "per_page=-1", "page=1&page=2"]) {
      const body = await api.check("get", "/paces", await request.get(`/api/v1/paces?${query}`, { headers: { authorization: key.authorization } }));
      expect(body.error).toBe("invalid_request");
      expect(body.message).toMatch(/page|per_page/);
    }
  });

  test("every credential failure is a 401 with a precise message", async ({ request }) => {
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /Authorization header missing/],
      [{ authorization: `Bearer ${key.publicKey}` }, /Secret key not supplied/],
      [{ authorization: `Bearer ${key.publicKey}.wrong-secret` }, /invalid/],
      [{ authorization: "Bearer svcpk_doesnotexist.svcsk_nope" }, /invalid/],
      [{ authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }, /Authorization header missing/],
    ];
    for (const [headers, message] of cases) {
      const response = await request.get("/api/v1/results", { headers });
      const body = await api.check("get", "/results", response);
      expect(response.status()).toBe(401);
      expect(body.error).toBe("unauthorized");
      expect(body.message).toMatch(message);
      expect(response.headers()["www-authenticate"]).toContain("Bearer");
    }
  });

  test("a revoked key is refused from the next request on", async ({ request, baseURL }) => {
    const revocable = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "revoker"));
    expect((await request.get("/api/v1/tracks", { headers: { authorization: revocable.authorization } })).status()).toBe(200);
    await trpcMutation(revocable.context, "keys.revoke", { id: revocable.id });
    const after = await request.get("/api/v1/tracks", { headers: { authorization: revocable.authorization } });
    expect(after.status()).toBe(401);
    expect((await request.get("/api/v1/vessels", { headers: { authorization: `Bearer ${revocable.publicKey}` } })).status()).toBe(401);
    await revocable.context.dispose();
  });

  test("tracks and athletes: only what the key's owner can access; others are 404", async ({ request, baseURL }) => {
    const track = await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "API basin", location: "Lake" });
    const athlete = await trpcMutation<{ id: number }>(key.context, "athletes.create", { name: "Irene", surname: "Lago", modality: "Para kayak", dateOfBirth: "1999-02-03" });
    const auth = { authorization: key.authorization };

    const tracks = await api.check("get", "/tracks", await request.get("/api/v1/tracks", { headers: auth }));
    expect(tracks.data).toContainEqual({ id: track.id, name: "API basin" });
    expect((await api.check("get", "/tracks/{id}", await request.get(`/api/v1/tracks/${track.id}`, { headers: auth }))).data.name).toBe("API basin");

    const athletes = await api.check("get", "/athletes", await request.get("/api/v1/athletes?modality=para", { headers: auth }));
    expect(athletes.data).toEqual([{ id: athlete.id, name: "Irene Lago", date_of_birth: "1999-02-03", modality: "Para kayak" }]);
    const none = await api.check("get", "/athletes", await request.get("/api/v1/athletes?modality=canoe%25", { headers: auth }));
    expect(none.pagination.total).toBe(0);

    const stranger = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "stranger"));
    const other = { authorization: stranger.authorization };
    for (const [path, template] of [
      [`/api/v1/tracks/${track.id}`, "/tracks/{id}"],
      [`/api/v1/athletes/${athlete.id}`, "/athletes/{id}"],
      ["/api/v1/tracks/2147483000", "/tracks/{id}"],
    ]) {
      const response = await request.get(path, { headers: other });
      expect(response.status()).toBe(404);
      expect((await api.check("get", template, response)).error).toBe("not_found");
    }
    const bad = await request.get("/api/v1/athletes/abc", { headers: other });
    expect((await api.check("get", "/athletes/{id}", bad)).message).toMatch(/id must be a positive integer/);
    await stranger.context.dispose();
  });

  test("results list: empty for a new account, filters validated", async ({ request }) => {
    const auth = { authorization: key.authorization };
    const empty = await api.check("get", "/results", await request.get("/api/v1/results", { headers: auth }));
    expect(empty).toEqual({ data: [], pagination: { page: 1, per_page: 20, total: 0, pages: 0, has_next: false, has_prev: false } });
    for (const [query, message] of [
      ["sort=speed", /sort must be one of/],
      ["order=up", /order must be asc or desc/],
      ["start_date=2025-13-01", /start_date/],
      ["start_datetime=2025-10-13 11:30", /start_datetime/],
      ["vessel_id=K1", /vessel_id must be a positive integer/],
      ["competition=" + "x".repeat(65), /competition/],
    ] as const) {
      const body = await api.check("get", "/results", await request.get(`/api/v1/results?${query}`, { headers: auth }));
      expect(body.error).toBe("invalid_request");
      expect(body.message).toMatch(message);
    }
    const missing = await request.get("/api/v1/results/999999", { headers: auth });
    expect((await api.check("get", "/results/{id}", missing)).error).toBe("not_found");
  });

  test("deleting needs the delete permission (403), and absent results are 404", async ({ request, baseURL }) => {
    const viewerKey = await createKeyPair(baseURL!, E2E_ACCOUNTS.viewer);
    const forbidden = await request.delete("/api/v1/results/1", { headers: { authorization: viewerKey.authorization } });
    expect(forbidden.status()).toBe(403);
    expect((await api.check("delete", "/results/{id}", forbidden)).message).toMatch(/role does not allow deleting/);
    const absent = await request.delete("/api/v1/results/999999", { headers: { authorization: key.authorization } });
    expect(absent.status()).toBe(404);
    await api.check("delete", "/results/{id}", absent);
    await viewerKey.context.dispose();
  });

  test("the per-key rate limit answers 429 with Retry-After, and other keys are unaffected", async ({ request, baseURL }) => {
    const busy = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "busy"));
    const auth = { authorization: `Bearer ${busy.publicKey}` };
    const statuses: number[] = [];
    // The whole burst in one fixed window: one that straddles a minute boundary never reaches the limit.
    await startOfRateWindow();
    for (let i = 0; i < 101; i++) statuses.push((await request.get("/api/v1/paces", { headers: auth })).status());
    expect(statuses.slice(0, 100)).not.toContain(429);
    expect(statuses[100]).toBe(429);
    const refused = await request.get("/api/v1/paces", { headers: auth });
    expect(refused.status()).toBe(429);
    const body = await api.check("get", "/paces", refused);
    expect(body.error).toBe("rate_limited");
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers()["x-ratelimit-remaining"]).toBe("0");
    expect((await request.get("/api/v1/paces", { headers: { authorization: key.authorization } })).status()).toBe(200);
    await busy.context.dispose();
  });
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
