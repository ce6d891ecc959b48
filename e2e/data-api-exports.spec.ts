import { expect, test } from "./fixtures";
import { anna, bearer, call, dataApiToken, expectCommonAuthCases, loadDataApi, olaf, tokenSet, walkPages, type OperationCase, type TokenSet } from "./data-api-helpers";
import type { OpenApiValidator } from "./openapi-validator";
import type { APIRequestContext } from "@playwright/test";

/**
 * Data API exports against the seeded world: create (202, Location,
 * Retry-After), poll, download; Idempotency-Key; the job bound to its
 * application and person; every answer validated against the served document.
 */
type Session = { id: number; competition: string; boat_class: { type: string } };

test.describe.configure({ mode: "serial" });

const CREATE = "/sessions/{session_id}/exports";
const STATUS = "/exports/{job_id}";
const DOWNLOAD = "/exports/{job_id}/download";

/** POSTs an export request, validates the answer against the document. */
async function createExport(request: APIRequestContext, api: OpenApiValidator, sessionId: number, token: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await request.post(`/api/v1/sessions/${sessionId}/exports`, {
    headers: { ...bearer(token), "content-type": "application/json", ...headers },
    data: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
  });
  return { status: response.status(), body: await api.check("post", CREATE, response), response };
}

/** Polls the status document, honouring Retry-After, until the job is final. */
async function pollUntilFinal(request: APIRequestContext, api: OpenApiValidator, jobId: string, token: string) {
  for (let i = 0; i < 60; i++) {
    const { status, body, response } = await call(request, api, { template: STATUS, path: `/exports/${jobId}` }, token);
    expect(status).toBe(200);
    if (["succeeded", "failed", "expired"].includes(body.data.status)) {
      expect(response.headers()["retry-after"]).toBeUndefined();
      return body.data;
    }
    expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`export ${jobId} never finished`);
}

test.describe("Data API: exports", () => {
  let api: OpenApiValidator;
  let tokens: TokenSet;
  let olafToken: string;
  let annaK1: number;
  let olafOnly: number;

  test.beforeAll(async ({ request, baseURL }) => {
    test.setTimeout(120_000);
    api = await loadDataApi(request);
    tokens = await tokenSet(baseURL!, request, anna);
    olafToken = (await dataApiToken(baseURL!, olaf)).token;
    const mine: Session[] = await walkPages(request, api, "/sessions", "/sessions?limit=100", tokens.full);
    annaK1 = mine.find((s) => s.competition === "World trial")!.id;
    const his: Session[] = await walkPages(request, api, "/sessions", "/sessions?limit=100", olafToken);
    olafOnly = his.find((s) => !mine.some((m) => m.id === s.id))!.id;
  });

  test("create → 202 with Location and Retry-After → poll → download the file", async ({ request }) => {
    const created = await createExport(request, api, annaK1, tokens.full, { format: "json", splits: 5 });
    expect(created.status).toBe(202);
    const job = created.body.data;
    expect(job).toMatchObject({ status: "queued", format: "json", session_id: annaK1, athlete: 1, splits: 5, lang: "en", progress: 0, error: null });
    expect(job.job_id).toMatch(/^exp_[A-Za-z0-9_-]{22}$/);
    expect(created.response.headers()["location"]).toBe(job.links.self);
    expect(job.links.self).toMatch(new RegExp(`/api/v1/exports/${job.job_id}$`));
    expect(Number(created.response.headers()["retry-after"])).toBeGreaterThan(0);

    const before = await call(request, api, { template: DOWNLOAD, path: `/exports/${job.job_id}/download` }, tokens.full);
    // Nothing to download until the job succeeded (the worker may already have finished).
    if (before.status !== 200) expect(before.body.error).toBe("not_found");

    const done = await pollUntilFinal(request, api, job.job_id, tokens.full);
    expect(done).toMatchObject({ status: "succeeded", progress: 100, error: null, links: { download: `${job.links.self}/download` } });
    expect(Date.parse(done.expires_at) - Date.parse(done.finished_at)).toBe(24 * 3600_000);

    const file = await request.get(`/api/v1/exports/${job.job_id}/download`, { headers: bearer(tokens.full) });
    expect(file.status()).toBe(200);
    await api.check("get", DOWNLOAD, file);
    expect(file.headers()["content-type"]).toContain("application/json");
    expect(file.headers()["content-disposition"]).toMatch(/^attachment; filename="[^"]+\.json"/);
    expect(JSON.parse((await file.body()).toString("utf8"))).toBeTruthy();
  });

  test("the job is bound to its application and person: 404 for everyone else", async ({ request, baseURL }) => {
    const created = await createExport(request, api, annaK1, tokens.full, { format: "json" });
    const jobId = created.body.data.job_id;
    await pollUntilFinal(request, api, jobId, tokens.full);
    const otherAppOfAnna = (await dataApiToken(baseURL!, anna)).token;
    for (const token of [otherAppOfAnna, olafToken, tokens.partner]) {
      for (const [template, path] of [
        [STATUS, `/exports/${jobId}`],
        [DOWNLOAD, `/exports/${jobId}/download`],
      ]) {
        const answer = await call(request, api, { template, path }, token);
        expect(answer.status, path).toBe(404);
        expect(answer.body.error).toBe("not_found");
      }
    }
    const unknown = await call(request, api, { template: STATUS, path: `/exports/exp_${"A".repeat(22)}` }, tokens.full);
    expect(unknown.status).toBe(404);
    const malformed = await call(request, api, { template: STATUS, path: `/exports/${encodeURIComponent("not a job!")}` }, tokens.full);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_description).toMatch(/^job_id: /);
  });

  test("a session outside the boundary, or a seat that is not there, is a 404", async ({ request }) => {
    const outside = await createExport(request, api, olafOnly, tokens.full, { format: "json" });
    expect(outside.status).toBe(404);
    expect(outside.body.error).toBe("not_found");
    // The World trial is a K1: seat 2 does not exist.
    const seat = await createExport(request, api, annaK1, tokens.full, { format: "json", athlete: 2 });
    expect(seat.status).toBe(404);
    expect(seat.body.error_description).toBe(outside.body.error_description);
  });

  test("a bad ExportRequest is a 400 naming the field", async ({ request }) => {
    const cases: [unknown, RegExp][] = [
      [{}, /^format: /],
      [{ format: "docx" }, /^format: /],
      [{ format: "json", athlete: 5 }, /^athlete: /],
      [{ format: "json", athlete: 1.5 }, /^athlete: /],
      [{ format: "json", athlete: "1" }, /^athlete: /],
      [{ format: "json", splits: 0 }, /^splits: /],
      [{ format: "json", splits: 21 }, /^splits: /],
      [{ format: "json", splits: 1e300 }, /^splits: /],
      [{ format: "json", lang: "fr" }, /^lang: /],
      [{ format: "json", colour: "red" }, /^colour: unknown field/],
      [{ format: "json\u0000" }, /^format: /],
      [[1, 2], /^body: /],
      ["{not json", /^body: not valid JSON/],
      [`{"format":"json","x":${"[".repeat(5000)}${"]".repeat(5000)}}`, /^(x: unknown field|body: )/],
      [JSON.stringify({ format: "json", padding: "x".repeat(20_000) }), /^body: larger than/],
    ];
    for (const [body, message] of cases) {
      const answer = await createExport(request, api, annaK1, tokens.full, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body).toMatchObject({ error: "invalid_request", error_description: expect.stringMatching(message) });
    }
    const notJson = await request.post(`/api/v1/sessions/${annaK1}/exports`, { headers: { ...bearer(tokens.full), "content-type": "text/plain" }, data: '{"format":"json"}' });
    expect(notJson.status()).toBe(400);
    expect((await api.check("post", CREATE, notJson)).error_description).toMatch(/^body: /);
  });

  test("Idempotency-Key: same request → same job; different request → 409; too long → 400", async ({ request }) => {
    const key = `e2e-${Date.now()}`;
    const first = await createExport(request, api, annaK1, tokens.full, { format: "json", lang: "es" }, { "Idempotency-Key": key });
    expect(first.status).toBe(202);
    // Key order does not matter: it is the same request.
    const again = await createExport(request, api, annaK1, tokens.full, { lang: "es", format: "json" }, { "Idempotency-Key": key });
    expect(again.status).toBe(202);
    expect(again.body.data.job_id).toBe(first.body.data.job_id);
    expect(again.response.headers()["location"]).toBe(first.response.headers()["location"]);

    const otherBody = await createExport(request, api, annaK1, tokens.full, { format: "json", lang: "en" }, { "Idempotency-Key": key });
    expect(otherBody.status).toBe(409);
    expect(otherBody.body).toMatchObject({ error: "idempotency_key_reused", error_description: expect.stringMatching(/^Idempotency-Key: /) });

    // Another application of the same person has its own keys.
    const partner = await createExport(request, api, annaK1, tokens.partner, { format: "json", lang: "es" }, { "Idempotency-Key": key });
    expect(partner.status).toBe(202);
    expect(partner.body.data.job_id).not.toBe(first.body.data.job_id);

    const tooLong = await createExport(request, api, annaK1, tokens.full, { format: "json" }, { "Idempotency-Key": "k".repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error_description).toMatch(/^Idempotency-Key: /);
    const longest = await createExport(request, api, annaK1, tokens.full, { format: "json" }, { "Idempotency-Key": "k".repeat(255) });
    expect(longest.status).toBe(202);
  });

  test("20 concurrent identical requests with one key create one job", async ({ request }) => {
    const key = `race-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => createExport(request, api, annaK1, tokens.full, { format: "json", splits: 3 }, { "Idempotency-Key": key })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
    expect(new Set(answers.map((a) => a.body.data.job_id)).size).toBe(1);
  });

  test("the partner surface gets its export too (privacy-safe mode)", async ({ request }) => {
    const created = await createExport(request, api, annaK1, tokens.partner, { format: "json" });
    expect(created.status).toBe(202);
    const done = await pollUntilFinal(request, api, created.body.data.job_id, tokens.partner);
    expect(done.status).toBe("succeeded");
  });

  test("every export operation passes the common authorization cases", async ({ request }) => {
    const created = await createExport(request, api, annaK1, tokens.full, { format: "json" });
    const jobId = created.body.data.job_id;
    const every = ["data", "partner", "session"] as OperationCase["surfaces"];
    const cases: OperationCase[] = [
      { method: "post", template: CREATE, path: `/sessions/${annaK1}/exports`, scopes: ["sessions:read", "exports:create"], surfaces: every },
      { template: STATUS, path: `/exports/${jobId}`, scopes: ["exports:create"], surfaces: every },
      { template: DOWNLOAD, path: `/exports/${jobId}/download`, scopes: ["exports:create"], surfaces: every },
    ];
    for (const op of cases) await expectCommonAuthCases(request, api, op, tokens);
  });
});
