import type { APIRequestContext, Request } from "@playwright/test";
import { createKeyPair, signedInContext, signedInNewAccount, trpcMutation } from "./api-helpers";
import { expect, test } from "./fixtures";
import { type TestAccount, waitForDistanceSuggestion } from "./helpers";
import { apiResourceFor, authorizeAndExchange, registerApp } from "./oauth-helpers";
import { simulatedSvc } from "./svc-files";

/**
 * The developer portal's Data API pieces and the session page's equipment,
 * driven in Chromium: binding a key pair to an application, the Data API
 * reference with its "Try it" panel, and a session's boat and paddle.
 */

/** Uploads a simulated K1 session through the results API with a key pair credential. */
async function uploadThroughKey(
  request: APIRequestContext,
  authorization: string,
  trackId: number,
  athleteId: number,
  seed: number,
): Promise<number> {
  const response = await request.post("/api/v1/results", {
    multipart: {
      file: { name: "k1.svc", mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel: "K1", distanceM: 200, seed }) },
      metadata: JSON.stringify({ distance: 200, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] }),
    },
    // The results API takes uploads over HTTPS only; the e2e server trusts the proxy header.
    headers: { authorization, "x-forwarded-proto": "https" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data.id;
}

test("bind a key pair to a session application: the list shows it, and only its uploads reach the application", async ({
  page,
  baseURL,
  request,
}) => {
  const owner = await signedInNewAccount(page, baseURL!, "binder");
  const app = await registerApp(baseURL!, { name: "Boathouse uploader", surface: "session", scopes: ["openid", "sessions:read"] }, owner);

  await page.goto("/developer/keys");
  await page.getByLabel("Key pair name").fill("Boathouse laptop");
  await page.getByRole("button", { name: "Create key pair" }).click();
  const publicKey = (await page.getByTestId("public-key").textContent())!;
  const secretKey = (await page.getByTestId("secret-key").textContent())!;
  const row = page.getByRole("row", { name: /Boathouse laptop/ });
  await expect(row).toContainText("no application");

  const binding = page.getByRole("form", { name: "Uploads through “Boathouse laptop”" });
  await binding.getByLabel("Uploads count as created by").selectOption({ label: "Boathouse uploader (session surface)" });
  await binding.getByRole("button", { name: "Save" }).click();
  await expect(binding.getByRole("status")).toHaveText(
    "Saved: uploads through “Boathouse laptop” now count as created by Boathouse uploader (session surface).",
  );
  await expect(row).toContainText("Boathouse uploader (session surface)");
  await page.reload();
  await expect(page.getByRole("row", { name: /Boathouse laptop/ })).toContainText("Boathouse uploader (session surface)");
  await expect(
    page.getByRole("form", { name: "Uploads through “Boathouse laptop”" }).getByLabel("Uploads count as created by"),
  ).toHaveValue(String(app.id));

  // What the binding means: the session application sees what the bound key uploaded, not another key's uploads.
  const portal = await signedInContext(baseURL!, owner);
  const trackId = (await trpcMutation<{ id: number }>(portal, "tracks.create", { name: "Binding basin" })).id;
  const athleteId = (
    await trpcMutation<{ id: number }>(portal, "athletes.create", { name: "Ana", surname: "Bound", subscriptionActiveUntil: "2099-12-31" })
  ).id;
  const bound = await uploadThroughKey(request, `Bearer ${publicKey}.${secretKey}`, trackId, athleteId, 811);
  const unbound = await createKeyPair(baseURL!, owner, "Unbound key");
  await uploadThroughKey(request, unbound.authorization, trackId, athleteId, 812);
  const { tokens } = await authorizeAndExchange(baseURL!, app, { scope: "openid sessions:read", tokenResource: apiResourceFor(baseURL!) });
  const list = await request.get("/api/v1/sessions", { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(list.status()).toBe(200);
  expect((await list.json()).data.map((s: { id: number }) => s.id)).toEqual([bound]);
  await Promise.all([portal.dispose(), unbound.context.dispose()]);
});

test.describe("Data API reference", () => {
  let owner: TestAccount;

  test.beforeEach(async ({ page, baseURL }) => {
    owner = await signedInNewAccount(page, baseURL!, "reader");
  });

  test("lists every operation with its scopes and surfaces", async ({ page, request }) => {
    await page.goto("/developer");
    await page.getByRole("navigation", { name: "Developer portal" }).getByRole("link", { name: "Data API reference" }).click();
    await expect(
      page.getByRole("navigation", { name: "Developer portal" }).getByRole("link", { name: "Data API reference" }),
    ).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { name: "Data API reference", level: 1 })).toBeVisible();

    const served = await (await request.get("/api/docs/data-api.json")).json();
    // The index links each tag's page (the reference is split per tag); each page is read in one pass:
    // each visible operation section's title and its Scopes and Surfaces facts as rendered text.
    const tagPages = await page
      .getByRole("navigation", { name: "Operations" })
      .getByRole("heading")
      .getByRole("link")
      .evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).pathname));
    expect(tagPages.length).toBeGreaterThanOrEqual(5);
    const shown: Record<string, Record<string, string>> = {};
    for (const tagPage of tagPages) {
      await page.goto(tagPage);
      // Inside the reference the portal's navigation still says where the person is, and so does the sections' navigation.
      await expect(
        page.getByRole("navigation", { name: "Developer portal" }).getByRole("link", { name: "Data API reference" }),
      ).toHaveAttribute("aria-current", "page");
      await expect(page.getByRole("navigation", { name: "Reference sections" }).locator('[aria-current="page"]')).toHaveAttribute(
        "href",
        tagPage,
      );
      Object.assign(
        shown,
        await page.evaluate(() =>
          Object.fromEntries(
            [...document.querySelectorAll<HTMLElement>("section.operation")]
              .filter((section) => section.offsetParent !== null)
              .map((section) => [
                section.querySelector("h3")?.textContent?.trim() ?? "",
                Object.fromEntries(
                  [...section.querySelectorAll(".op-facts > div")].map((fact) => [
                    fact.querySelector("dt")?.textContent?.trim(),
                    fact.querySelector("dd")?.textContent?.trim(),
                  ]),
                ),
              ]),
          ),
        ),
      );
    }
    let count = 0;
    for (const [path, operations] of Object.entries(
      served.paths as Record<string, Record<string, { "x-scopes": string[]; "x-surfaces": string[] }>>,
    )) {
      for (const [method, op] of Object.entries(operations)) {
        const title = `${method.toUpperCase()} ${path}`;
        expect(shown[title], title).toEqual(
          expect.objectContaining({
            Scopes: op["x-scopes"].length ? op["x-scopes"].join(", ") : "none",
            Surfaces: op["x-surfaces"].join(", "),
          }),
        );
        count++;
      }
    }
    expect(count).toBeGreaterThanOrEqual(10);
    expect(Object.keys(shown)).toHaveLength(count);
    // Spot checks against the spec, independent of the served document.
    expect(shown["GET /me"]).toMatchObject({ Scopes: "openid", Surfaces: "data, partner, session" });
    expect(shown["GET /health"]).toMatchObject({ Surfaces: "data" });
    expect(shown["GET /sessions/{session_id}"]).toMatchObject({ Scopes: "sessions:read" });
    // And one of them as a person finds it: a named region under its heading (the last page read is a tag's; GET /me is Identity's).
    await page.goto("/developer/docs/data-api/identity");
    await expect(
      page.getByRole("region", { name: "GET /me", exact: true }).getByRole("heading", { name: "GET /me", exact: true }),
    ).toBeVisible();
  });

  test("Try it calls GET /me with a real access token (200 and the body) and with a bad one (401), keeping the token out of storage", async ({
    page,
    baseURL,
  }) => {
    const app = await registerApp(baseURL!, { name: "Try-it app", surface: "data", scopes: ["openid", "sessions:read"] }, owner);
    const { tokens } = await authorizeAndExchange(baseURL!, app, { scope: "openid", tokenResource: apiResourceFor(baseURL!) });
    const token = tokens.access_token;
    const carrying: Request[] = [];
    page.on("request", (r) => {
      const all = [r.url(), r.postData() ?? "", ...Object.values(r.headers())].join("\n");
      if (all.includes(token)) carrying.push(r);
    });

    await page.goto("/developer/docs/data-api/identity");
    await page.getByRole("button", { name: "Try it: GET /me" }).click();
    const panel = page.getByRole("region", { name: "Try it", exact: true });
    // Focus moves to what needs filling first: the token.
    await expect(panel.getByLabel("Access token")).toBeFocused();
    await expect(panel.getByLabel("Operation")).toHaveValue("get_me");
    await page.keyboard.insertText(token);
    await panel.getByRole("button", { name: "Send request" }).click();

    const response = panel.getByRole("region", { name: "Response", exact: true });
    await expect(response.getByTestId("try-it-status")).toHaveText("200 OK");
    const body = JSON.parse((await response.getByLabel("Response body").textContent())!);
    // The pairwise subject of this application (data-api.md "Identity").
    expect(body.data.sub).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect(response.locator("dt", { hasText: "X-Request-Id" })).toBeVisible();
    await expect(response.locator("div", { has: page.locator("dt", { hasText: "X-RateLimit-Limit" }) }).locator("dd")).toHaveText(/^\d+$/);

    // A bad token, sent with the keyboard (Enter in the token field).
    await panel.getByLabel("Access token").fill("not-a-real-token");
    await panel.getByLabel("Access token").press("Enter");
    await expect(response.getByTestId("try-it-status")).toHaveText("401 Unauthorized");
    expect(JSON.parse((await response.getByLabel("Response body").textContent())!)).toMatchObject({ error: "invalid_token" });
    await expect(response.locator("div", { has: page.locator("dt", { hasText: "WWW-Authenticate" }) }).locator("dd")).toContainText(
      "invalid_token",
    );

    // The real token went out once, to GET /api/v1/me, in the Authorization header only; nothing stored it.
    expect(carrying.map((r) => `${r.method()} ${new URL(r.url()).pathname}`)).toEqual(["GET /api/v1/me"]);
    expect(carrying[0].headers()["authorization"]).toBe(`Bearer ${token}`);
    expect(carrying[0].url()).not.toContain(token);
    const stored = await page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookies: document.cookie, url: location.href }),
    );
    expect(stored).not.toContain(token);
    expect((await page.context().cookies()).map((c) => c.value).join()).not.toContain(token);
  });
});

test("set a session's boat and paddle from the owner's equipment on the session page", async ({ page, baseURL }) => {
  const owner = await signedInNewAccount(page, baseURL!, "equipped");
  const portal = await signedInContext(baseURL!, owner);
  await trpcMutation(portal, "tracks.create", { name: "Equipment basin" });
  await trpcMutation(portal, "athletes.create", { name: "Uno", subscriptionActiveUntil: "2099-12-31" });
  await portal.dispose();

  await page.goto("/equipment");
  await page.getByLabel("Boat name").fill("Nelo Vanquish");
  await page.getByLabel("Type").selectOption({ label: "K1" });
  await page.getByRole("button", { name: "Add boat" }).click();
  await expect(page.getByRole("cell", { name: "Nelo Vanquish", exact: true })).toBeVisible();
  await page.getByLabel("Paddle name").fill("Braca IV");
  await page.getByRole("button", { name: "Add paddle" }).click();
  await expect(page.getByRole("cell", { name: "Braca IV", exact: true })).toBeVisible();

  await page.goto("/upload");
  await page.getByLabel("Session file (.svc)").setInputFiles({
    name: "k1-200.svc",
    mimeType: "application/octet-stream",
    buffer: simulatedSvc({ vessel: "K1", distanceM: 200, seed: 913 }),
  });
  await waitForDistanceSuggestion(page);
  await page.getByLabel("Distance (m)").fill("200");
  await page.getByLabel("Boat").selectOption({ label: "K1" });
  await page.getByLabel("Seat 1", { exact: true }).selectOption({ label: "Uno" });
  await page.getByRole("button", { name: "Upload" }).click();
  await page.waitForURL(/\/sessions\/\d+$/);

  const form = page.getByRole("form", { name: "Boat and paddle" });
  await expect(form.getByLabel("Boat")).toHaveValue("");
  await form.getByLabel("Boat").selectOption({ label: "Nelo Vanquish (K1)" });
  await form.getByLabel("Paddle").selectOption({ label: "Braca IV (kayak)" });
  await form.getByRole("button", { name: "Save equipment" }).click();
  await expect(form.getByRole("status")).toHaveText("Equipment saved.");

  await page.reload();
  const reloaded = page.getByRole("form", { name: "Boat and paddle" });
  await expect(reloaded.getByLabel("Boat").locator("option:checked")).toHaveText("Nelo Vanquish (K1)");
  await expect(reloaded.getByLabel("Paddle").locator("option:checked")).toHaveText("Braca IV (kayak)");

  // Cleared again.
  await reloaded.getByLabel("Paddle").selectOption({ label: "Not recorded" });
  await reloaded.getByRole("button", { name: "Save equipment" }).click();
  await expect(reloaded.getByRole("status")).toHaveText("Equipment saved.");
  await page.reload();
  await expect(page.getByRole("form", { name: "Boat and paddle" }).getByLabel("Paddle")).toHaveValue("");
  await expect(page.getByRole("form", { name: "Boat and paddle" }).getByLabel("Boat").locator("option:checked")).toHaveText(
    "Nelo Vanquish (K1)",
  );
});
