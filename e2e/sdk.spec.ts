import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import {
  createDataApiClient,
  createResultsApiClient,
  downloadExport,
  isPaddleApiError,
  PaddleApiError,
  paginateCursor,
  paginatePages,
  unwrap,
  uploadResult,
  waitForExport,
  type DataApiClient,
} from "../packages/sdk/src/index";
import { createKeyPair, signUpOverHttp, trpcMutation } from "./api-helpers";
import { anna, DATA_SCOPES, dataApiToken } from "./data-api-helpers";
import { DATA_WORLD } from "./data-api-world";
import { apiResourceFor, authorizeAndExchange, refresh, registerApp } from "./oauth-helpers";
import { simulatedSvc } from "./svc-files";

/**
 * The SDK (packages/sdk) against the real server (`next start`, Postgres,
 * the seeded Data API world): what an integrator does with it first. Tokens
 * come through the real OAuth flow and key pairs through the portal's own
 * endpoint, as in the other API specs. Webhook verification is tested
 * against the reference implementation in packages/sdk/src/webhooks.test.ts.
 */
test.describe.configure({ mode: "serial" });

let dataApi: DataApiClient;
let baseUrl: string;

test.beforeAll(async ({ baseURL }) => {
  baseUrl = baseURL!;
  dataApi = createDataApiClient({ baseUrl, accessToken: (await dataApiToken(baseUrl, anna, { scopes: DATA_SCOPES })).token });
});

test("Data API: paginateCursor walks a list to its end, the same items as one long page", async () => {
  const walked: number[] = [];
  for await (const session of paginateCursor((cursor) => dataApi.GET("/sessions", { params: { query: { limit: 2, cursor } } })))
    walked.push(session.id);
  const whole = await unwrap(dataApi.GET("/sessions", { params: { query: { limit: 100 } } }));
  expect(whole.meta.next_cursor).toBeNull();
  expect(walked.length).toBeGreaterThan(2);
  expect(walked).toEqual(whole.data.map((s) => s.id));
});

test("results API: paginatePages walks the pages to the end; reference tables take the public key alone", async () => {
  const key = await createKeyPair(baseUrl, anna, "sdk paging");
  const resultsApi = createResultsApiClient({ baseUrl, publicKey: key.publicKey, secretKey: key.secretKey });
  const walked: number[] = [];
  for await (const result of paginatePages((page) => resultsApi.GET("/results", { params: { query: { page, per_page: 2 } } })))
    walked.push(result.id);
  const whole = await unwrap(resultsApi.GET("/results", { params: { query: { per_page: 100 } } }));
  expect(walked.length).toBe(whole.pagination.total);
  expect(walked.length).toBeGreaterThan(2);
  expect(walked).toEqual(whole.data.map((r) => r.id));

  const publicOnly = createResultsApiClient({ baseUrl, publicKey: key.publicKey });
  const vessels = await unwrap(publicOnly.GET("/vessels", { params: { query: { per_page: 100 } } }));
  expect(vessels.data.map((v) => v.type)).toContain("K1");
  // The public key alone is refused where the secret is needed: a typed error with the request id of the header.
  const refused = await publicOnly.GET("/results");
  const error = await unwrap(refused).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PaddleApiError);
  expect(error).toMatchObject({ status: 401, code: "unauthorized", requestId: refused.response.headers.get("x-request-id") });
  await key.context.dispose();
});

test("Data API: an export from request to download", async () => {
  const sessions = await unwrap(dataApi.GET("/sessions", { params: { query: { limit: 100, competition: "World trial" } } }));
  const sessionId = sessions.data[0].id;
  const created = await unwrap(
    dataApi.POST("/sessions/{session_id}/exports", {
      params: { path: { session_id: sessionId }, header: { "Idempotency-Key": randomUUID() } },
      body: { format: "json" },
    }),
  );
  expect(created.data.status).toMatch(/^(queued|running|succeeded)$/);
  const job = await waitForExport(dataApi, created.data.job_id, { timeoutMs: 40_000 });
  expect(job).toMatchObject({ status: "succeeded", session_id: sessionId, format: "json" });
  const file = await downloadExport(dataApi, job.job_id);
  expect(file.contentType).toContain("application/json");
  expect(file.filename).toMatch(/\.json$/);
  const exported = JSON.parse(new TextDecoder().decode(file.bytes));
  expect(JSON.stringify(exported)).toContain(String(sessions.data[0].distance_m));
});

test("Data API: a training's sets, and one set's strokes through the cursor iterator", async () => {
  let trainingId: number | undefined;
  for await (const training of paginateCursor((cursor) => dataApi.GET("/trainings", { params: { query: { cursor, limit: 2 } } }))) {
    if (training.title === DATA_WORLD.trainings.annaTemplated.title) trainingId = training.id;
  }
  expect(trainingId).toBeDefined();
  const training = await unwrap(dataApi.GET("/trainings/{training_id}", { params: { path: { training_id: trainingId! } } }));
  const work = training.data.sets.filter((s) => s.kind === "work");
  expect(work).toHaveLength(4);
  const set = work[1];
  const indices: number[] = [];
  for await (const stroke of paginateCursor((cursor) =>
    dataApi.GET("/trainings/{training_id}/sets/{set_id}/strokes", {
      params: { path: { training_id: trainingId!, set_id: set.set_id }, query: { cursor, limit: 25 } },
    }),
  )) {
    indices.push(stroke.index);
  }
  // Every stroke of the set once, in order, across pages of 25.
  expect(indices.length).toBe(set.stroke_count);
  expect(indices.length).toBeGreaterThan(25);
  expect(indices).toEqual([...indices].sort((a, b) => a - b));
  expect(new Set(indices).size).toBe(indices.length);
  // A set of this training that does not exist: the typed 404, request id included.
  const missing = await unwrap(
    dataApi.GET("/trainings/{training_id}/sets/{set_id}/strokes", {
      params: { path: { training_id: trainingId!, set_id: 2_000_000_000 } },
    }),
  ).catch((e: unknown) => e);
  expect(isPaddleApiError(missing, "not_found")).toBe(true);
  expect((missing as PaddleApiError).requestId).toMatch(/\S/);
});

test("results API: an upload through uploadResult, read back; the same file again is a typed 409", async () => {
  const owner = await signUpOverHttp(baseUrl, "sdk-uploader");
  const key = await createKeyPair(baseUrl, owner, "sdk upload");
  const trackId = (await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "SDK basin" })).id;
  const athleteId = (
    await trpcMutation<{ id: number }>(key.context, "athletes.create", {
      name: "Sdk",
      surname: "Paddler",
      subscriptionActiveUntil: "2099-12-31",
    })
  ).id;
  // The test server sits behind a (pretend) TLS proxy: TRUST_PROXY=1 and the header the proxy would set.
  const resultsApi = createResultsApiClient({
    baseUrl,
    publicKey: key.publicKey,
    secretKey: key.secretKey,
    headers: { "X-Forwarded-Proto": "https" },
  });
  const file = simulatedSvc({ vessel: "K1", distanceM: 500, seed: 7301 });
  const metadata = {
    distance: 500,
    vessel_id: 1,
    track_id: trackId,
    category_id: 1,
    pace_id: 1,
    athletes: [athleteId],
    competition: "SDK trial",
  };
  const uploaded = await uploadResult(resultsApi, {
    file: new Uint8Array(file),
    filename: "sdk.svc",
    metadata,
    idempotencyKey: randomUUID(),
  });
  expect(uploaded.data).toMatchObject({ dist: 500, track: { id: trackId }, athletes_count: 1 });
  const read = await unwrap(resultsApi.GET("/results/{id}", { params: { path: { id: uploaded.data.id } } }));
  expect(read.data).toMatchObject({ id: uploaded.data.id, competition: "SDK trial", athletes: [{ id: athleteId }] });
  expect(read.data.data_strokes?.strokes.length).toBeGreaterThan(50);

  const again = await uploadResult(resultsApi, { file: new Uint8Array(file), filename: "sdk.svc", metadata }).catch((e: unknown) => e);
  expect(again).toBeInstanceOf(PaddleApiError);
  expect(again).toMatchObject({ status: 409, code: "conflict", body: { existing_result_id: uploaded.data.id } });
  expect((again as PaddleApiError).requestId).toMatch(/\S/);
  await key.context.dispose();
});

test("Data API: a refused token is refreshed through the callback once and the request repeated", async () => {
  const app = await registerApp(
    baseUrl,
    { surface: "data", scopes: ["openid", "offline_access", "sessions:read"], name: "SDK refresh app" },
    anna,
  );
  const { tokens, browser } = await authorizeAndExchange(baseUrl, app, {
    scope: "openid offline_access sessions:read",
    tokenResource: apiResourceFor(baseUrl),
  });
  await browser.dispose();
  let refreshToken = tokens.refresh_token!;
  let refreshes = 0;
  const client = createDataApiClient({
    baseUrl,
    accessToken: "an-expired-token",
    refreshAccessToken: async () => {
      refreshes++;
      const response = await refresh(baseUrl, app, refreshToken);
      expect(response.status()).toBe(200);
      const rotated = await response.json();
      refreshToken = rotated.refresh_token; // refresh tokens rotate: keep the new one
      return rotated.access_token;
    },
  });
  // Two requests at once share one refresh.
  const [me, again] = await Promise.all([unwrap(client.GET("/me")), unwrap(client.GET("/me"))]);
  expect(me.data.sub).toMatch(/\S/);
  expect(again.data.sub).toBe(me.data.sub);
  expect(refreshes).toBe(1);
  await unwrap(client.GET("/sessions", { params: { query: { limit: 1 } } }));
  expect(refreshes).toBe(1);

  const without = createDataApiClient({ baseUrl, accessToken: "an-expired-token" });
  const error = await unwrap(without.GET("/me")).catch((e: unknown) => e);
  expect(error).toMatchObject({ status: 401, code: "invalid_token" });
});
