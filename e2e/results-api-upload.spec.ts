import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { E2E_ACCOUNTS } from "./accounts";
import { createKeyPair, signUpOverHttp, trpcMutation, type ApiKey } from "./api-helpers";
import { OpenApiValidator } from "./openapi-validator";
import { badFiles, FIXTURES, simulatedSvc } from "./svc-files";
import { startOfRateWindow } from "./helpers";

type Key = ApiKey & { context: APIRequestContext };

test.describe("results API: upload, read, delete", () => {
  test.describe.configure({ mode: "serial" });
  let api: OpenApiValidator;
  let coach: Key;
  let coachAccount: { email: string; password: string };
  let baseUrl: string;
  // The upload endpoint allows 10 requests per minute per key: the coach's
  // uploads rotate over fresh key pairs of the same account (each its own bucket).
  const coachKeys: Key[] = [];
  let coachUploads = 0;
  async function nextCoachKey(): Promise<Key> {
    const index = Math.floor(coachUploads++ / 9);
    coachKeys[index] ??= await createKeyPair(baseUrl, coachAccount, `uploads ${index}`);
    return coachKeys[index];
  }
  let trackId: number;
  let athletes: number[];
  let lapsed: number;
  const k1 = simulatedSvc({ vessel: "K1", distanceM: 500, seed: 501 });
  const k2 = simulatedSvc({ vessel: "K2", distanceM: 200, seed: 502 });

  test.beforeAll(async ({ request, baseURL }) => {
    api = await OpenApiValidator.load(request, "/api/docs/results-api.json");
    baseUrl = baseURL!;
    coachAccount = await signUpOverHttp(baseURL!, "uploader");
    coach = await createKeyPair(baseURL!, coachAccount);
    trackId = (await trpcMutation<{ id: number }>(coach.context, "tracks.create", { name: "Upload basin" })).id;
    athletes = [];
    for (const name of ["Ana", "Bea", "Cris", "Dani"]) {
      athletes.push((await trpcMutation<{ id: number }>(coach.context, "athletes.create", { name, surname: "Test", subscriptionActiveUntil: "2099-12-31" })).id);
    }
    lapsed = (await trpcMutation<{ id: number }>(coach.context, "athletes.create", { name: "Lapsed", subscriptionActiveUntil: "2020-01-01" })).id;
  });
  test.afterAll(async () => {
    for (const key of [coach, ...coachKeys]) await key.context.dispose();
  });

  const metadata = (overrides: Record<string, unknown> = {}) =>
    JSON.stringify({ distance: 500, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athletes[0]], competition: "Trials", ...overrides });

  async function upload(request: APIRequestContext, options: { key?: Key | string | null; file?: Buffer | null; filename?: string; metadata?: string | null; https?: boolean; idempotencyKey?: string } = {}) {
    const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {};
    if (options.file !== null) multipart.file = { name: options.filename ?? "session.svc", mimeType: "application/octet-stream", buffer: options.file ?? k1 };
    if (options.metadata !== null) multipart.metadata = options.metadata ?? metadata();
    const key = options.key === undefined ? await nextCoachKey() : options.key;
    const headers: Record<string, string> = {};
    if (key) headers.authorization = typeof key === "string" ? key : key.authorization;
    if (options.https !== false) headers["x-forwarded-proto"] = "https";
    if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey;
    const response = await request.post("/api/v1/results", { multipart, headers });
    return { response, body: await api.check("post", "/results", response) };
  }

  test("a K1 upload answers 201 and the result reads back with its strokes", async ({ request }) => {
    const { response, body } = await upload(request);
    expect(response.status()).toBe(201);
    expect(body.data).toMatchObject({ dist: 500, vessel: { id: 1, type: "K1", npeople: 1 }, track: { id: trackId, name: "Upload basin" }, athletes_count: 1, software_version: "3.1.7" });
    expect(body.data.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.data.time_of_day).toMatch(/^\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);

    const detail = await api.check("get", "/results/{id}", await request.get(`/api/v1/results/${body.data.id}`, { headers: { authorization: coach.authorization } }));
    expect(detail.data.data_strokes.stroke_count).toBeGreaterThan(150);
    const stroke = detail.data.data_strokes.strokes[10];
    expect(stroke.rate).toBeGreaterThan(90);
    expect(stroke.filtered_speed).toBeGreaterThan(3);
    expect(stroke.left_stroke_distance ?? stroke.right_stroke_distance).toBeGreaterThan(1);
    expect(stroke.stroke_distance).toBeNull();
    expect(detail.data.athletes).toEqual([{ id: athletes[0], full_name: "Ana Test" }]);
    expect(detail.data.competition).toBe("Trials");

    const list = await api.check("get", "/results", await request.get(`/api/v1/results?vessel_id=1&athlete_id=${athletes[0]}&competition=tri`, { headers: { authorization: coach.authorization } }));
    expect(list.data.map((r: { id: number }) => r.id)).toContain(body.data.id);
    const none = await api.check("get", "/results", await request.get("/api/v1/results?vessel_id=4", { headers: { authorization: coach.authorization } }));
    expect(none.pagination.total).toBe(0);
  });

  test("a canoe crew with an external athlete and weather", async ({ request }) => {
    const c2 = simulatedSvc({ vessel: "C2", durationMs: 60_000, seed: 503 });
    const { response, body } = await upload(request, {
      file: c2,
      metadata: metadata({ distance: undefined, duration_ms: 60_000, vessel_id: 5, athletes: [{ id: athletes[1] }, { id: -1, name: "Guest", surname: "Paddler", weight: 72.5 }], meteo: { wind_speed: 3, wind_direction: 270, air_temperature: 19.5, water_temperature: 16 } }),
    });
    expect(response.status()).toBe(201);
    const detail = await api.check("get", "/results/{id}", await request.get(`/api/v1/results/${body.data.id}`, { headers: { authorization: coach.authorization } }));
    expect(detail.data.duration).toBe(60_000);
    expect(detail.data.data_strokes.strokes[5].stroke_distance).toBeGreaterThan(2);
    expect(detail.data.external_athletes.athletes).toEqual([{ seat: 2, name: "Guest", surname: "Paddler", weight: 72.5 }]);
    expect(detail.data.meteo).toEqual({ wind_speed: 3, wind_direction: 270, air_temperature: 19.5, water_temperature: 16 });
    expect(detail.data.athletes_detail.seats.map((s: { external: boolean }) => s.external)).toEqual([false, true]);
  });

  test("every documented 400 of the upload", async ({ request }) => {
    const cases: [Parameters<typeof upload>[1], RegExp][] = [
      [{ file: null }, /file part missing or empty/],
      [{ file: Buffer.alloc(0) }, /file part missing or empty/],
      [{ filename: "session.bin" }, /must end in \.svc/],
      [{ metadata: null }, /metadata part missing/],
      [{ metadata: "{not json" }, /not valid JSON/],
      [{ metadata: "[1,2]" }, /must be a JSON object/],
      [{ metadata: metadata({ distance: undefined }) }, /exactly one of distance and duration_ms/],
      [{ metadata: metadata({ duration_ms: 60000 }) }, /exactly one of distance and duration_ms/],
      [{ metadata: metadata({ distance: 49 }) }, /distance must be between 50 and 1000/],
      [{ metadata: metadata({ distance: 1001 }) }, /distance must be between 50 and 1000/],
      [{ metadata: metadata({ distance: "500" }) }, /distance must be an integer/],
      [{ metadata: metadata({ distance: undefined, duration_ms: 300001 }) }, /duration_ms must be between 1 and 300000/],
      [{ metadata: metadata({ competition: "x".repeat(65) }) }, /competition must be at most 64/],
      [{ metadata: metadata({ description: 42 }) }, /description must be a string/],
      [{ metadata: metadata({ vessel_id: undefined }) }, /vessel_id is required/],
      [{ metadata: metadata({ track_id: undefined }) }, /track_id is required/],
      [{ metadata: metadata({ category_id: undefined }) }, /category_id is required/],
      [{ metadata: metadata({ pace_id: undefined }) }, /pace_id is required/],
      [{ metadata: metadata({ vessel_id: 999 }) }, /vessel_id 999 does not exist/],
      [{ metadata: metadata({ category_id: 999 }) }, /category_id 999 does not exist/],
      [{ metadata: metadata({ pace_id: 999 }) }, /pace_id 999 does not exist/],
      [{ metadata: metadata({ vessel_id: 7 }) }, /not supported/],
      [{ metadata: metadata({ meteo: { wind_speed: 21 } }) }, /meteo.wind_speed must be between 0 and 20/],
      [{ metadata: metadata({ meteo: { air_temperature: "warm" } }) }, /meteo.air_temperature must be a number/],
      [{ metadata: metadata({ athletes: 5 }) }, /athletes must be a list/],
      [{ metadata: metadata({ athletes: [] }) }, /must have 1 entry/],
      [{ metadata: metadata({ athletes: [true] }) }, /athletes\[0\] must be an athlete id or an object/],
      [{ metadata: metadata({ vessel_id: 2, athletes: [athletes[0], athletes[0]] }) }, /repeated/],
      [{ metadata: metadata({ athletes: [{ surname: "NoName" }] }) }, /needs a name/],
      [{ metadata: metadata({ athletes: [{ name: "x".repeat(129) }] }) }, /at most 128 characters/],
      [{ metadata: metadata({ athletes: [{ name: "Heavy", weight: 151 }] }) }, /weight must be between 0 and 150/],
      [{ metadata: metadata({ athletes: [{ name: "Heavy", weight: "80" }] }) }, /weight must be a number/],
    ];
    for (const [options, message] of cases) {
      const { response, body } = await upload(request, options);
      expect(response.status(), `${message}`).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.message).toMatch(message);
    }
  });

  test("the 401, 403 and 413 rows", async ({ request, baseURL }) => {
    const expectError = async (result: Awaited<ReturnType<typeof upload>>, status: number, error: string, message: RegExp) => {
      expect(result.response.status()).toBe(status);
      expect(result.body).toMatchObject({ error });
      expect(result.body.message).toMatch(message);
    };
    await expectError(await upload(request, { key: null }), 401, "unauthorized", /Authorization header missing/);
    await expectError(await upload(request, { key: `Bearer ${coach.publicKey}` }), 401, "unauthorized", /Secret key not supplied/);
    await expectError(await upload(request, { key: `Bearer ${coach.publicKey}.nope` }), 401, "unauthorized", /invalid/);
    await expectError(await upload(request, { https: false }), 403, "forbidden", /HTTPS/);
    const viewer = await createKeyPair(baseURL!, E2E_ACCOUNTS.viewer);
    await expectError(await upload(request, { key: viewer }), 403, "forbidden", /accesoNuevo/);
    const stranger = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "foreign"));
    const foreignTrack = (await trpcMutation<{ id: number }>(stranger.context, "tracks.create", { name: "Theirs" })).id;
    const foreignAthlete = (await trpcMutation<{ id: number }>(stranger.context, "athletes.create", { name: "Theirs", subscriptionActiveUntil: "2099-01-01" })).id;
    await expectError(await upload(request, { metadata: metadata({ track_id: foreignTrack }) }), 403, "forbidden", /track_id \d+ is unknown or not accessible/);
    await expectError(await upload(request, { metadata: metadata({ athletes: [foreignAthlete] }) }), 403, "forbidden", /not found or not accessible/);
    await expectError(await upload(request, { metadata: metadata({ athletes: [lapsed] }) }), 403, "forbidden", /no active subscription/);
    await expectError(await upload(request, { file: k2, metadata: metadata({ distance: 200, vessel_id: 2, athletes: [{ name: "A" }, { name: "B" }] }) }), 403, "forbidden", /more than half/);
    await expectError(await upload(request, { file: Buffer.alloc(2_500_000, 7) }), 413, "payload_too_large", /maximum upload size/);

    // The unlimited-externals privilege lifts the half-external rule.
    const privileged = await createKeyPair(baseURL!, E2E_ACCOUNTS.privileged);
    const ownTrack = (await trpcMutation<{ id: number }>(privileged.context, "tracks.create", { name: "Privileged basin" })).id;
    const ok = await upload(request, { key: privileged, file: k2, metadata: metadata({ distance: 200, vessel_id: 2, track_id: ownTrack, athletes: [{ name: "A" }, { name: "B" }] }) });
    expect(ok.response.status()).toBe(201);
    // The seeded account outlives the run on a kept database: its file must be new there next time (one owner, one file).
    expect((await request.delete(`/api/v1/results/${ok.body.data.id}`, { headers: { authorization: privileged.authorization } })).status()).toBe(200);
    for (const key of [viewer, stranger, privileged]) await key.context.dispose();
  });

  test("every invalid file, and a valid file without an effort, answer 422", async ({ request }) => {
    for (const name of [...badFiles().map((f) => path.join("bad", f)), "reference-v1.svc"]) {
      const { response, body } = await upload(request, { file: fs.readFileSync(path.join(FIXTURES, name)), filename: path.basename(name) });
      expect(response.status(), name).toBe(422);
      expect(body.error).toBe("unprocessable_session");
    }
  });

  test("the same file again from the same owner is a 409 naming the first result", async ({ request }) => {
    const file = simulatedSvc({ vessel: "K1", distanceM: 200, seed: 507 });
    const first = await upload(request, { file, metadata: metadata({ distance: 200 }) });
    expect(first.response.status()).toBe(201);
    const again = await upload(request, { file, filename: "renamed.svc", metadata: metadata({ distance: 200, competition: "Other" }) });
    expect(again.response.status()).toBe(409);
    expect(again.body).toMatchObject({ error: "conflict", existing_result_id: first.body.data.id, message: `this file was already uploaded: it is result ${first.body.data.id}` });
  });

  test("Idempotency-Key: a retried upload answers the first result; the key reused for another upload is 409", async ({ request }) => {
    // A key pair of its own: keys are scoped to it, and its five uploads stay under the upload limit.
    const key = await createKeyPair(baseUrl, coachAccount, "idempotency");
    const file = simulatedSvc({ vessel: "K1", distanceM: 200, seed: 508 });
    const idempotencyKey = `retry-${Date.now()}`;
    // A client whose connection died after the commit retries, several times at once.
    const tries = await Promise.all([1, 2, 3].map(() => upload(request, { key, file, metadata: metadata({ distance: 200 }), idempotencyKey })));
    expect(tries.map((t) => t.response.status())).toEqual([201, 201, 201]);
    expect(new Set(tries.map((t) => t.body.data.id)).size).toBe(1);
    const other = simulatedSvc({ vessel: "K1", distanceM: 200, seed: 509 });
    const reused = await upload(request, { key, file: other, metadata: metadata({ distance: 200 }), idempotencyKey });
    expect(reused.response.status()).toBe(409);
    expect(reused.body).toMatchObject({ error: "idempotency_key_reused" });
    const tooLong = await upload(request, { key, file: other, metadata: metadata({ distance: 200 }), idempotencyKey: "k".repeat(256) });
    expect(tooLong.response.status()).toBe(400);
    expect(tooLong.body.message).toContain("Idempotency-Key");
    await key.context.dispose();
  });

  test("concurrent uploads each store their own result", async ({ request }) => {
    const files = [501, 504, 505, 506].map((seed) => simulatedSvc({ vessel: "K1", distanceM: 200, seed }));
    const uploaded = await Promise.all(files.map((file) => upload(request, { file, metadata: metadata({ distance: 200 }) })));
    expect(uploaded.map((u) => u.response.status())).toEqual([201, 201, 201, 201]);
    expect(new Set(uploaded.map((u) => u.body.data.id)).size).toBe(4);
  });

  test("delete: 200 for the owner, then 404; another user gets 404 throughout", async ({ request, baseURL }) => {
    const { body } = await upload(request, { file: k2, metadata: metadata({ distance: 200, vessel_id: 2, athletes: [athletes[2], athletes[3]] }) });
    const id = body.data.id;
    const stranger = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "other"));
    for (const method of ["get", "delete"] as const) {
      const response = await request[method](`/api/v1/results/${id}`, { headers: { authorization: stranger.authorization } });
      expect(response.status()).toBe(404);
      await api.check(method, "/results/{id}", response);
    }
    const deleted = await api.check("delete", "/results/{id}", await request.delete(`/api/v1/results/${id}`, { headers: { authorization: coach.authorization } }));
    expect(deleted).toEqual({ data: { id, deleted: true } });
    expect((await request.get(`/api/v1/results/${id}`, { headers: { authorization: coach.authorization } })).status()).toBe(404);
    expect((await request.delete(`/api/v1/results/${id}`, { headers: { authorization: coach.authorization } })).status()).toBe(404);
    await stranger.context.dispose();
  });

  test("the upload endpoint has its own, stricter per-key limit", async ({ request, baseURL }) => {
    const busy = await createKeyPair(baseURL!, await signUpOverHttp(baseURL!, "busyuploader"));
    const statuses: number[] = [];
    // The whole burst in one fixed window: one that straddles a minute boundary may never reach the limit.
    await startOfRateWindow();
    for (let i = 0; i < 12; i++) statuses.push((await upload(request, { key: busy, metadata: null })).response.status());
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    const limited = await upload(request, { key: busy, metadata: null });
    expect(limited.response.status()).toBe(429);
    expect(limited.body.error).toBe("rate_limited");
    expect(Number(limited.response.headers()["retry-after"])).toBeGreaterThan(0);
    // Reads with the same key still answer: they count only against the general limit.
    expect((await request.get("/api/v1/paces", { headers: { authorization: busy.authorization } })).status()).toBe(200);
    await busy.context.dispose();
  });
});
