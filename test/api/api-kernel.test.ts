import { beforeAll, describe, expect, it } from "vitest";
import { simulatedSvc } from "@/e2e/svc-files";
import { apiHarness } from "./harness";
import {
  call,
  dataApiToken,
  OpenApiCheck,
  personWithKey,
  resultsDocument,
  send,
  uploadRequest,
  ORIGIN,
  type Person,
} from "./results-client";

/** A database of the file's own (test/api/harness). */
apiHarness();

/**
 * Issue 14's conformance defects at the kernel of both APIs, each request as
 * the outside check sent it: hostile parameters (defect 1), JSON everywhere
 * under /api/v1 (2), the shared paths without a credential (3), a typed
 * metadata part (8), and the common authorization cases over every results
 * API operation.
 */
/** The one request id form of both APIs, body and header (issue 21: never a UUID). */
const REQUEST_ID = /^req_[0-9A-Za-z]{22}$/;

let results: OpenApiCheck;
let data: OpenApiCheck;
let person: Person;
let token: string;

beforeAll(async () => {
  results = await resultsDocument();
  data = await OpenApiCheck.load("data-api.json");
  person = await personWithKey("kernel");
  token = await dataApiToken(person.userId);
});

const withKey = (authorization = person.key.authorization) => ({ headers: { authorization } });
const bearer = () => ({ headers: { authorization: `Bearer ${token}` } });

describe("defect 1: hostile parameters are a 400 naming the parameter, never a 500", () => {
  it("query values on GET /results", async () => {
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
      const response = await call("GET", `/api/v1/results?${query}`, withKey());
      const body = await results.check("get", "/results", response);
      expect(response.status, query).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.message, query).toMatch(message);
    }
    const fine = await results.check(
      "get",
      "/results",
      await call("GET", "/api/v1/results?vessel_id=2147483647&start_datetime=2024-02-29T10:00", withKey()),
    );
    expect(fine.pagination.total).toBe(0);
  });

  it("the same bounds on the Data API's parameters", async () => {
    for (const [path, template, message] of [
      ["/sessions?competition=%00", "/sessions", /^competition/],
      ["/sessions?track_id=9999999999", "/sessions", /^track_id/],
      ["/sessions?date_from=2021-02-29", "/sessions", /^date_from/],
      ["/sessions/4294967296", "/sessions/{session_id}", /^session_id/],
      ["/sessions?cursor=%00", "/sessions", /^cursor/],
    ] as const) {
      const response = await call("GET", `/api/v1${path}`, bearer());
      const body = await data.check("get", template, response);
      expect(response.status, path).toBe(400);
      expect(body.error_description, path).toMatch(message);
    }
  });

  it("NUL characters and out-of-range ids in the upload's metadata are 400", async () => {
    // The unlimited-externals privilege lets a K1 carry an external athlete: every case reaches the field it tests.
    const uploader = await personWithKey("nul-uploader", { unlimitedExternals: true });
    const trackId = await uploader.track("NUL basin");
    const metadata = (overrides: Record<string, unknown>) =>
      JSON.stringify({
        distance: 500,
        vessel_id: 1,
        track_id: trackId,
        category_id: 1,
        pace_id: 1,
        athletes: [{ name: "Guest" }],
        ...overrides,
      });
    const file = { bytes: simulatedSvc({ vessel: "K1", distanceM: 500, seed: 901 }), filename: "s.svc" };
    for (const [overrides, message] of [
      [{ competition: "Trials\u0000" }, /^competition/],
      [{ description: "a\u0000b" }, /^description/],
      [{ athletes: [{ name: "Gu\u0000est" }] }, /^athletes\[0\]\.name/],
      [{ athletes: [{ name: "Guest", surname: "\ud800" }] }, /^athletes\[0\]\.surname/],
      [{ vessel_id: 2 ** 53 }, /^vessel_id/],
      [{ track_id: 4294967296 }, /^track_id/],
      [{ athletes: [2147483648] }, /^athletes\[0\]/],
    ] as const) {
      const response = await send(
        await uploadRequest(
          { file, metadata: metadata(overrides) },
          { authorization: uploader.key.authorization, "x-forwarded-proto": "https" },
        ),
      );
      const body = await results.check("post", "/results", response);
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      expect(body.message).toMatch(message);
    }
  });
});

describe("defect 2: JSON everywhere under /api/v1", () => {
  it("unknown paths are a JSON 404 in the shape of the credential's API", async () => {
    for (const path of ["/api/v1/no-such-operation", "/api/v1/results/1/pdf/extra", "/api/v1/sessions/1/no-such-part", "/api/v1/"]) {
      const anonymous = await call("GET", path);
      expect(anonymous.status, path).toBe(404);
      expect(anonymous.headers.get("content-type")).toContain("application/json");
      expect(await anonymous.json()).toEqual({
        error: "not_found",
        message: expect.stringContaining("No operation"),
        request_id: anonymous.headers.get("x-request-id"),
      });
      expect(anonymous.headers.get("x-request-id")).toMatch(REQUEST_ID);

      const keyed = await call("POST", path, withKey());
      expect(keyed.status).toBe(404);
      expect(await keyed.json()).toMatchObject({ error: "not_found", message: expect.any(String) });

      const tokened = await call("GET", path, bearer());
      expect(tokened.status).toBe(404);
      expect(await tokened.json()).toEqual({
        error: "not_found",
        error_description: expect.any(String),
        request_id: tokened.headers.get("x-request-id"),
      });
      expect(tokened.headers.get("x-request-id")).toMatch(REQUEST_ID);
    }
  });

  it("an unsupported method is a JSON 405 with Allow", async () => {
    const put = await call("PUT", "/api/v1/results", withKey());
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST, HEAD, OPTIONS");
    expect(await put.json()).toMatchObject({
      error: "method_not_allowed",
      message: expect.stringContaining("PUT"),
      request_id: put.headers.get("x-request-id"),
    });
    expect(put.headers.get("x-request-id")).toMatch(REQUEST_ID);

    const patch = await call("PATCH", "/api/v1/results/1", { body: "{}" });
    expect(patch.status).toBe(405);
    expect(patch.headers.get("allow")).toBe("GET, DELETE, HEAD, OPTIONS");
    expect((await patch.json()).request_id).toMatch(REQUEST_ID);

    const del = await call("DELETE", "/api/v1/sessions", bearer());
    expect(del.status).toBe(405);
    expect(del.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await del.json()).toEqual({
      error: "method_not_allowed",
      error_description: expect.stringContaining("DELETE"),
      request_id: del.headers.get("x-request-id"),
    });
    expect(del.headers.get("x-request-id")).toMatch(REQUEST_ID);

    const options = await call("OPTIONS", "/api/v1/results/1");
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, DELETE, HEAD, OPTIONS");

    const health = await call("POST", "/api/v1/health");
    expect(health.status).toBe(405);
    expect(health.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });
});

it("defect 3: GET /tracks and /tracks/{id} without a credential satisfy both documents", async () => {
  for (const [path, resultsTemplate, dataTemplate] of [
    ["/api/v1/tracks", "/tracks", "/tracks"],
    ["/api/v1/tracks/1", "/tracks/{id}", "/tracks/{track_id}"],
  ] as const) {
    const response = await call("GET", path);
    expect(response.status).toBe(401);
    const body = await results.check("get", resultsTemplate, response);
    await data.check("get", dataTemplate, response);
    expect(body).toEqual({
      error: "unauthorized",
      message: expect.any(String),
      error_description: body.message,
      request_id: response.headers.get("x-request-id"),
    });
    expect(body.request_id).toMatch(REQUEST_ID);
  }
});

it("defect 8: a metadata part with Content-Type application/json is accepted, and the document says so", async () => {
  const doc = results.doc as unknown as {
    paths: Record<string, { post: { requestBody: { content: Record<string, { encoding: Record<string, { contentType: string }> }> } } }>;
  };
  expect(doc.paths["/results"].post.requestBody.content["multipart/form-data"].encoding.metadata.contentType).toContain("application/json");
  const uploader = await personWithKey("typedmeta");
  const trackId = await uploader.track("Typed basin");
  const athleteId = await uploader.athlete({ name: "Tia", subscriptionActiveUntil: "2099-12-31" });
  const metadata = JSON.stringify({ distance: 500, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] });
  // Exactly what `curl -F 'metadata=<m.json;type=application/json' -F file=@s.svc` sends: a typed part without a file name.
  const boundary = "----kernel-typed-metadata";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\nContent-Type: application/json\r\n\r\n${metadata}\r\n`,
    ),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.svc"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    simulatedSvc({ vessel: "K1", distanceM: 500, seed: 902 }),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers = {
    authorization: uploader.key.authorization,
    "x-forwarded-proto": "https",
    "content-type": `multipart/form-data; boundary=${boundary}`,
    "content-length": String(body.length),
  };
  const response = await send(new Request(`${ORIGIN}/api/v1/results`, { method: "POST", headers, body: new Uint8Array(body) }));
  const created = await results.check("post", "/results", response);
  expect(response.status, JSON.stringify(created)).toBe(201);
  expect(created.data.track).toEqual({ id: trackId, name: "Typed basin" });
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

it("the common authorization cases over every results API operation", async () => {
  const documented = Object.entries(results.doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
  expect(documented.sort()).toEqual([...RESULTS_OPERATIONS.map((op) => `${op.method} ${op.template}`), "get /health"].sort());

  const revoked = await personWithKey("revokedkernel");
  await revoked.revoke(revoked.key);
  for (const op of RESULTS_OPERATIONS) {
    const label = `${op.method} ${op.path}`;
    const sendWith = (authorization?: string) =>
      call(op.method.toUpperCase(), `/api/v1${op.path}`, {
        headers: { ...(authorization ? { authorization } : {}), "x-forwarded-proto": "https" },
      });
    const cases: [string | undefined, RegExp][] = [
      [undefined, /Authorization header missing/],
      ["Bearer svcpk_doesnotexist.svcsk_nope", /invalid/],
      [`Bearer ${person.key.publicKey}.svcsk_wrong`, /invalid/],
      [revoked.key.authorization, /invalid/],
      ...(op.auth === "secret" ? ([[`Bearer ${person.key.publicKey}`, /Secret key not supplied/]] as [string, RegExp][]) : []),
    ];
    for (const [authorization, message] of cases) {
      const response = await sendWith(authorization);
      const body = await results.check(op.method, op.template, response);
      expect(response.status, `${label} ${authorization ?? "no credential"}`).toBe(401);
      expect(body).toMatchObject({ error: "unauthorized", request_id: response.headers.get("x-request-id") });
      expect(body.message, label).toMatch(message);
      expect(response.headers.get("www-authenticate"), label).toMatch(/^Bearer /);
    }
    if (op.auth === "public") expect((await sendWith(`Bearer ${person.key.publicKey}`)).status, label).toBe(200);
  }
});
