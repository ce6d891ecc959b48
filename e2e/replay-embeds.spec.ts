import { gunzipSync } from "node:zlib";
import { request as playwrightRequest, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { PNG } from "pngjs";
import { expect, test } from "./fixtures";
import { createKeyPair, signedInContext, signUpOverHttp, trpcMutation } from "./api-helpers";
import { bearer, call, expectCommonAuthCases, loadDataApi, tokenSet, type TokenSet } from "./data-api-helpers";
import { startEmbedHost, startHttpsFront, type EmbedHost, type HttpsFront } from "./embed-host";
import { signIn, type TestAccount } from "./helpers";
import { apiResourceFor, authorizeAndExchange, basicAuth, postForm, registerApp, type TestApp } from "./oauth-helpers";
import type { OpenApiValidator } from "./openapi-validator";
import { simulatedSvc } from "./svc-files";

/**
 * Replay embeds end to end (docs/replay.md): a club site on another origin
 * (https://127.0.0.1:<port>, self-signed) frames the launch URL of the app
 * (http://localhost:<E2E_PORT>); the player draws the boats with WebGL
 * (SwiftShader), a non-approved origin is refused by the browser, launch and
 * artifact URLs work once, and a revoked grant ends the lease.
 */
test.use({
  ignoreHTTPSErrors: true,
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // Software WebGL for this spec only (the shared config disables the GPU).
    args: [
      "--no-sandbox",
      "--use-angle=swiftshader",
      "--enable-unsafe-swiftshader",
      "--ignore-gpu-blocklist",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
});

const EMBED_SCOPES = ["openid", "sessions:read", "svcsim:embed"];
const ARTIFACT_URL = /\/api\/v1\/svcsim\/artifacts\/([A-Za-z0-9_-]{43})/g;
const LEASE_CREDENTIAL = /credential\\?":\\?"([A-Za-z0-9_-]{43})/;

test.describe("replay embeds", () => {
  test.describe.configure({ mode: "serial" });
  let api: OpenApiValidator;
  let owner: TestAccount;
  let token: string;
  let sessionIds: number[];
  let approved: EmbedHost;
  let stranger: EmbedHost;
  let front: HttpsFront;
  let anon: APIRequestContext;
  let app: TestApp;

  const createEmbed = (request: APIRequestContext, body: unknown, accessToken = token) =>
    request.post("/api/v1/svcsim/embeds", {
      headers: { ...bearer(accessToken), "content-type": "application/json" },
      data: JSON.stringify(body),
    });

  /**
   * Opens a launch URL as Chromium does when the approved origin's page frames
   * it (the headers the "plays" test below sees the browser send): only such a
   * request may consume a launch (docs/replay.md "Who may open a launch").
   */
  const openAsFrame = (url: string, origin = approved.origin) =>
    anon.get(url, {
      headers: { "sec-fetch-dest": "iframe", "sec-fetch-mode": "navigate", "sec-fetch-site": "cross-site", referer: `${origin}/` },
    });

  async function launchUrl(request: APIRequestContext, ids = sessionIds, origin = approved.origin, accessToken = token): Promise<string> {
    const response = await createEmbed(request, { session_ids: ids, origin }, accessToken);
    const body = await api.check("post", "/svcsim/embeds", response);
    expect(response.status(), JSON.stringify(body)).toBe(201);
    return body.data.launch_url;
  }

  test.beforeAll(async ({ request, baseURL }) => {
    api = await loadDataApi(request);
    anon = await playwrightRequest.newContext({ baseURL });
    approved = await startEmbedHost();
    stranger = await startEmbedHost();
    front = await startHttpsFront(baseURL!);
    owner = await signUpOverHttp(baseURL!, "embedder");
    const key = await createKeyPair(baseURL!, owner);
    const trackId = (await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Regatta course" })).id;
    const athletes: number[] = [];
    for (const name of ["Ana", "Bea"])
      athletes.push(
        (
          await trpcMutation<{ id: number }>(key.context, "athletes.create", {
            name,
            surname: "Lane",
            subscriptionActiveUntil: "2099-12-31",
          })
        ).id,
      );
    sessionIds = [];
    for (const [vessel, vesselId, seed, crew] of [
      ["K1", 1, 701, [athletes[0]]],
      ["C2", 5, 702, athletes],
    ] as const) {
      const response = await request.post("/api/v1/results", {
        headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
        multipart: {
          file: { name: `${vessel}.svc`, mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel, distanceM: 200, seed }) },
          metadata: JSON.stringify({ distance: 200, vessel_id: vesselId, track_id: trackId, category_id: 1, pace_id: 1, athletes: crew }),
        },
      });
      expect(response.status(), await response.text()).toBe(201);
      sessionIds.push((await response.json()).data.id);
    }
    app = await registerApp(baseURL!, { surface: "data", scopes: EMBED_SCOPES, embedOrigins: [approved.origin], name: "Club site" }, owner);
    const { tokens, browser } = await authorizeAndExchange(baseURL!, app, {
      scope: EMBED_SCOPES.join(" "),
      tokenResource: apiResourceFor(baseURL!),
    });
    await browser.dispose();
    token = tokens.access_token;
    // The artifacts are built by a background job after each upload: wait until an embed can be made.
    await expect
      .poll(async () => (await createEmbed(request, { session_ids: sessionIds, origin: approved.origin })).status(), {
        timeout: 90_000,
        intervals: [500, 1000, 2000],
      })
      .toBe(201);
  });

  test.afterAll(async () => {
    await anon?.dispose();
    await approved?.close();
    await stranger?.close();
    await front?.close();
  });

  test("creation: 201 with a launch URL; bad origins, sessions and lists answer their documented errors", async ({ request }) => {
    const created = await createEmbed(request, { session_ids: sessionIds, origin: approved.origin });
    const body = await api.check("post", "/svcsim/embeds", created);
    expect(created.status()).toBe(201);
    expect(body.data).toMatchObject({
      id: expect.any(Number),
      origin: approved.origin,
      session_ids: sessionIds,
      launch_url: expect.stringMatching(/\/api\/v1\/svcsim\/launch\/[A-Za-z0-9_-]{43}$/),
    });
    expect(Date.parse(body.data.launch_expires_at) - Date.now()).toBeLessThanOrEqual(120_000);
    expect(body.data.launch_url).not.toContain(token);

    const cases: [unknown, number, string, RegExp][] = [
      [{ session_ids: sessionIds, origin: "not an origin" }, 400, "invalid_request", /origin/],
      [{ session_ids: sessionIds, origin: approved.origin.replace("https:", "http:") }, 400, "invalid_request", /https/],
      [{ session_ids: sessionIds, origin: `${approved.origin}/` }, 400, "invalid_request", /exact/],
      [{ session_ids: sessionIds, origin: stranger.origin }, 403, "origin_not_approved", /not an approved/],
      [{ session_ids: [], origin: approved.origin }, 400, "invalid_request", /1 to 9/],
      [{ session_ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], origin: approved.origin }, 400, "invalid_request", /1 to 9/],
      [{ session_ids: [sessionIds[0], sessionIds[0]], origin: approved.origin }, 400, "invalid_request", /at most once/],
      [{ session_ids: [1e300], origin: approved.origin }, 400, "invalid_request", /session_ids/],
      [{ session_ids: sessionIds, origin: approved.origin, extra: 1 }, 400, "invalid_request", /extra|unrecognized/i],
      [{ session_ids: [...sessionIds, 2_000_000_000], origin: approved.origin }, 404, "not_found", /not accessible/],
    ];
    for (const [input, status, error, description] of cases) {
      const response = await createEmbed(request, input);
      const answer = await api.check("post", "/svcsim/embeds", response);
      expect(response.status(), JSON.stringify(input)).toBe(status);
      expect(answer).toMatchObject({ error, request_id: expect.stringMatching(/^req_/) });
      expect(answer.error_description).toMatch(description);
    }
    const notJson = await request.post("/api/v1/svcsim/embeds", {
      headers: { ...bearer(token), "content-type": "application/json" },
      data: '{"session_ids": [1,',
    });
    expect(notJson.status()).toBe(400);
    expect((await notJson.json()).error).toBe("invalid_request");
  });

  test("the approved origin frames the player, which draws the boats; no OAuth token reaches the page", async ({ page }) => {
    // Over HTTPS, as deployed: the browser then shows the app the framing page's origin.
    const url = front.via(await launchUrl(page.request));
    const seen = page.waitForResponse((r) => r.url() === url);
    await page.mainFrame().goto(approved.pageFor(url)); // a club page: no hydration marker to wait for
    const launch = await seen;
    expect(launch.status()).toBe(200);
    expect(launch.headers()["content-security-policy"]).toBe(`frame-ancestors ${approved.origin}`);
    // What the browser sent is what openAsFrame imitates.
    expect(await launch.request().allHeaders()).toMatchObject({
      "sec-fetch-dest": "iframe",
      "sec-fetch-mode": "navigate",
      "sec-fetch-site": "cross-site",
      referer: `${approved.origin}/`,
    });
    expect(await launch.text()).not.toContain(token);
    const frame = page.frameLocator("#replay");
    await expect(frame.locator("[data-state]")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await expect(frame.getByText("Lane 1 · K1")).toBeVisible();
    await expect(frame.getByText("Lane 2 · C2")).toBeVisible();
    await expectBoatsDrawn(page);
  });

  test("another origin's frame is refused by the server (404) and by the browser (frame-ancestors); the launch stays usable", async ({
    page,
  }) => {
    const url = front.via(await launchUrl(page.request));
    const refusals: string[] = [];
    page.on("console", (message) => {
      if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
    });
    const served = page.waitForResponse((r) => r.url() === url);
    await page.mainFrame().goto(stranger.pageFor(url));
    const refused = await served;
    expect(refused.status()).toBe(404);
    expect(refused.headers()["content-security-policy"]).toBe(`frame-ancestors ${approved.origin}`);
    // What told the server: the stranger's origin in the Referer of an otherwise proper frame navigation.
    expect(await refused.request().allHeaders()).toMatchObject({
      "sec-fetch-dest": "iframe",
      "sec-fetch-mode": "navigate",
      referer: `${stranger.origin}/`,
    });
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    // The frame shows the browser's error page, never the player.
    expect(
      frame
        ? await frame
            .locator("[data-state]")
            .count()
            .catch(() => 0)
        : 0,
    ).toBe(0);

    // The same launch URL, framed afterwards by the approved origin, still plays.
    const played = page.waitForResponse((r) => r.url() === url);
    await page.mainFrame().goto(approved.pageFor(url));
    expect((await played).status()).toBe(200);
    await expect(page.frameLocator("#replay").locator("[data-state]")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  });

  test("opened as a top-level page or fetched by a plain client, a launch answers the 404 page and stays usable", async ({
    page,
    request,
  }) => {
    const url = await launchUrl(request);
    const topLevel = await page.goto(url);
    expect(topLevel!.status()).toBe(404);
    await expect(page.getByText("This replay link is no longer valid")).toBeVisible();
    expect(await page.locator("[data-state]").count()).toBe(0);

    for (const client of [anon, request]) {
      const plain = await client.get(url);
      expect(plain.status()).toBe(404);
      expect(plain.headers()["content-type"]).toContain("text/html");
      const html = await plain.text();
      expect(html).not.toMatch(ARTIFACT_URL);
      expect(html).not.toMatch(LEASE_CREDENTIAL);
    }
    // A forged Referer alone is not a frame navigation either.
    expect((await anon.get(url, { headers: { referer: `${approved.origin}/` } })).status()).toBe(404);

    // Nothing was consumed: the approved origin's frame gets the player, once.
    const framed = await openAsFrame(url);
    expect(framed.status()).toBe(200);
    expect([...(await framed.text()).matchAll(ARTIFACT_URL)].length).toBeGreaterThan(0);
    expect((await openAsFrame(url)).status()).toBe(404);
  });

  test("a launch URL and an artifact URL work once; the artifacts are exactly schema 1", async ({ request }) => {
    const url = await launchUrl(request);
    const first = await openAsFrame(url);
    expect(first.status()).toBe(200);
    const html = await first.text();
    const second = await openAsFrame(url);
    expect(second.status()).toBe(404);
    expect(second.headers()["content-type"]).toContain("text/html");
    expect(await openAsFrame("/api/v1/svcsim/launch/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").then((r) => r.status())).toBe(404);

    const tokens = [...new Set([...html.matchAll(ARTIFACT_URL)].map((m) => m[1]))];
    expect(tokens).toHaveLength(2);
    const models = [];
    for (const artifactToken of tokens) {
      const path = `/api/v1/svcsim/artifacts/${artifactToken}`;
      const response = await anon.get(path);
      expect(response.status()).toBe(200);
      expect(response.headers()["content-type"]).toBe("application/gzip");
      expect(response.headers()["content-encoding"]).toBeUndefined();
      const artifact = JSON.parse(gunzipSync(await response.body()).toString("utf8"));
      expectExactlySchema1(artifact);
      models.push(artifact.model_class);
      const again = await anon.get(path);
      expect(again.status()).toBe(404);
      expect(await again.json()).toMatchObject({ error: "not_found", request_id: expect.stringMatching(/^req_/) });
    }
    expect(models.sort()).toEqual(["C2", "K1"]);
  });

  test("the lease renews for ten minutes; an unknown credential is 401", async ({ request }) => {
    const html = await (await openAsFrame(await launchUrl(request))).text();
    const credential = LEASE_CREDENTIAL.exec(html)![1];
    const renewed = await anon.post("/api/v1/svcsim/leases", { data: { lease: credential } });
    expect(renewed.status()).toBe(200);
    const { data } = await renewed.json();
    expect(Math.abs(Date.parse(data.expires_at) - Date.now() - 600_000)).toBeLessThan(30_000);
    for (const body of [{ lease: "A".repeat(43) }, { lease: 5 }, "garbage", {}]) {
      const refused = await anon.post("/api/v1/svcsim/leases", { data: body });
      expect(refused.status()).toBe(401);
      expect(await refused.json()).toMatchObject({ error: "invalid_token", request_id: expect.stringMatching(/^req_/) });
      expect(refused.headers()["www-authenticate"]).toContain("Lease");
    }
  });

  test("an embed revoked through DELETE /svcsim/embeds/{id} ends its launch", async ({ request }) => {
    const created = await createEmbed(request, { session_ids: [sessionIds[0]], origin: approved.origin });
    const { data } = await created.json();
    const revoked = await call(
      request,
      api,
      { method: "delete", template: "/svcsim/embeds/{embed_id}", path: `/svcsim/embeds/${data.id}` },
      token,
    );
    expect(revoked.status).toBe(204);
    expect((await openAsFrame(data.launch_url)).status()).toBe(404);
    const unknown = await call(
      request,
      api,
      { method: "delete", template: "/svcsim/embeds/{embed_id}", path: `/svcsim/embeds/2000000000` },
      token,
    );
    expect(unknown.status).toBe(404);
  });

  test("the session page shows the replay to its owner, the share page to anyone with the link; the artifact routes guard it", async ({
    page,
    baseURL,
  }) => {
    await signIn(page, owner);
    // The sign-in must land before the next navigation, or that navigation cancels it.
    await page.waitForURL((url) => !url.pathname.startsWith("/signin"));
    await page.goto(`/sessions/${sessionIds[1]}`);
    const player = page.locator("[data-state]");
    await player.scrollIntoViewIfNeeded(); // three.js loads once the player nears the screen
    await expect(player).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await expect(page.getByText("Lane 1 · C2")).toBeVisible();
    await expectCanvasDrawn(player);
    expect((await anon.get(`/sessions/${sessionIds[1]}/replay`)).status()).toBe(404);
    const someoneElse = await signedInContext(baseURL!, await signUpOverHttp(baseURL!, "nosy"));
    expect((await someoneElse.get(`/sessions/${sessionIds[1]}/replay`)).status()).toBe(404);
    await someoneElse.dispose();

    const ownerContext = await signedInContext(baseURL!, owner);
    const own = await ownerContext.get(`/sessions/${sessionIds[1]}/replay`);
    expect(own.headers()["content-type"]).toBe("application/gzip");
    expectExactlySchema1(JSON.parse(gunzipSync(await own.body()).toString("utf8")));
    const { url: shareUrl } = await trpcMutation<{ url: string }>(ownerContext, "sessions.createShareLink", { resultId: sessionIds[0] });
    await ownerContext.dispose();
    const visitor = await page.context().browser()!.newPage();
    await visitor.goto(shareUrl);
    const shared = visitor.locator("[data-state]");
    await shared.scrollIntoViewIfNeeded();
    await expect(shared).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    await expect(visitor.getByText("Lane 1 · K1")).toBeVisible();
    await expectCanvasDrawn(shared);
    await visitor.close();
    expect((await anon.get(`${new URL(shareUrl).pathname}/replay`)).status()).toBe(200);
    expect((await anon.get(`/share/${"A".repeat(32)}/replay`)).status()).toBe(404);
  });

  test("after the grant is revoked the lease is refused: the player stops and says so, keeping its boats", async ({ page, request }) => {
    const url = await launchUrl(request);
    const pendingLaunch = await launchUrl(request);
    await page.clock.install();
    await page.mainFrame().goto(approved.pageFor(url)); // a club page: no hydration marker to wait for
    const frame = page.frameLocator("#replay");
    await expect(frame.locator("[data-state]")).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
    const html = await (await openAsFrame(await launchUrl(request))).text();
    const credential = LEASE_CREDENTIAL.exec(html)![1];

    const revocation = await request.delete("/api/v1/authorization", { headers: bearer(token) });
    expect(revocation.status()).toBe(204);
    const lease = await anon.post("/api/v1/svcsim/leases", { data: { lease: credential } });
    expect(lease.status()).toBe(401);
    // A launch created before the revocation and opened after it is 404.
    expect((await openAsFrame(pendingLaunch)).status()).toBe(404);

    const renewal = page.waitForResponse((r) => r.url().endsWith("/api/v1/svcsim/leases"));
    await page.clock.fastForward("05:00");
    expect((await renewal).status()).toBe(401);
    await expect(frame.getByText("replay no longer available")).toBeVisible();
    await expect(frame.locator("[data-state]")).toHaveAttribute("data-state", "revoked");
    await expectBoatsDrawn(page);
  });

  test("revoking an access token at the OAuth revocation endpoint ends the embeds of its grant", async ({ request, baseURL }) => {
    const { tokens, browser } = await authorizeAndExchange(baseURL!, app, {
      scope: EMBED_SCOPES.join(" "),
      tokenResource: apiResourceFor(baseURL!),
    });
    await browser.dispose();
    const html = await (await openAsFrame(await launchUrl(request, sessionIds, approved.origin, tokens.access_token))).text();
    const credential = LEASE_CREDENTIAL.exec(html)![1];
    const pending = await launchUrl(request, sessionIds, approved.origin, tokens.access_token);
    expect((await anon.post("/api/v1/svcsim/leases", { data: { lease: credential } })).status()).toBe(200);
    const revoked = await postForm(
      baseURL!,
      "/api/oauth/revoke",
      { token: tokens.access_token },
      { authorization: basicAuth(app.clientId, app.clientSecret!) },
    );
    expect(revoked.status()).toBe(200);
    expect((await anon.post("/api/v1/svcsim/leases", { data: { lease: credential } })).status()).toBe(401);
    expect((await openAsFrame(pending)).status()).toBe(404);
  });

  test("creating and revoking embeds pass the common authorization cases", async ({ request, baseURL }) => {
    const tokens: TokenSet = await tokenSet(baseURL!, request, owner);
    for (const op of [
      { method: "post" as const, template: "/svcsim/embeds", path: "/svcsim/embeds" },
      { method: "delete" as const, template: "/svcsim/embeds/{embed_id}", path: "/svcsim/embeds/1" },
    ]) {
      await expectCommonAuthCases(
        request,
        api,
        { ...op, method: op.method as "get" | "delete", scopes: ["sessions:read", "svcsim:embed"], surfaces: ["data", "partner"] },
        tokens,
      );
    }
  });
});

/** The artifact exactly as data-api.md defines it: five members, seven-number frames, nothing else. */
function expectExactlySchema1(artifact: Record<string, unknown>) {
  expect(Object.keys(artifact).sort()).toEqual(["frame_count", "frames", "model_class", "quantization", "schema"]);
  expect(artifact.schema).toBe(1);
  expect(artifact.quantization).toEqual({ position_m: 0.01, orientation_deg: 0.1 });
  const frames = artifact.frames as unknown[][];
  expect(artifact.frame_count).toBe(frames.length);
  expect(frames.length).toBeGreaterThan(30 * 20);
  // [x, 0, 0, roll, pitch, yaw, paddle_phase]: seven finite numbers, y and z zero, phase in [0, 2).
  const malformed = frames.filter(
    (f) =>
      !(
        Array.isArray(f) &&
        f.length === 7 &&
        f.every((v) => typeof v === "number" && Number.isFinite(v)) &&
        f[1] === 0 &&
        f[2] === 0 &&
        (f[6] as number) >= 0 &&
        (f[6] as number) < 2
      ),
  );
  expect(malformed.slice(0, 3), `${malformed.length} malformed frames`).toEqual([]);
}

/** A screenshot of the 640×360 frame shows lane 1's hull colour (#e4572e, lit): the boats were drawn, not only water. */
async function expectBoatsDrawn(page: Page) {
  const frame = page.locator("#replay");
  expect(await frame.boundingBox()).toMatchObject({ width: 640, height: 360 });
  await expectCanvasDrawn(frame);
}

async function expectCanvasDrawn(target: Locator) {
  const png = PNG.sync.read(await target.screenshot());
  let hull = 0;
  const colours = new Set<number>();
  for (let i = 0; i < png.data.length; i += 4) {
    const [r, g, b] = [png.data[i], png.data[i + 1], png.data[i + 2]];
    colours.add((r >> 4) * 256 + (g >> 4) * 16 + (b >> 4));
    if (r > 140 && r - g > 60 && r - b > 80) hull++;
  }
  expect(colours.size, "the canvas is not blank").toBeGreaterThan(20);
  expect(hull, "pixels of the lane-1 hull").toBeGreaterThan(30);
}
