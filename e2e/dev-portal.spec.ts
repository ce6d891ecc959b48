import type { Request } from "@playwright/test";
import { createKeyPair, signedInNewAccount, signInPageOverHttp } from "./api-helpers";
import { checkPageAtBothWidths, checkPageAtWidth, WIDTHS } from "./a11y";
import { DATA_WORLD } from "./data-api-world";
import { expect, test } from "./fixtures";
import type { TestAccount } from "./helpers";
import { apiResourceFor, authorizeAndExchange, registerApp, USERINFO_SCOPE } from "./oauth-helpers";

/**
 * Issue 11's developer portal and session page pieces, in Chromium: the
 * results API's Try it with a real key pair and code samples, "Get a test
 * token" (authorization code + PKCE in a pop-up) feeding the Data API's Try
 * it, the wrong-audience message, and the seat-1 heart rate on the session
 * page for the one person it belongs to.
 */

/** Every request that carried `secret` anywhere (URL, body, headers). */
function watchFor(page: import("@playwright/test").Page, secret: () => string): Request[] {
  const carrying: Request[] = [];
  page.on("request", (r) => {
    const value = secret();
    if (value && [r.url(), r.postData() ?? "", ...Object.values(r.headers())].join("\n").includes(value)) carrying.push(r);
  });
  return carrying;
}

async function expectNotStored(page: import("@playwright/test").Page, secret: string) {
  const stored = await page.evaluate(() =>
    JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookies: document.cookie, url: location.href }),
  );
  expect(stored).not.toContain(secret);
  expect((await page.context().cookies()).map((c) => c.value).join()).not.toContain(secret);
}

test.describe("results API reference", () => {
  let owner: TestAccount;
  test.beforeEach(async ({ page, baseURL }) => {
    owner = await signedInNewAccount(page, baseURL!, "results-try");
  });

  test("Try it sends real requests with a key pair (the pair, or the public key alone), and the code samples show the real authentication", async ({
    page,
    baseURL,
  }) => {
    const key = await createKeyPair(baseURL!, owner, "Try-it key");
    await key.context.dispose();
    const [publicKey, secretKey] = key.authorization.replace(/^Bearer /, "").split(".");
    const carrying = watchFor(page, () => secretKey);

    await page.goto("/developer/docs/results-api/results");
    await expect(page.getByRole("heading", { name: "Results API reference: Results", level: 1 })).toBeVisible();
    // Integer parameters are documented as integers.
    await expect(page.getByRole("table", { name: "Parameters of GET /results" }).getByRole("row", { name: /^per_page/ })).toContainText(
      "integer 1…1000000",
    );

    await page.getByRole("button", { name: "Try it: GET /results", exact: true }).click();
    const panel = page.getByRole("region", { name: "Try it", exact: true });
    await expect(panel.getByLabel("Public key")).toBeFocused();
    await panel.getByLabel("Public key").fill(publicKey);
    await panel.getByLabel("Secret key").fill(secretKey);
    await panel.getByLabel("per_page").fill("5");
    await panel.getByRole("button", { name: "Send request" }).click();
    const response = panel.getByRole("region", { name: "Response", exact: true });
    await expect(response.getByTestId("try-it-status")).toHaveText("200 OK");
    const body = JSON.parse((await response.getByLabel("Response body").textContent())!);
    expect(body).toMatchObject({ data: [], pagination: { page: 1, per_page: 5, total: 0 } });
    await expect(response.locator("div", { has: page.locator("dt", { hasText: "X-RateLimit-Limit" }) }).locator("dd")).toHaveText(/^\d+$/);

    // The code samples: the same request, the credential from the environment, never the secret itself.
    const samples = panel.getByRole("region", { name: "Code samples" });
    const sample = samples.getByTestId("code-sample");
    await expect(sample).toContainText(`curl '${baseURL}/api/v1/results?per_page=5'`);
    await expect(sample).toContainText('-H "Authorization: Bearer $SVC_PUBLIC_KEY.$SVC_SECRET_KEY"');
    await samples.getByRole("button", { name: "JavaScript (fetch)" }).click();
    await expect(sample).toContainText("Authorization: `Bearer ${process.env.SVC_PUBLIC_KEY}.${process.env.SVC_SECRET_KEY}`");
    await samples.getByRole("button", { name: "Python (requests)" }).click();
    await expect(sample).toContainText(`"Authorization": f"Bearer {os.environ['SVC_PUBLIC_KEY']}.{os.environ['SVC_SECRET_KEY']}"`);
    await expect(sample).toContainText(`requests.request("GET", "${baseURL}/api/v1/results?per_page=5"`);
    // The SDK sample: the same list through @paddle-results/sdk, every page (docs/sdk.md).
    await samples.getByRole("button", { name: "TypeScript (SDK)" }).click();
    await expect(sample).toContainText(
      `createResultsApiClient({ baseUrl: "${baseURL}", publicKey: process.env.SVC_PUBLIC_KEY!, secretKey: process.env.SVC_SECRET_KEY! })`,
    );
    await expect(sample).toContainText(`paginatePages((page) => api.GET("/results", {\n  params: { query: { per_page: 5, page } },`);
    await samples.getByRole("button", { name: "Python (requests)" }).click();
    await expect(panel).not.toContainText(secretKey);

    // A reference table takes the public key alone; the panel sends just that there. Its documentation is another tag's page; the panel offers every operation.
    await panel.getByLabel("Operation").selectOption({ label: "GET /vessels" });
    await panel.getByLabel("Secret key").fill("");
    await panel.getByRole("button", { name: "Send request" }).click();
    await expect(response.getByTestId("try-it-status")).toHaveText("200 OK");
    expect(JSON.parse((await response.getByLabel("Response body").textContent())!).data.length).toBeGreaterThan(0);
    await expect(sample).toContainText(`os.environ['SVC_PUBLIC_KEY']`);

    // A wrong secret: 401 with the bearer challenge.
    await panel.getByLabel("Operation").selectOption({ label: "GET /tracks" });
    await panel.getByLabel("Secret key").fill(`${secretKey}x`);
    await panel.getByRole("button", { name: "Send request" }).click();
    await expect(response.getByTestId("try-it-status")).toHaveText("401 Unauthorized");
    expect(JSON.parse((await response.getByLabel("Response body").textContent())!)).toMatchObject({ error: "unauthorized" });

    // The upload takes a file and its metadata in the panel (sent for real in e2e/getting-started.spec.ts); without a file nothing is sent.
    await page.getByRole("button", { name: "Try it: POST /results", exact: true }).click();
    await expect(panel.getByLabel("Metadata (JSON)")).toHaveValue(/"track_id":1/);
    await panel.getByRole("button", { name: "Send request" }).click();
    await expect(panel.getByText("Choose a device file (.svc) to upload")).toBeVisible();
    await samples.getByRole("button", { name: "curl", exact: true }).click();
    await expect(sample).toContainText("-F 'file=@session.svc'");

    // The secret went out only in Authorization headers, to the results API; nothing stored it.
    expect(carrying.map((r) => `${r.method()} ${new URL(r.url()).pathname}`)).toEqual(["GET /api/v1/results", "GET /api/v1/tracks"]);
    expect(carrying.map((r) => r.headers()["authorization"])).toEqual([
      `Bearer ${publicKey}.${secretKey}`,
      `Bearer ${publicKey}.${secretKey}x`,
    ]);
    expect(carrying.every((r) => !r.url().includes(secretKey))).toBe(true);
    await expectNotStored(page, secretKey);
  });

  // The reference pages are big: one test per width (a11y.ts's checks, as checkPageAtBothWidths runs them).
  for (const [width, size] of WIDTHS) {
    test(`the results reference page passes the accessibility and overflow checks at ${width} width`, async ({ page }) => {
      await checkPageAtWidth(page, "/developer/docs/results-api/results", size);
    });
  }
});

test.describe("Data API: get a test token", () => {
  for (const clientType of ["confidential", "public"] as const) {
    test(`the authorization code + PKCE flow in a pop-up ends with a token in the Try it panel and GET /me answers 200 (${clientType} client)`, async ({
      page,
      baseURL,
    }) => {
      const owner = await signedInNewAccount(page, baseURL!, `test-token-${clientType}`);
      const callback = `${baseURL}/developer/test-token/callback`;
      const app = await registerApp(
        baseURL!,
        {
          name: `Token lab ${clientType}`,
          surface: "data",
          clientType,
          redirectUris: [callback],
          scopes: ["openid", "profile", "sessions:read"],
        },
        owner,
      );
      // Another application without the portal callback: listed, not choosable.
      await registerApp(baseURL!, { name: "Elsewhere app", surface: "data" }, owner);

      await page.goto("/developer/docs/data-api/identity");
      const section = page.getByRole("region", { name: "Get a test token" });
      await expect(section.getByTestId("test-token-callback")).toHaveText(callback);
      await expect(section.getByRole("option", { name: /Elsewhere app .* callback not registered/ })).toBeDisabled();
      await expect(section.getByLabel("Application")).toHaveValue(String(app.id));
      if (clientType === "confidential") {
        await section.getByRole("button", { name: "Get a test token" }).click();
        await expect(section.getByTestId("test-token-status")).toContainText("Enter the application's client secret");
        await section.getByLabel("Client secret").fill(app.clientSecret!);
      } else {
        await expect(section.getByLabel("Client secret")).toHaveCount(0);
      }
      // client_secret_basic: the secret travels base64-encoded in the token request's Authorization header, and nowhere else.
      const basic = app.clientSecret
        ? Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret)}`).toString("base64")
        : "\u0000none";
      const carrying = watchFor(page, () => basic);
      const raw = watchFor(page, () => app.clientSecret ?? "\u0000none");
      const popupOpened = page.waitForEvent("popup");
      await section.getByRole("button", { name: "Get a test token" }).click();
      const popup = await popupOpened;
      // Signed in already: the pop-up asks for consent, then returns to the portal callback and closes.
      await expect(popup.getByRole("heading", { name: `Allow Token lab ${clientType} to access your account?` })).toBeVisible();
      // Listen before clicking: the callback can close the pop-up before the click returns.
      const closed = popup.waitForEvent("close");
      await popup.getByRole("button", { name: "Allow" }).click();
      await closed;
      const status = section.getByTestId("test-token-status");
      await expect(status).toContainText("Test token received and put into the Try it panel");
      for (const scope of ["openid", "profile", "sessions:read"]) await expect(status).toContainText(scope);

      const panel = page.getByRole("region", { name: "Try it", exact: true });
      const token = await panel.getByLabel("Access token").inputValue();
      expect(token.length).toBeGreaterThan(20);
      await page.getByRole("button", { name: "Try it: GET /me" }).click();
      await panel.getByRole("button", { name: "Send request" }).click();
      const response = panel.getByRole("region", { name: "Response", exact: true });
      await expect(response.getByTestId("try-it-status")).toHaveText("200 OK");
      expect(JSON.parse((await response.getByLabel("Response body").textContent())!).data).toMatchObject({ name: owner.name });
      // The Data API sample reads the token from the environment.
      await expect(panel.getByTestId("code-sample")).toContainText('-H "Authorization: Bearer $SVC_ACCESS_TOKEN"');
      await panel.getByRole("button", { name: "TypeScript (SDK)" }).click();
      await expect(panel.getByTestId("code-sample")).toContainText(
        `createDataApiClient({ baseUrl: "${baseURL}", accessToken: process.env.SVC_ACCESS_TOKEN! })`,
      );
      await expect(panel.getByTestId("code-sample")).toContainText('await unwrap(api.GET("/me"));');
      await expect(panel).not.toContainText(token);

      // The secret went only to the token endpoint; neither it nor the token was stored.
      expect(carrying.map((r) => `${r.method()} ${new URL(r.url()).pathname} ${r.headers()["authorization"]}`)).toEqual(
        clientType === "confidential" ? [`POST /api/oauth/token Basic ${basic}`] : [],
      );
      expect(raw).toEqual([]);
      await expectNotStored(page, token);
      if (app.clientSecret) await expectNotStored(page, app.clientSecret);
    });
  }

  // The token endpoint's origin rule for the portal's browser requests: test/oauth/oauth-requests.test.ts.
  test("the test-token callback page, opened by hand, says where to start", async ({ page, baseURL }) => {
    await signedInNewAccount(page, baseURL!, "token-origin");
    await page.goto("/developer/test-token/callback?code=abc&state=def");
    await expect(page.getByText("which opens it in a pop-up. Start there.")).toBeVisible();
    expect(new URL(page.url()).search).toBe("");
    await checkPageAtBothWidths(page, "/developer/test-token/callback");
  });

  test("the Data API reference explains the resource parameter", async ({ page, baseURL }) => {
    await signedInNewAccount(page, baseURL!, "audience-docs");
    await page.goto("/developer/docs/data-api");
    const explained = page.getByRole("region", { name: "Obtaining an access token" });
    await expect(explained).toContainText(`resource=${apiResourceFor(baseURL!)}`);
    await expect(explained.getByRole("heading", { name: "The resource parameter" })).toBeVisible();
  });

  // The reference's index and its Identity page are big: one test per width for each.
  for (const url of ["/developer/docs/data-api", "/developer/docs/data-api/identity"]) {
    for (const [width, size] of WIDTHS) {
      test(`${url} passes the accessibility and overflow checks at ${width} width`, async ({ page, baseURL }) => {
        await signedInNewAccount(page, baseURL!, "reference-a11y");
        await checkPageAtWidth(page, url, size);
      });
    }
  }

  test("a token for another audience gets a 401 in Try it that names the Data API's resource", async ({ page, baseURL }) => {
    const owner = await signedInNewAccount(page, baseURL!, "audience");
    const app = await registerApp(baseURL!, { name: "Userinfo only", surface: "data" }, owner);
    // OIDC scopes alone and no resource: a token for the userinfo endpoint (docs/oauth.md "Tokens, audiences").
    const { tokens } = await authorizeAndExchange(baseURL!, app, { scope: USERINFO_SCOPE });

    await page.goto("/developer/docs/data-api/identity");
    await page.getByRole("button", { name: "Try it: GET /me" }).click();
    const panel = page.getByRole("region", { name: "Try it", exact: true });
    await panel.getByLabel("Access token").fill(tokens.access_token);
    await panel.getByRole("button", { name: "Send request" }).click();
    const response = panel.getByRole("region", { name: "Response", exact: true });
    await expect(response.getByTestId("try-it-status")).toHaveText("401 Unauthorized");
    const body = JSON.parse((await response.getByLabel("Response body").textContent())!);
    expect(body.error).toBe("invalid_token");
    expect(body.error_description).toContain("audience is not the Data API");
    expect(body.error_description).toContain(`resource=${apiResourceFor(baseURL!)}`);
    expect(body.error_description).not.toContain("invalid, expired or revoked");
  });
});

test.describe("session page: crew by seat and heart rate", () => {
  /** Olaf's K2 with Anna in seat 2 (scripts/e2e-seed-data-api.ts): the heart rate is Olaf's (seat 1). */
  async function olafK2Id(baseURL: string): Promise<number> {
    const key = await createKeyPair(baseURL, DATA_WORLD.olaf, "session page lookup");
    const list = await key.context.get("/api/v1/results?vessel_id=2", { headers: { authorization: key.authorization } });
    expect(list.status()).toBe(200);
    const found = ((await list.json()).data as { id: number }[]).map((r) => r.id);
    await key.context.dispose();
    // The seeded one is the first K2 Olaf can see (other specs may add their own later).
    expect(found.length).toBeGreaterThan(0);
    return Math.min(...found);
  }

  // One lookup for both people's tests: they only read the seeded session.
  let id: number;
  test.beforeAll(async ({ baseURL }) => {
    id = await olafK2Id(baseURL!);
  });

  test("the seat-1 paddler sees the heart rate chart and average/max", async ({ page, baseURL }) => {
    await signInPageOverHttp(page, baseURL!, DATA_WORLD.olaf);
    await page.goto(`/sessions/${id}`);
    const crew = page.getByRole("table", { name: "Crew by seat" });
    await expect(crew.getByRole("row")).toHaveCount(3);
    await expect(crew.getByRole("row").nth(1)).toContainText("Olaf Outsider");
    await expect(crew.getByRole("row").nth(1)).toContainText("stroke seat");
    await expect(page.getByTestId("crew-measures-boat")).toContainText("The unit measures the boat");
    await expect(page.getByTestId("heart-rate-facts")).toHaveText(/^average \d{2,3} · max \d{2,3} bpm$/);
    const chart = page.getByTestId("heart-rate-chart");
    await expect(chart.getByText("Heart rate (bpm)")).toBeVisible();
    await expect(chart.locator("#chart-heart-rate-summary")).toHaveText(/^From \d+ to \d+ bpm, average \d+; highest at \d+ m\.$/);
    await expect(chart.locator("path.recharts-line-curve")).toHaveCount(1);
    // The chart's highest value is the facts' maximum (the processed summary and the 10 Hz track agree).
    const max = Number((await page.getByTestId("heart-rate-facts").textContent())!.match(/max (\d+)/)![1]);
    const highest = Number((await chart.locator("#chart-heart-rate-summary").textContent())!.match(/to (\d+) bpm/)![1]);
    expect(Math.abs(max - highest)).toBeLessThanOrEqual(2);
  });

  test("a crew mate in seat 2 sees the session without the heart rate", async ({ page: anna, baseURL }) => {
    await signInPageOverHttp(anna, baseURL!, DATA_WORLD.anna);
    await anna.goto(`/sessions/${id}`);
    await expect(anna.getByRole("table", { name: "Crew by seat" }).getByRole("row").nth(2)).toContainText("Anna Owner");
    await expect(anna.getByTestId("average-pace")).toBeVisible();
    await expect(anna.getByTestId("heart-rate-chart")).toHaveCount(0);
    await expect(anna.getByTestId("heart-rate-facts")).toHaveCount(0);
    await expect(anna.getByRole("heading", { name: "Your heart rate" })).toHaveCount(0);
    expect(await anna.content()).not.toMatch(/heart-rate-chart|bpm/);
  });

  // Each person's session page (Olaf's with the chart, Anna's without) at each width: one test each.
  for (const [person, account] of [
    ["the seat-1 paddler", DATA_WORLD.olaf],
    ["the crew mate in seat 2", DATA_WORLD.anna],
  ] as const) {
    for (const [width, size] of WIDTHS) {
      test(`${person}'s session page passes the accessibility and overflow checks at ${width} width`, async ({ page, baseURL }) => {
        await signInPageOverHttp(page, baseURL!, account);
        await checkPageAtWidth(page, `/sessions/${id}`, size);
      });
    }
  }
});
