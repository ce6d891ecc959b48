import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E_ACCOUNTS } from "./accounts";
import { createKeyPair, signUpOverHttp, trpcMutation, type ApiKey } from "./api-helpers";
import { anna, bearer, dataApiToken, loadDataApi } from "./data-api-helpers";
import { OpenApiValidator } from "./openapi-validator";
import { simulatedSvc } from "./svc-files";

/**
 * Issue 14's conformance defects at the kernel of both APIs, each request as
 * the outside check sent it: hostile parameters (defect 1), JSON everywhere
 * under /api/v1 (2), the shared paths without a credential (3), a typed
 * metadata part (8), a repeated file (13), and the common authorization
 * cases over every results API operation.
 */
type Key = ApiKey & { context: APIRequestContext };
/** The one request id form of both APIs, body and header (issue 21: never a UUID). */
const REQUEST_ID = /^req_[0-9A-Za-z]{22}$/;

let results: OpenApiValidator;
let data: OpenApiValidator;
let key: Key;
let token: string;

test.beforeAll(async ({ request, baseURL }) => {
  results = await OpenApiValidator.load(request, "/api/docs/results-api.json");
  data = await loadDataApi(request);
  key = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "kernel"));
  token = (await dataApiToken(baseURL!, anna)).token;
});
test.afterAll(async () => key.context.dispose());

test("defect 1: hostile query values on GET /results are 400 naming the parameter, never 500", async ({ request }) => {
  const cases: [string, RegExp][] = [
    ["competition=%00", /^competition/],
    ["description=a%00b", /^description/],
    ["vessel_id=9999999999", /^vessel_id/],
    ["dist=9999999999", /^dist/],
    ["hardware_id=9999999999", /^hardware_id/],
    ["athlete_id=4294967296", /^athlete_id/],
    ["track_id=9999999999", /^track_id/],
    ["category_id=4294967296", /^category_id/],
    ["pace_id=2147483648", /^pace_id/],
    ["start_datetime=2020-02-30T10:00", /^start_datetime/],
    ["start_datetime=2021-02-29T10:00:00Z", /^start_datetime/],
    ["end_datetime=2025-01-01T10:00:00%2B23:00", /^end_datetime/],
    ["start_date=2021-02-29", /^start_date/],
    ["page=9007199254740993", /^page/],
  ];
  for (const [query, message] of cases) {
    const response = await request.get(`/api/v1/results?${query}`, { headers: { authorization: key.authorization } });
    const body = await results.check("get", "/results", response);
    expect(response.status(), query).toBe(400);
    expect(body.error).toBe("invalid_request");
    expect(body.message, query).toMatch(message);
  }
  const fine = await results.check("get", "/results", await request.get("/api/v1/results?vessel_id=2147483647&start_datetime=2024-02-29T10:00", { headers: { authorization: key.authorization } }));
  expect(fine.pagination.total).toBe(0);
});

test("defect 1: the same bounds on the Data API's parameters", async ({ request }) => {
  for (const [path, template, message] of [
    ["/sessions?competition=%00", "/sessions", /^competition/],
    ["/sessions?track_id=9999999999", "/sessions", /^track_id/],
    ["/sessions?date_from=2021-02-29", "/sessions", /^date_from/],
    ["/sessions/4294967296", "/sessions/{session_id}", /^session_id/],
    ["/sessions?cursor=%00", "/sessions", /^cursor/],
  ] as const) {
    const response = await request.get(`/api/v1${path}`, { headers: bearer(token) });
    const body = await data.check("get", template, response);
    expect(response.status(), path).toBe(400);
    expect(body.error_description, path).toMatch(message);
  }
});

test("defect 1: NUL characters in the upload's text fields are 400", async ({ request, baseURL }) => {
  // The privileged account may crew a K1 with an external athlete: every case reaches the field it tests.
  const uploader = await createKeyPair(baseURL!, E2E_ACCOUNTS.privileged, "NUL uploads");
  const trackId = (await trpcMutation<{ id: number }>(uploader.context, "tracks.create", { name: "NUL basin" })).id;
  const metadata = (overrides: Record<string, unknown>) => JSON.stringify({ distance: 500, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [{ name: "Guest" }], ...overrides });
  for (const [overrides, message] of [
    [{ competition: "Trials\u0000" }, /^competition/],
    [{ description: "a\u0000b" }, /^description/],
    [{ athletes: [{ name: "Gu\u0000est" }] }, /^athletes\[0\]\.name/],
    [{ athletes: [{ name: "Guest", surname: "\ud800" }] }, /^athletes\[0\]\.surname/],
    [{ vessel_id: 2 ** 53 }, /^vessel_id/],
    [{ track_id: 4294967296 }, /^track_id/],
    [{ athletes: [2147483648] }, /^athletes\[0\]/],
  ] as const) {
    const response = await request.post("/api/v1/results", {
      headers: { authorization: uploader.authorization, "x-forwarded-proto": "https" },
      multipart: { file: { name: "s.svc", mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel: "K1", distanceM: 500, seed: 901 }) }, metadata: metadata(overrides) },
    });
    const body = await results.check("post", "/results", response);
    expect(response.status(), JSON.stringify(overrides)).toBe(400);
    expect(body.message).toMatch(message);
  }
  await uploader.context.dispose();
});

test("defect 2: unknown paths are a JSON 404 in the shape of the credential's API", async ({ request }) => {
  for (const path of ["/api/v1/no-such-operation", "/api/v1/results/1/pdf/extra", "/api/v1/sessions/1/no-such-part", "/api/v1/"]) {
    const anonymous = await request.get(path);
    expect(anonymous.status(), path).toBe(404);
    expect(anonymous.headers()["content-type"]).toContain("application/json");
    expect(await anonymous.json()).toEqual({ error: "not_found", message: expect.stringContaining("No operation"), request_id: anonymous.headers()["x-request-id"] });
    expect(anonymous.headers()["x-request-id"]).toMatch(REQUEST_ID);

    const withKey = await request.post(path, { headers: { authorization: key.authorization } });
    expect(withKey.status()).toBe(404);
    expect(await withKey.json()).toMatchObject({ error: "not_found", message: expect.any(String) });

    const withToken = await request.get(path, { headers: bearer(token) });
    expect(withToken.status()).toBe(404);
    expect(await withToken.json()).toEqual({ error: "not_found", error_description: expect.any(String), request_id: withToken.headers()["x-request-id"] });
    expect(withToken.headers()["x-request-id"]).toMatch(REQUEST_ID);
  }
});

test("defect 2: an unsupported method is a JSON 405 with Allow", async ({ request }) => {
  const put = await request.put("/api/v1/results", { headers: { authorization: key.authorization } });
  expect(put.status()).toBe(405);
  expect(put.headers()["allow"]).toBe("GET, POST, HEAD, OPTIONS");
  expect(await put.json()).toMatchObject({ error: "method_not_allowed", message: expect.stringContaining("PUT"), request_id: put.headers()["x-request-id"] });
  expect(put.headers()["x-request-id"]).toMatch(REQUEST_ID);

  const patch = await request.patch("/api/v1/results/1", {});
  expect(patch.status()).toBe(405);
  expect(patch.headers()["allow"]).toBe("GET, DELETE, HEAD, OPTIONS");
  expect((await patch.json()).request_id).toMatch(REQUEST_ID);

  const del = await request.delete("/api/v1/sessions", { headers: bearer(token) });
  expect(del.status()).toBe(405);
  expect(del.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
  expect(await del.json()).toEqual({ error: "method_not_allowed", error_description: expect.stringContaining("DELETE"), request_id: del.headers()["x-request-id"] });
  expect(del.headers()["x-request-id"]).toMatch(REQUEST_ID);

  const options = await request.fetch("/api/v1/results/1", { method: "OPTIONS" });
  expect(options.status()).toBe(204);
  expect(options.headers()["allow"]).toBe("GET, DELETE, HEAD, OPTIONS");

  const health = await request.post("/api/v1/health");
  expect(health.status()).toBe(405);
  expect(health.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
});

test("defect 3: GET /tracks and /tracks/{id} without a credential satisfy both documents", async ({ request }) => {
  for (const [path, resultsTemplate, dataTemplate] of [
    ["/api/v1/tracks", "/tracks", "/tracks"],
    ["/api/v1/tracks/1", "/tracks/{id}", "/tracks/{track_id}"],
  ] as const) {
    const response = await request.get(path);
    expect(response.status()).toBe(401);
    const body = await results.check("get", resultsTemplate, response);
    await data.check("get", dataTemplate, response);
    expect(body).toEqual({ error: "unauthorized", message: expect.any(String), error_description: body.message, request_id: response.headers()["x-request-id"] });
    expect(body.request_id).toMatch(REQUEST_ID);
  }
});

test("defect 8: a metadata part with Content-Type application/json is accepted, and the document says so", async ({ request, baseURL }) => {
  const doc = await (await request.get("/api/docs/results-api.json")).json();
  expect(doc.paths["/results"].post.requestBody.content["multipart/form-data"].encoding.metadata.contentType).toContain("application/json");
  const uploader = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "typedmeta"));
  const trackId = (await trpcMutation<{ id: number }>(uploader.context, "tracks.create", { name: "Typed basin" })).id;
  const athleteId = (await trpcMutation<{ id: number }>(uploader.context, "athletes.create", { name: "Tia", subscriptionActiveUntil: "2099-12-31" })).id;
  const metadata = JSON.stringify({ distance: 500, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] });
  // Exactly what `curl -F 'metadata=<m.json;type=application/json' -F file=@s.svc` sends: a typed part without a file name.
  const boundary = "----kernel-typed-metadata";
  const file = simulatedSvc({ vessel: "K1", distanceM: 500, seed: 902 });
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\nContent-Type: application/json\r\n\r\n${metadata}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.svc"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await request.post("/api/v1/results", {
    headers: { authorization: uploader.authorization, "x-forwarded-proto": "https", "content-type": `multipart/form-data; boundary=${boundary}` },
    data: body,
  });
  const created = await results.check("post", "/results", response);
  expect(response.status(), JSON.stringify(created)).toBe(201);
  expect(created.data.track).toEqual({ id: trackId, name: "Typed basin" });
  await uploader.context.dispose();
});

const RESULTS_OPERATIONS: { method: "get" | "post" | "delete"; template: string; path: string; auth: "secret" | "public" }[] = [
  { method: "get", template: "/results", path: "/results", auth: "secret" },
  { method: "post", template: "/results", path: "/results", auth: "secret" },
  { method: "get", template: "/results/{id}", path: "/results/1", auth: "secret" },
  { method: "delete", template: "/results/{id}", path: "/results/1", auth: "secret" },
  { method: "get", template: "/results/{id}/pdf", path: "/results/1/pdf", auth: "secret" },
  ...(["vessels", "categories", "paces"] as const).flatMap((kind) => [
    { method: "get" as const, template: `/${kind}`, path: `/${kind}`, auth: "public" as const },
    { method: "get" as const, template: `/${kind}/{id}`, path: `/${kind}/1`, auth: "public" as const },
  ]),
  { method: "get", template: "/tracks", path: "/tracks", auth: "secret" },
  { method: "get", template: "/tracks/{id}", path: "/tracks/1", auth: "secret" },
  { method: "get", template: "/athletes", path: "/athletes", auth: "secret" },
  { method: "get", template: "/athletes/{id}", path: "/athletes/1", auth: "secret" },
];

test("the common authorization cases over every results API operation", async ({ request, baseURL }) => {
  const doc = await (await request.get("/api/docs/results-api.json")).json();
  const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
  expect(documented.sort()).toEqual([...RESULTS_OPERATIONS.map((op) => `${op.method} ${op.template}`), "get /health"].sort());

  const revoked = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "revokedkernel"));
  await trpcMutation(revoked.context, "keys.revoke", { id: revoked.id });
  for (const op of RESULTS_OPERATIONS) {
    const label = `${op.method} ${op.path}`;
    const send = (authorization?: string) => request[op.method](`/api/v1${op.path}`, { headers: { ...(authorization ? { authorization } : {}), "x-forwarded-proto": "https" } });
    const cases: [string | undefined, RegExp][] = [
      [undefined, /Authorization header missing/],
      ["Bearer svcpk_doesnotexist.svcsk_nope", /invalid/],
      [`Bearer ${key.publicKey}.svcsk_wrong`, /invalid/],
      [revoked.authorization, /invalid/],
      ...(op.auth === "secret" ? ([[`Bearer ${key.publicKey}`, /Secret key not supplied/]] as [string, RegExp][]) : []),
    ];
    for (const [authorization, message] of cases) {
      const response = await send(authorization);
      const body = await results.check(op.method, op.template, response);
      expect(response.status(), `${label} ${authorization ?? "no credential"}`).toBe(401);
      expect(body).toMatchObject({ error: "unauthorized", request_id: response.headers()["x-request-id"] });
      expect(body.message, label).toMatch(message);
      expect(response.headers()["www-authenticate"], label).toMatch(/^Bearer /);
    }
    if (op.auth === "public") expect((await send(`Bearer ${key.publicKey}`)).status(), label).toBe(200);
  }
  await revoked.context.dispose();
});
