import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { badFiles, FIXTURES, simulatedSvc } from "@/e2e/svc-files";
import { apiHarness } from "./harness";
import {
  call,
  MAX_UPLOAD_BYTES,
  personWithKey,
  resultsDocument,
  send,
  uploadRequest,
  type KeyPair,
  type OpenApiCheck,
  type Person,
} from "./results-client";

/** A database of the file's own (test/api/harness). */
apiHarness();

/**
 * POST /results (docs/results-api.md "Upload processing"): multipart bodies
 * built with the web FormData, sent to the route with a Request; the
 * happy paths, every documented 400, 401, 403, 409, 413 and 422, the
 * Idempotency-Key, concurrent uploads, deletion and the upload's own limit.
 */
let api: OpenApiCheck;
let coach: Person;
let trackId: number;
let athletes: number[];
let lapsed: number;
const k1 = simulatedSvc({ vessel: "K1", distanceM: 500, seed: 501 });
const k2 = simulatedSvc({ vessel: "K2", distanceM: 200, seed: 502 });

// The upload endpoint allows 10 requests per minute per key: the coach's uploads rotate over fresh key pairs (each its own bucket).
const coachKeys: KeyPair[] = [];
let coachUploads = 0;
async function nextCoachKey(): Promise<KeyPair> {
  const index = Math.floor(coachUploads++ / 9);
  coachKeys[index] ??= await coach.newKey();
  return coachKeys[index];
}

beforeAll(async () => {
  api = await resultsDocument();
  coach = await personWithKey("uploader");
  trackId = await coach.track("Upload basin");
  athletes = [];
  for (const name of ["Ana", "Bea", "Cris", "Dani"])
    athletes.push(await coach.athlete({ name, surname: "Test", subscriptionActiveUntil: "2099-12-31" }));
  lapsed = await coach.athlete({ name: "Lapsed", subscriptionActiveUntil: "2020-01-01" });
});

const metadata = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    distance: 500,
    vessel_id: 1,
    track_id: trackId,
    category_id: 1,
    pace_id: 1,
    athletes: [athletes[0]],
    competition: "Trials",
    ...overrides,
  });

interface UploadOptions {
  key?: KeyPair | string | null;
  file?: Buffer | null;
  filename?: string;
  metadata?: string | null;
  https?: boolean;
  idempotencyKey?: string;
}

async function upload(options: UploadOptions = {}) {
  const key = options.key === undefined ? await nextCoachKey() : options.key;
  const headers: Record<string, string> = {};
  if (key) headers.authorization = typeof key === "string" ? key : key.authorization;
  if (options.https !== false) headers["x-forwarded-proto"] = "https";
  if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey;
  const file = options.file === null ? null : { bytes: options.file ?? k1, filename: options.filename ?? "session.svc" };
  const response = await send(
    await uploadRequest({ file, metadata: options.metadata === undefined ? metadata() : options.metadata }, headers),
  );
  return { response, body: await api.check("post", "/results", response) };
}

const getResult = async (id: number, authorization: string) =>
  api.check("get", "/results/{id}", await call("GET", `/api/v1/results/${id}`, { headers: { authorization } }));

describe("results API: upload, read, delete", () => {
  it("a K1 upload answers 201 and the result reads back with its strokes", async () => {
    const { response, body } = await upload();
    expect(response.status).toBe(201);
    expect(body.data).toMatchObject({
      dist: 500,
      vessel: { id: 1, type: "K1", npeople: 1 },
      track: { id: trackId, name: "Upload basin" },
      athletes_count: 1,
      software_version: "3.1.7",
    });
    expect(body.data.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.data.time_of_day).toMatch(/^\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);

    const detail = await getResult(body.data.id, coach.key.authorization);
    expect(detail.data.data_strokes.stroke_count).toBeGreaterThan(150);
    const stroke = detail.data.data_strokes.strokes[10];
    expect(stroke.rate).toBeGreaterThan(90);
    expect(stroke.filtered_speed).toBeGreaterThan(3);
    expect(stroke.left_stroke_distance ?? stroke.right_stroke_distance).toBeGreaterThan(1);
    expect(stroke.stroke_distance).toBeNull();
    expect(detail.data.athletes).toEqual([{ id: athletes[0], full_name: "Ana Test" }]);
    expect(detail.data.competition).toBe("Trials");

    const list = await api.check(
      "get",
      "/results",
      await call("GET", `/api/v1/results?vessel_id=1&athlete_id=${athletes[0]}&competition=tri`, {
        headers: { authorization: coach.key.authorization },
      }),
    );
    expect(list.data.map((r: { id: number }) => r.id)).toContain(body.data.id);
    const none = await api.check(
      "get",
      "/results",
      await call("GET", "/api/v1/results?vessel_id=4", { headers: { authorization: coach.key.authorization } }),
    );
    expect(none.pagination.total).toBe(0);
  });

  it("a canoe crew with an external athlete and weather", async () => {
    const c2 = simulatedSvc({ vessel: "C2", durationMs: 60_000, seed: 503 });
    const meteo = { wind_speed: 3, wind_direction: 270, air_temperature: 19.5, water_temperature: 16 };
    const { response, body } = await upload({
      file: c2,
      metadata: metadata({
        distance: undefined,
        duration_ms: 60_000,
        vessel_id: 5,
        athletes: [{ id: athletes[1] }, { id: -1, name: "Guest", surname: "Paddler", weight: 72.5 }],
        meteo,
      }),
    });
    expect(response.status).toBe(201);
    const detail = await getResult(body.data.id, coach.key.authorization);
    expect(detail.data.duration).toBe(60_000);
    expect(detail.data.data_strokes.strokes[5].stroke_distance).toBeGreaterThan(2);
    expect(detail.data.external_athletes.athletes).toEqual([{ seat: 2, name: "Guest", surname: "Paddler", weight: 72.5 }]);
    expect(detail.data.meteo).toEqual(meteo);
    expect(detail.data.athletes_detail.seats.map((s: { external: boolean }) => s.external)).toEqual([false, true]);
  });

  it("every documented 400 of the upload", async () => {
    const cases: [UploadOptions, RegExp][] = [
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
      const { response, body } = await upload(options);
      expect(response.status, `${message}`).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.message).toMatch(message);
    }
  });

  it("the 401, 403 and 413 rows", async () => {
    const expectError = (result: Awaited<ReturnType<typeof upload>>, status: number, error: string, message: RegExp) => {
      expect(result.response.status, `${message}`).toBe(status);
      expect(result.body).toMatchObject({ error });
      expect(result.body.message).toMatch(message);
    };
    expectError(await upload({ key: null }), 401, "unauthorized", /Authorization header missing/);
    expectError(await upload({ key: `Bearer ${coach.key.publicKey}` }), 401, "unauthorized", /Secret key not supplied/);
    expectError(await upload({ key: `Bearer ${coach.key.publicKey}.nope` }), 401, "unauthorized", /invalid/);
    expectError(await upload({ https: false }), 403, "forbidden", /HTTPS/);
    const viewer = await personWithKey("viewer", { role: "viewer" });
    expectError(await upload({ key: viewer.key }), 403, "forbidden", /accesoNuevo/);
    const stranger = await personWithKey("foreign");
    const foreignTrack = await stranger.track("Theirs");
    const foreignAthlete = await stranger.athlete({ name: "Theirs", subscriptionActiveUntil: "2099-01-01" });
    expectError(
      await upload({ metadata: metadata({ track_id: foreignTrack }) }),
      403,
      "forbidden",
      /track_id \d+ is unknown or not accessible/,
    );
    expectError(await upload({ metadata: metadata({ athletes: [foreignAthlete] }) }), 403, "forbidden", /not found or not accessible/);
    expectError(await upload({ metadata: metadata({ athletes: [lapsed] }) }), 403, "forbidden", /no active subscription/);
    expectError(
      await upload({ file: k2, metadata: metadata({ distance: 200, vessel_id: 2, athletes: [{ name: "A" }, { name: "B" }] }) }),
      403,
      "forbidden",
      /more than half/,
    );
    expectError(await upload({ file: Buffer.alloc(MAX_UPLOAD_BYTES + 500_000, 7) }), 413, "payload_too_large", /maximum upload size/);

    // The unlimited-externals privilege lifts the half-external rule.
    const privileged = await personWithKey("privileged", { unlimitedExternals: true });
    const ownTrack = await privileged.track("Privileged basin");
    const ok = await upload({
      key: privileged.key,
      file: k2,
      metadata: metadata({ distance: 200, vessel_id: 2, track_id: ownTrack, athletes: [{ name: "A" }, { name: "B" }] }),
    });
    expect(ok.response.status).toBe(201);
  });

  it("every invalid file, and a valid file without an effort, answer 422", async () => {
    for (const name of [...badFiles().map((f) => path.join("bad", f)), "reference-v1.svc"]) {
      const { response, body } = await upload({ file: fs.readFileSync(path.join(FIXTURES, name)), filename: path.basename(name) });
      expect(response.status, name).toBe(422);
      expect(body.error).toBe("unprocessable_session");
    }
  });

  it("the same file again from the same owner is a 409 naming the first result", async () => {
    const file = simulatedSvc({ vessel: "K1", distanceM: 200, seed: 507 });
    const first = await upload({ file, metadata: metadata({ distance: 200 }) });
    expect(first.response.status).toBe(201);
    const again = await upload({ file, filename: "renamed.svc", metadata: metadata({ distance: 200, competition: "Other" }) });
    expect(again.response.status).toBe(409);
    expect(again.body).toMatchObject({
      error: "conflict",
      existing_result_id: first.body.data.id,
      message: `this file was already uploaded: it is result ${first.body.data.id}`,
    });
  });

  it("Idempotency-Key: a retried upload answers the first result; the key reused for another upload is 409", async () => {
    // A key pair of its own: keys are scoped to it, and its five uploads stay under the upload limit.
    const key = await coach.newKey();
    const file = simulatedSvc({ vessel: "K1", distanceM: 200, seed: 508 });
    const idempotencyKey = `retry-${Date.now()}`;
    // A client whose connection died after the commit retries, several times at once.
    const tries = await Promise.all([1, 2, 3].map(() => upload({ key, file, metadata: metadata({ distance: 200 }), idempotencyKey })));
    expect(tries.map((t) => t.response.status)).toEqual([201, 201, 201]);
    expect(new Set(tries.map((t) => t.body.data.id)).size).toBe(1);
    const other = simulatedSvc({ vessel: "K1", distanceM: 200, seed: 509 });
    const reused = await upload({ key, file: other, metadata: metadata({ distance: 200 }), idempotencyKey });
    expect(reused.response.status).toBe(409);
    expect(reused.body).toMatchObject({ error: "idempotency_key_reused" });
    const tooLong = await upload({ key, file: other, metadata: metadata({ distance: 200 }), idempotencyKey: "k".repeat(256) });
    expect(tooLong.response.status).toBe(400);
    expect(tooLong.body.message).toContain("Idempotency-Key");
  });

  it("concurrent uploads each store their own result", async () => {
    const files = [501, 504, 505, 506].map((seed) => simulatedSvc({ vessel: "K1", distanceM: 200, seed }));
    const uploaded = await Promise.all(files.map((file) => upload({ file, metadata: metadata({ distance: 200 }) })));
    expect(uploaded.map((u) => u.response.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(uploaded.map((u) => u.body.data.id)).size).toBe(4);
  });

  it("delete: 200 for the owner, then 404; another user gets 404 throughout", async () => {
    const { body } = await upload({ file: k2, metadata: metadata({ distance: 200, vessel_id: 2, athletes: [athletes[2], athletes[3]] }) });
    const id = body.data.id;
    const stranger = await personWithKey("other");
    for (const method of ["GET", "DELETE"]) {
      const response = await call(method, `/api/v1/results/${id}`, { headers: { authorization: stranger.key.authorization } });
      expect(response.status).toBe(404);
      await api.check(method, "/results/{id}", response);
    }
    const auth = { headers: { authorization: coach.key.authorization } };
    const deleted = await api.check("delete", "/results/{id}", await call("DELETE", `/api/v1/results/${id}`, auth));
    expect(deleted).toEqual({ data: { id, deleted: true } });
    expect((await call("GET", `/api/v1/results/${id}`, auth)).status).toBe(404);
    expect((await call("DELETE", `/api/v1/results/${id}`, auth)).status).toBe(404);
  });

  it("the upload endpoint has its own, stricter per-key limit", async () => {
    const busy = await personWithKey("busyuploader");
    // The whole burst in one fixed window, from its start: one that straddles a minute boundary may never reach the limit.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await upload({ key: busy.key, metadata: null })).response.status);
      expect(statuses.slice(0, 10)).not.toContain(429);
      expect(statuses.slice(10)).toEqual([429, 429]);
      const limited = await upload({ key: busy.key, metadata: null });
      expect(limited.response.status).toBe(429);
      expect(limited.body.error).toBe("rate_limited");
      expect(Number(limited.response.headers.get("retry-after"))).toBeGreaterThan(0);
      // Reads with the same key still answer: they count only against the general limit.
      expect((await call("GET", "/api/v1/paces", { headers: { authorization: busy.key.authorization } })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});
