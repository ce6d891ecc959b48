import { expect, test } from "./fixtures";
import { createKeyPair, signedInContext, trpcMutation } from "./api-helpers";
import { anna, bearer, call, dataApiToken, expectCommonAuthCases, loadDataApi, olaf, tokenSet, walkPages, type OperationCase, type TokenSet } from "./data-api-helpers";
import { DATA_WORLD, serialOfSeed } from "./data-api-world";
import type { OpenApiValidator } from "./openapi-validator";

/**
 * Data API roster, equipment, catalogues, records, health and devices
 * against the seeded world (e2e/data-api-world.ts): happy paths, documented
 * errors, scopes, surfaces, the subject boundary and cursors; every response
 * validated against the served OpenAPI document.
 */
test.describe.configure({ mode: "serial" });

const ABSENT = 2_147_483_647;
const SERIALS = Object.values(DATA_WORLD.seeds).map(serialOfSeed);
/** Values that belong to Olaf or to an external provider: never in Anna's answers. */
const FOREIGN = [String(DATA_WORLD.externalWeightKg), String(DATA_WORLD.externalLactate), DATA_WORLD.externalSource, String(DATA_WORLD.olafWeightKg), String(DATA_WORLD.olafLactate), DATA_WORLD.olafVesselName, "@e2e.example"];
const expectNothingForeign = (body: unknown, label: string) => {
  const text = JSON.stringify(body);
  for (const value of [...FOREIGN, ...SERIALS]) expect(text, `${label} leaks ${value}`).not.toContain(value);
};

test.describe("Data API: roster, equipment, catalogues, records, health, devices", () => {
  let api: OpenApiValidator;
  let annaTokens: TokenSet;
  let olafToken: string;
  const ids = {} as Record<"annaK1" | "olafK1" | "olafK2" | "annaTrack" | "olafTrack" | "ben" | "olafAthlete" | "team" | "olafTeam" | "vessel" | "paddle" | "olafVessel" | "device" | "olafDevice", number>;

  test.beforeAll(async ({ request, baseURL }) => {
    test.setTimeout(150_000);
    api = await loadDataApi(request);
    annaTokens = await tokenSet(baseURL!, request, anna);
    olafToken = (await dataApiToken(baseURL!, olaf)).token;
    const list = async (template: string, path: string, token: string) => walkPages(request, api, template, `${path}?limit=100`, token);
    type Named = { id: number; name: string; competition?: string; boat_class?: { type: string }; status?: string };
    const find = (items: Named[], predicate: (i: Named) => boolean) => items.find(predicate)!.id;

    const annaSessions = await list("/sessions", "/sessions", annaTokens.full);
    ids.annaK1 = find(annaSessions, (s) => s.competition === "World trial");
    ids.olafK2 = find(annaSessions, (s) => s.boat_class!.type === "K2");
    ids.olafK1 = find(await list("/sessions", "/sessions", olafToken), (s) => s.boat_class!.type === "K1" && s.status === "processed");
    ids.annaTrack = find(await list("/tracks", "/tracks", annaTokens.full), (t) => t.name === "Anna basin");
    ids.olafTrack = find(await list("/tracks", "/tracks", olafToken), (t) => t.name === DATA_WORLD.olafTrackName);
    ids.ben = find(await list("/roster/athletes", "/roster/athletes", annaTokens.full), (a) => a.name === DATA_WORLD.ben.name);
    ids.olafAthlete = (await call(request, api, { template: "/athlete", path: "/athlete" }, olafToken)).body.data.id;
    ids.team = find(await list("/teams", "/teams", annaTokens.full), (t) => t.name === "E2E Data Club");
    const olafContext = await signedInContext(baseURL!, olaf);
    ids.olafTeam = (await trpcMutation<{ id: number }>(olafContext, "teams.create", { name: "Olaf private team" })).id;
    await olafContext.dispose();
    ids.vessel = find(await list("/equipment/{kind}", "/equipment/vessels", annaTokens.full), (v) => v.name === DATA_WORLD.annaVesselName);
    ids.paddle = find(await list("/equipment/{kind}", "/equipment/paddles", annaTokens.full), (p) => p.name === DATA_WORLD.annaPaddleName);
    ids.olafVessel = find(await list("/equipment/{kind}", "/equipment/vessels", olafToken), (v) => v.name === DATA_WORLD.olafVesselName);
    ids.device = (await list("/devices", "/devices", annaTokens.full))[0].id;
    ids.olafDevice = (await list("/devices", "/devices", olafToken))[0].id;
  });

  const every = ["data", "partner", "session"] as OperationCase["surfaces"];
  const dataOnly = ["data"] as OperationCase["surfaces"];

  test("every operation passes the common authorization cases", async ({ request }) => {
    const cases: OperationCase[] = [
      { template: "/roster/athletes", path: "/roster/athletes", scopes: ["athlete:read"], surfaces: dataOnly },
      { template: "/roster/athletes/{athlete_id}", path: `/roster/athletes/${ids.ben}`, scopes: ["athlete:read"], surfaces: dataOnly },
      { template: "/teams", path: "/teams", scopes: ["athlete:read"], surfaces: dataOnly },
      { template: "/teams/{team_id}", path: `/teams/${ids.team}`, scopes: ["athlete:read"], surfaces: dataOnly },
      { template: "/equipment/{kind}", path: "/equipment/vessels", scopes: ["equipment:read"], surfaces: every },
      { template: "/equipment/{kind}/{item_id}", path: `/equipment/paddles/${ids.paddle}`, scopes: ["equipment:read"], surfaces: every },
      { template: "/catalogues/{kind}", path: "/catalogues/boats", scopes: ["catalog:read"], surfaces: every },
      { template: "/records", path: "/records", scopes: ["records:read"], surfaces: every },
      { template: "/health/weights", path: "/health/weights", scopes: ["health:read"], surfaces: ["data", "partner"] },
      { template: "/health/lactate", path: `/health/lactate?session_id=${ids.annaK1}`, scopes: ["health:read"], surfaces: ["data", "partner"] },
      { template: "/devices", path: "/devices", scopes: ["devices:read"], surfaces: dataOnly },
      { template: "/devices/{device_id}", path: `/devices/${ids.device}`, scopes: ["devices:read"], surfaces: dataOnly },
      { template: "/devices/{device_id}/files", path: `/devices/${ids.device}/files`, scopes: ["devices:files"], surfaces: dataOnly },
    ];
    for (const op of cases) await expectCommonAuthCases(request, api, op, annaTokens);
  });

  test("tracks: shared with the results API; an access token gets the Data API, a key pair the results API", async ({ request, baseURL }) => {
    const cases: OperationCase[] = [
      { template: "/tracks", path: "/tracks", scopes: ["sessions:read"], surfaces: dataOnly },
      { template: "/tracks/{track_id}", path: `/tracks/${ids.annaTrack}`, scopes: ["sessions:read"], surfaces: dataOnly },
    ];
    for (const op of cases) {
      // Without any credential the path cannot tell the two APIs apart: the results API's 401 answers, as it always has.
      const anonymous = await request.get(`/api/v1${op.path}`);
      expect(anonymous.status()).toBe(401);
      expect(anonymous.headers()["www-authenticate"]).toMatch(/^Bearer /);
      const bad = await call(request, api, op, "not-a-token-we-issued");
      expect(bad.status).toBe(401);
      expect(bad.body.error).toBe("invalid_token");
      const lacking = await call(request, api, op, annaTokens.openidOnly);
      expect(lacking.status).toBe(403);
      expect(lacking.body).toMatchObject({ error: "insufficient_scope", scope: "sessions:read" });
      for (const surface of ["partner", "session"] as const) expect((await call(request, api, op, annaTokens[surface])).status, `${op.path} on ${surface}`).toBe(404);
      expect((await call(request, api, op, annaTokens.revoked)).status).toBe(401);
    }

    const tracks = await walkPages(request, api, "/tracks", "/tracks?limit=1", annaTokens.full);
    const basin = tracks.find((t: { id: number }) => t.id === ids.annaTrack);
    expect(basin).toEqual({ id: ids.annaTrack, name: "Anna basin", location: "", is_public: false, start: null });
    expect(tracks.map((t: { id: number }) => t.id)).not.toContain(ids.olafTrack);
    expect(new Set(tracks.map((t: { id: number }) => t.id)).size).toBe(tracks.length);
    const one = await call(request, api, { template: "/tracks/{track_id}", path: `/tracks/${ids.annaTrack}` }, annaTokens.full);
    expect(one.body.data).toEqual(basin);
    for (const id of [ids.olafTrack, ABSENT]) {
      const hidden = await call(request, api, { template: "/tracks/{track_id}", path: `/tracks/${id}` }, annaTokens.full);
      expect(hidden.status).toBe(404);
      expect(hidden.body.error).toBe("not_found");
    }
    const malformed = await call(request, api, { template: "/tracks/{track_id}", path: "/tracks/abc" }, annaTokens.full);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_description).toMatch(/^track_id/);

    // The results API still answers a key pair on the same paths, in its own shape.
    const key = await createKeyPair(baseURL!, anna, "shared tracks path");
    const viaKey = await request.get(`/api/v1/tracks/${ids.annaTrack}`, { headers: { authorization: key.authorization } });
    expect(viaKey.status()).toBe(200);
    expect(await viaKey.json()).toEqual({ data: { id: ids.annaTrack, name: "Anna basin" } });
    expect((await request.get("/api/v1/tracks", { headers: { authorization: key.authorization } })).status()).toBe(200);
    await key.context.dispose();
  });

  test("roster athletes: own, managed and coached athletes; no health, licence or account fields", async ({ request }) => {
    const athletes = await walkPages(request, api, "/roster/athletes", "/roster/athletes?limit=1", annaTokens.full);
    expect(athletes.map((a: { name: string; surname: string }) => `${a.name} ${a.surname}`).sort()).toEqual(["Anna Owner", "Ben Managed"]);
    const ben = await call(request, api, { template: "/roster/athletes/{athlete_id}", path: `/roster/athletes/${ids.ben}` }, annaTokens.full);
    expect(ben.body.data).toEqual({ id: ids.ben, name: "Ben", surname: "Managed", date_of_birth: null, modality: "Canoe" });
    for (const id of [ids.olafAthlete, ABSENT]) {
      const hidden = await call(request, api, { template: "/roster/athletes/{athlete_id}", path: `/roster/athletes/${id}` }, annaTokens.full);
      expect(hidden.status, String(id)).toBe(404);
    }
    // Olaf sees only himself; Ben is Anna's.
    expect((await call(request, api, { template: "/roster/athletes/{athlete_id}", path: `/roster/athletes/${ids.ben}` }, olafToken)).status).toBe(404);
    expect((await call(request, api, { template: "/roster/athletes", path: "/roster/athletes" }, olafToken)).body.data.map((a: { id: number }) => a.id)).toEqual([ids.olafAthlete]);
  });

  test("teams: a read-only team with coaches by name and only the athletes the subject may see", async ({ request }) => {
    const teams = (await call(request, api, { template: "/teams", path: "/teams" }, annaTokens.full)).body;
    expect(teams).toEqual({ data: [{ id: ids.team, name: "E2E Data Club" }], meta: { next_cursor: null, limit: 50 } });
    const team = await call(request, api, { template: "/teams/{team_id}", path: `/teams/${ids.team}` }, annaTokens.full);
    expect(team.body.data).toEqual({
      id: ids.team,
      name: "E2E Data Club",
      coaches: [{ name: DATA_WORLD.anna.name }],
      athletes: expect.arrayContaining([{ id: ids.ben, name: "Ben", surname: "Managed" }]),
    });
    expect(team.body.data.athletes).toHaveLength(2);
    expectNothingForeign(team.body, "team");
    for (const id of [ids.olafTeam, ABSENT]) {
      const hidden = await call(request, api, { template: "/teams/{team_id}", path: `/teams/${id}` }, annaTokens.full);
      expect(hidden.status, String(id)).toBe(404);
    }
    expect((await call(request, api, { template: "/teams/{team_id}", path: `/teams/${ids.olafTeam}` }, olafToken)).body.data).toEqual({
      id: ids.olafTeam,
      name: "Olaf private team",
      coaches: [{ name: DATA_WORLD.olaf.name }],
      athletes: [],
    });
  });

  test("equipment: owned boats and paddles only; an unknown kind is 400 naming kind", async ({ request }) => {
    const vessels = (await call(request, api, { template: "/equipment/{kind}", path: "/equipment/vessels" }, annaTokens.partner)).body.data;
    expect(vessels).toEqual([{ item_type: "vessel", id: ids.vessel, name: DATA_WORLD.annaVesselName, boat_class: { id: 1, type: "K1" }, brand: "Nelo", model: "Cinco", weight_kg: null }]);
    const paddles = (await call(request, api, { template: "/equipment/{kind}", path: "/equipment/paddles" }, annaTokens.session)).body.data;
    expect(paddles).toEqual([{ item_type: "paddle", id: ids.paddle, name: DATA_WORLD.annaPaddleName, kind: "kayak", brand: "Braca", model: "", length_cm: 215, blade_area_cm2: null }]);
    const vessel = await call(request, api, { template: "/equipment/{kind}/{item_id}", path: `/equipment/vessels/${ids.vessel}` }, annaTokens.full);
    expect(vessel.body.data).toEqual(vessels[0]);
    for (const path of [`/equipment/vessels/${ids.olafVessel}`, `/equipment/vessels/${ABSENT}`, `/equipment/paddles/${ABSENT}`]) {
      const hidden = await call(request, api, { template: "/equipment/{kind}/{item_id}", path }, annaTokens.full);
      expect(hidden.status, path).toBe(404);
    }
    const errors: [string, string, RegExp][] = [
      ["/equipment/{kind}", "/equipment/boats", /^kind/],
      ["/equipment/{kind}/{item_id}", `/equipment/helmets/${ids.vessel}`, /^kind/],
      ["/equipment/{kind}/{item_id}", "/equipment/vessels/abc", /^item_id/],
      ["/equipment/{kind}", "/equipment/vessels?limit=0", /^limit/],
      ["/equipment/{kind}", "/equipment/paddles?cursor=garbage", /^cursor/],
    ];
    for (const [template, path, message] of errors) {
      const { status, body } = await call(request, api, { template, path }, annaTokens.full);
      expect(status, path).toBe(400);
      expect(body.error, path).toBe("invalid_request");
      expect(body.error_description, path).toMatch(message);
    }
  });

  test("catalogues: boat classes, paddle kinds and session options, whole and unpaged", async ({ request }) => {
    const get = async (kind: string) => (await call(request, api, { template: "/catalogues/{kind}", path: `/catalogues/${kind}` }, annaTokens.session)).body;
    const boats = await get("boats");
    expect(boats.meta).toBeUndefined();
    expect(boats.data).toEqual(expect.arrayContaining([{ id: 1, type: "K1", crew_size: 1, hull: "kayak" }, { id: 4, type: "C1", crew_size: 1, hull: "canoe" }]));
    expect((await get("paddles")).data).toEqual([
      { kind: "kayak", name: "Kayak paddle", blades: 2 },
      { kind: "canoe", name: "Canoe paddle", blades: 1 },
    ]);
    const options = (await get("session-options")).data;
    expect(options.categories.length).toBeGreaterThan(0);
    expect(options.paces.length).toBeGreaterThan(0);
    expect(options.categories[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
    for (const [path, message] of [["/catalogues/vessels", /^kind/], ["/catalogues/boats?limit=5", /limit/]] as const) {
      const { status, body } = await call(request, api, { template: "/catalogues/{kind}", path }, annaTokens.full);
      expect(status, path).toBe(400);
      expect(body.error_description, path).toMatch(message);
    }
  });

  test("records: the subject's record history, stable across pages, never another person's sessions", async ({ request }) => {
    const whole = (await call(request, api, { template: "/records", path: "/records" }, annaTokens.partner)).body.data;
    // Anna's K1, K4 and C1 and Olaf's K2 she paddled in: one record each; the failed session is no record.
    expect(whole.map((r: { boat_class: { type: string } }) => r.boat_class.type)).toEqual(["C1", "K1", "K2", "K4"]);
    expect(whole.every((r: { current: boolean }) => r.current)).toBe(true);
    expect(whole.find((r: { boat_class: { type: string } }) => r.boat_class.type === "K1")).toMatchObject({ session_id: ids.annaK1, distance_m: expect.any(Number), duration_ms: expect.any(Number), date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(whole.map((r: { session_id: number }) => r.session_id)).toContain(ids.olafK2);
    expect(whole.map((r: { session_id: number }) => r.session_id)).not.toContain(ids.olafK1);
    expect(await walkPages(request, api, "/records", "/records?limit=1", annaTokens.partner)).toEqual(whole);
    const olafs = (await call(request, api, { template: "/records", path: "/records" }, olafToken)).body.data;
    expect(olafs.map((r: { session_id: number }) => r.session_id)).toContain(ids.olafK1);
  });

  test("weights: own manual entries newest first, never external or another person's", async ({ request }) => {
    for (const token of [annaTokens.full, annaTokens.partner]) {
      const weights = await walkPages(request, api, "/health/weights", "/health/weights?limit=1", token);
      expect(weights).toEqual([
        { id: expect.any(Number), measured_on: "2026-10-15", weight_kg: DATA_WORLD.annaWeightsKg[1], provenance: "manual" },
        { id: expect.any(Number), measured_on: "2026-10-01", weight_kg: DATA_WORLD.annaWeightsKg[0], provenance: "manual" },
      ]);
    }
    const olafs = (await call(request, api, { template: "/health/weights", path: "/health/weights" }, olafToken)).body.data;
    expect(olafs.map((w: { weight_kg: number }) => w.weight_kg)).toEqual([DATA_WORLD.olafWeightKg]);
  });

  test("lactate: own readings, of one readable session or all of them; at most one of session_id and training_id", async ({ request }) => {
    const lactate = (path: string, token = annaTokens.full) => call(request, api, { template: "/health/lactate", path: `/health/lactate${path}` }, token);
    const k1 = await lactate(`?session_id=${ids.annaK1}`, annaTokens.partner);
    expect(k1.body).toEqual({
      data: [{ id: expect.any(Number), session_id: ids.annaK1, training_id: null, measured_at: "2026-05-14T12:05:00.000Z", lactate_mmol_l: DATA_WORLD.annaLactate, note: "after 3 min", provenance: "manual" }],
      meta: { next_cursor: null, limit: 50 },
    });
    expectNothingForeign(k1.body, "lactate");
    // Without a filter: all of Anna's own readings in time order: this one, then her training's (data-api-trainings.spec.ts).
    const all = (await lactate("")).body;
    expect(all.data[0]).toEqual(k1.body.data[0]);
    expect(all.data.map((l: { lactate_mmol_l: number }) => l.lactate_mmol_l)).toEqual([DATA_WORLD.annaLactate, DATA_WORLD.annaTrainingLactate]);
    // Anna paddled in Olaf's K2: she may read the session, but Olaf's reading of it is his.
    expect((await lactate(`?session_id=${ids.olafK2}`)).body.data).toEqual([]);
    expect((await lactate(`?session_id=${ids.olafK2}`, olafToken)).body.data.map((l: { lactate_mmol_l: number }) => l.lactate_mmol_l)).toEqual([DATA_WORLD.olafLactate]);
    for (const path of [`?session_id=${ids.olafK1}`, `?session_id=${ABSENT}`, `?training_id=${ABSENT}`]) {
      const hidden = await lactate(path);
      expect(hidden.status, path).toBe(404);
      expect(hidden.body.error).toBe("not_found");
    }
    for (const [path, message] of [[`?session_id=${ids.annaK1}&training_id=1`, /^training_id/], ["?session_id=abc", /^session_id/], ["?training_id=0", /^training_id/], [`?session_id=${ids.annaK1}&limit=101`, /^limit/]] as const) {
      const { status, body } = await lactate(path);
      expect(status, path).toBe(400);
      expect(body.error_description, path).toMatch(message);
    }
  });

  test("devices: sanitized status and file manifests of the subject's own units; serials never leave", async ({ request }) => {
    const devices = await walkPages(request, api, "/devices", "/devices?limit=1", annaTokens.full);
    expect(devices).toHaveLength(3);
    for (const device of devices) {
      expect(device).toEqual({
        id: expect.any(Number),
        label: "",
        model: "SVC Pro",
        firmware: "3.1.7",
        first_seen_at: expect.any(String),
        last_seen_at: expect.any(String),
        file_count: 1,
        last_session_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      });
      const one = await call(request, api, { template: "/devices/{device_id}", path: `/devices/${device.id}` }, annaTokens.full);
      expect(one.body.data).toEqual(device);
      const files = await call(request, api, { template: "/devices/{device_id}/files", path: `/devices/${device.id}/files` }, annaTokens.full);
      expect(files.body.data).toEqual([
        { filename: expect.stringMatching(/^world-60\d\.svc$/), byte_size: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/), session_id: expect.any(Number), session_date: device.last_session_date, uploaded_at: expect.any(String) },
      ]);
      expectNothingForeign(files.body, "files");
    }
    expectNothingForeign(devices, "devices");
    for (const path of [`/devices/${ids.olafDevice}`, `/devices/${ABSENT}`]) {
      expect((await call(request, api, { template: "/devices/{device_id}", path }, annaTokens.full)).status, path).toBe(404);
      expect((await call(request, api, { template: "/devices/{device_id}/files", path: `${path}/files` }, annaTokens.full)).status, path).toBe(404);
    }
    const malformed = await call(request, api, { template: "/devices/{device_id}/files", path: "/devices/0/files" }, annaTokens.full);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_description).toMatch(/^device_id/);
  });

  test("cursors are bound to their list, its path and the person", async ({ request }) => {
    const first = (await call(request, api, { template: "/devices", path: "/devices?limit=1" }, annaTokens.full)).body;
    const cursor = encodeURIComponent(first.meta.next_cursor);
    const attempts: [string, string, string][] = [
      ["/roster/athletes", `/roster/athletes?cursor=${cursor}`, annaTokens.full],
      ["/equipment/{kind}", `/equipment/paddles?cursor=${cursor}`, annaTokens.full],
      ["/devices", `/devices?limit=1&cursor=${cursor}`, olafToken],
    ];
    for (const [template, path, token] of attempts) {
      const { status, body } = await call(request, api, { template, path }, token);
      expect(status, path).toBe(400);
      expect(body.error_description, path).toMatch(/^cursor/);
    }
    const weights = (await call(request, api, { template: "/health/weights", path: "/health/weights?limit=1" }, annaTokens.full)).body;
    const crossSurface = await call(request, api, { template: "/health/weights", path: `/health/weights?limit=1&cursor=${encodeURIComponent(weights.meta.next_cursor)}` }, annaTokens.partner);
    expect(crossSurface.status).toBe(400);
    expect((await call(request, api, { template: "/devices", path: `/devices?limit=1&cursor=${cursor}` }, annaTokens.full)).status).toBe(200);
  });

  test("no answer carries another person's data, an external provider's value or a serial", async ({ request }) => {
    const paths = ["/roster/athletes", "/teams", `/teams/${ids.team}`, "/equipment/vessels", "/equipment/paddles", "/records", "/health/weights", `/health/lactate?session_id=${ids.annaK1}`, "/devices", "/tracks"];
    for (const path of paths) {
      const response = await request.get(`/api/v1${path}`, { headers: bearer(annaTokens.full) });
      expect(response.status(), path).toBe(200);
      expectNothingForeign(await response.json(), path);
    }
  });
});
