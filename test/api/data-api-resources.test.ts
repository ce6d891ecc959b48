import { beforeAll, describe, expect, it } from "vitest";
import { createTeam } from "@/server/teams/teams";
import { DATA_WORLD, serialOfSeed } from "../../e2e/data-api-world";
import { apiHarness, createKeyPairToken } from "./harness";
import { DATA_WORLD_SEED, loadDataWorld, tokenSet, type TokenSet } from "./data-world";
import { dataApiToken, get, walkPages } from "./data-api-support";

/**
 * Data API roster, equipment, catalogues, records, health and devices
 * against the seeded world (e2e/data-api-world.ts), in process: happy
 * paths, documented errors, the subject boundary and cursors; every answer
 * validated against the served document (moved from
 * e2e/data-api-resources.spec.ts; the common authorization cases are the
 * security matrix's, security.test.ts).
 */
const ABSENT = 2_147_483_647;
const SERIALS = Object.values(DATA_WORLD.seeds).map(serialOfSeed);
/** Values that belong to Olaf or to an external provider: never in Anna's answers. */
const FOREIGN = [
  String(DATA_WORLD.externalWeightKg),
  String(DATA_WORLD.externalLactate),
  DATA_WORLD.externalSource,
  String(DATA_WORLD.olafWeightKg),
  String(DATA_WORLD.olafLactate),
  DATA_WORLD.olafVesselName,
  "@e2e.example",
];
const expectNothingForeign = (body: unknown, label: string) => {
  const text = JSON.stringify(body);
  for (const value of [...FOREIGN, ...SERIALS]) expect(text, `${label} leaks ${value}`).not.toContain(value);
};

const api = apiHarness({ seed: DATA_WORLD_SEED });

describe("Data API: roster, equipment, catalogues, records, health, devices", () => {
  let annaId: number;
  let annaTokens: TokenSet;
  let olafToken: string;
  const ids = {} as Record<
    | "annaK1"
    | "olafK1"
    | "olafK2"
    | "annaTrack"
    | "olafTrack"
    | "ben"
    | "olafAthlete"
    | "team"
    | "olafTeam"
    | "vessel"
    | "paddle"
    | "olafVessel"
    | "device"
    | "olafDevice",
    number
  >;

  beforeAll(async () => {
    const world = await loadDataWorld(api.db);
    annaId = world.anna.userId;
    annaTokens = await tokenSet(api.db, world.anna.userId);
    olafToken = (await dataApiToken(api, world.olaf.userId)).token;
    const list = async (path: string, token: string) => walkPages(api, `${path}?limit=100`, token);
    type Named = { id: number; name: string; competition?: string; boat_class?: { type: string }; status?: string };
    const find = (items: Named[], predicate: (i: Named) => boolean) => items.find(predicate)!.id;

    const annaSessions = await list("/sessions", annaTokens.full);
    ids.annaK1 = find(annaSessions, (s) => s.competition === "World trial");
    ids.olafK2 = find(annaSessions, (s) => s.boat_class!.type === "K2");
    ids.olafK1 = find(await list("/sessions", olafToken), (s) => s.boat_class!.type === "K1" && s.status === "processed");
    ids.annaTrack = find(await list("/tracks", annaTokens.full), (t) => t.name === "Anna basin");
    ids.olafTrack = find(await list("/tracks", olafToken), (t) => t.name === DATA_WORLD.olafTrackName);
    ids.ben = find(await list("/roster/athletes", annaTokens.full), (a) => a.name === DATA_WORLD.ben.name);
    ids.olafAthlete = (await get(api, "/athlete", olafToken)).body.data.id;
    ids.team = find(await list("/teams", annaTokens.full), (t) => t.name === "E2E Data Club");
    ids.olafTeam = (await createTeam(api.db, world.olaf.userId, { name: "Olaf private team" })).id;
    ids.vessel = find(await list("/equipment/vessels", annaTokens.full), (v) => v.name === DATA_WORLD.annaVesselName);
    ids.paddle = find(await list("/equipment/paddles", annaTokens.full), (p) => p.name === DATA_WORLD.annaPaddleName);
    ids.olafVessel = find(await list("/equipment/vessels", olafToken), (v) => v.name === DATA_WORLD.olafVesselName);
    ids.device = (await list("/devices", annaTokens.full))[0].id;
    ids.olafDevice = (await list("/devices", olafToken))[0].id;
  });

  it("tracks: shared with the results API; an access token gets the Data API, a key pair the results API", async () => {
    for (const path of ["/tracks", `/tracks/${ids.annaTrack}`]) {
      // Without any credential the path cannot tell the two APIs apart: the results API's 401 answers, as it always has.
      const anonymous = await get(api, path, null);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer /);
      const bad = await get(api, path, "not-a-token-we-issued");
      expect(bad.status).toBe(401);
      expect(bad.body.error).toBe("invalid_token");
      const lacking = await get(api, path, annaTokens.openidOnly);
      expect(lacking.status).toBe(403);
      expect(lacking.body).toMatchObject({ error: "insufficient_scope", scope: "sessions:read" });
      for (const surface of ["partner", "session"] as const)
        expect((await get(api, path, annaTokens[surface])).status, `${path} on ${surface}`).toBe(404);
      expect((await get(api, path, annaTokens.revoked)).status).toBe(401);
    }

    const tracks = await walkPages(api, "/tracks?limit=1", annaTokens.full);
    const basin = tracks.find((t: { id: number }) => t.id === ids.annaTrack);
    expect(basin).toEqual({ id: ids.annaTrack, name: "Anna basin", location: "", is_public: false, start: null });
    expect(tracks.map((t: { id: number }) => t.id)).not.toContain(ids.olafTrack);
    expect(new Set(tracks.map((t: { id: number }) => t.id)).size).toBe(tracks.length);
    const one = await get(api, `/tracks/${ids.annaTrack}`, annaTokens.full);
    expect(one.body.data).toEqual(basin);
    for (const id of [ids.olafTrack, ABSENT]) {
      const hidden = await get(api, `/tracks/${id}`, annaTokens.full);
      expect(hidden.status).toBe(404);
      expect(hidden.body.error).toBe("not_found");
    }
    const malformed = await get(api, "/tracks/abc", annaTokens.full);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_description).toMatch(/^track_id/);

    // The results API still answers a key pair on the same paths, in its own shape.
    const key = await createKeyPairToken(api.db, annaId);
    const viaKey = await get(api, `/tracks/${ids.annaTrack}`, key.token);
    expect(viaKey.status).toBe(200);
    expect(viaKey.body).toEqual({ data: { id: ids.annaTrack, name: "Anna basin" } });
    expect((await get(api, "/tracks", key.token)).status).toBe(200);
  });

  it("roster athletes: own, managed and coached athletes; no health, licence or account fields", async () => {
    const athletes = await walkPages(api, "/roster/athletes?limit=1", annaTokens.full);
    expect(athletes.map((a: { name: string; surname: string }) => `${a.name} ${a.surname}`).sort()).toEqual(["Anna Owner", "Ben Managed"]);
    const ben = await get(api, `/roster/athletes/${ids.ben}`, annaTokens.full);
    expect(ben.body.data).toEqual({ id: ids.ben, name: "Ben", surname: "Managed", date_of_birth: null, modality: "Canoe" });
    for (const id of [ids.olafAthlete, ABSENT]) {
      const hidden = await get(api, `/roster/athletes/${id}`, annaTokens.full);
      expect(hidden.status, String(id)).toBe(404);
    }
    // Olaf sees only himself; Ben is Anna's.
    expect((await get(api, `/roster/athletes/${ids.ben}`, olafToken)).status).toBe(404);
    expect((await get(api, "/roster/athletes", olafToken)).body.data.map((a: { id: number }) => a.id)).toEqual([ids.olafAthlete]);
  });

  it("teams: a read-only team with coaches by name and only the athletes the subject may see", async () => {
    const teams = (await get(api, "/teams", annaTokens.full)).body;
    expect(teams).toEqual({ data: [{ id: ids.team, name: "E2E Data Club" }], meta: { next_cursor: null, limit: 50 } });
    const team = await get(api, `/teams/${ids.team}`, annaTokens.full);
    expect(team.body.data).toEqual({
      id: ids.team,
      name: "E2E Data Club",
      coaches: [{ name: DATA_WORLD.anna.name }],
      athletes: expect.arrayContaining([{ id: ids.ben, name: "Ben", surname: "Managed" }]),
    });
    expect(team.body.data.athletes).toHaveLength(2);
    expectNothingForeign(team.body, "team");
    for (const id of [ids.olafTeam, ABSENT]) {
      const hidden = await get(api, `/teams/${id}`, annaTokens.full);
      expect(hidden.status, String(id)).toBe(404);
    }
    expect((await get(api, `/teams/${ids.olafTeam}`, olafToken)).body.data).toEqual({
      id: ids.olafTeam,
      name: "Olaf private team",
      coaches: [{ name: DATA_WORLD.olaf.name }],
      athletes: [],
    });
  });

  it("equipment: owned boats and paddles only; an unknown kind is 400 naming kind", async () => {
    const vessels = (await get(api, "/equipment/vessels", annaTokens.partner)).body.data;
    expect(vessels).toEqual([
      {
        item_type: "vessel",
        id: ids.vessel,
        name: DATA_WORLD.annaVesselName,
        boat_class: { id: 1, type: "K1" },
        brand: "Nelo",
        model: "Cinco",
        weight_kg: null,
      },
    ]);
    const paddles = (await get(api, "/equipment/paddles", annaTokens.session)).body.data;
    expect(paddles).toEqual([
      {
        item_type: "paddle",
        id: ids.paddle,
        name: DATA_WORLD.annaPaddleName,
        kind: "kayak",
        brand: "Braca",
        model: "",
        length_cm: 215,
        blade_area_cm2: null,
      },
    ]);
    const vessel = await get(api, `/equipment/vessels/${ids.vessel}`, annaTokens.full);
    expect(vessel.body.data).toEqual(vessels[0]);
    for (const path of [`/equipment/vessels/${ids.olafVessel}`, `/equipment/vessels/${ABSENT}`, `/equipment/paddles/${ABSENT}`]) {
      const hidden = await get(api, path, annaTokens.full);
      expect(hidden.status, path).toBe(404);
    }
    const errors: [string, string, RegExp][] = [
      ["/equipment/{kind}", "/equipment/boats", /^kind/],
      ["/equipment/{kind}/{item_id}", `/equipment/helmets/${ids.vessel}`, /^kind/],
      ["/equipment/{kind}/{item_id}", "/equipment/vessels/abc", /^item_id/],
      ["/equipment/{kind}", "/equipment/vessels?limit=0", /^limit/],
      ["/equipment/{kind}", "/equipment/paddles?cursor=garbage", /^cursor/],
    ];
    for (const [, path, message] of errors) {
      const { status, body } = await get(api, path, annaTokens.full);
      expect(status, path).toBe(400);
      expect(body.error, path).toBe("invalid_request");
      expect(body.error_description, path).toMatch(message);
    }
  });

  it("catalogues: boat classes, paddle kinds and session options, whole and unpaged", async () => {
    const catalogue = async (kind: string) => (await get(api, `/catalogues/${kind}`, annaTokens.session)).body;
    const boats = await catalogue("boats");
    expect(boats.meta).toBeUndefined();
    expect(boats.data).toEqual(
      expect.arrayContaining([
        { id: 1, type: "K1", crew_size: 1, hull: "kayak" },
        { id: 4, type: "C1", crew_size: 1, hull: "canoe" },
      ]),
    );
    expect((await catalogue("paddles")).data).toEqual([
      { kind: "kayak", name: "Kayak paddle", blades: 2 },
      { kind: "canoe", name: "Canoe paddle", blades: 1 },
    ]);
    const options = (await catalogue("session-options")).data;
    expect(options.categories.length).toBeGreaterThan(0);
    expect(options.paces.length).toBeGreaterThan(0);
    expect(options.categories[0]).toEqual({ id: expect.any(Number), name: expect.any(String) });
    for (const [path, message] of [
      ["/catalogues/vessels", /^kind/],
      ["/catalogues/boats?limit=5", /limit/],
    ] as const) {
      const { status, body } = await get(api, path, annaTokens.full);
      expect(status, path).toBe(400);
      expect(body.error_description, path).toMatch(message);
    }
  });

  it("records: the subject's record history, stable across pages, never another person's sessions", async () => {
    const whole = (await get(api, "/records", annaTokens.partner)).body.data;
    // Anna's K1, K4 and C1 and Olaf's K2 she paddled in: one record each; the failed session is no record.
    expect(whole.map((r: { boat_class: { type: string } }) => r.boat_class.type)).toEqual(["C1", "K1", "K2", "K4"]);
    expect(whole.every((r: { current: boolean }) => r.current)).toBe(true);
    expect(whole.find((r: { boat_class: { type: string } }) => r.boat_class.type === "K1")).toMatchObject({
      session_id: ids.annaK1,
      distance_m: expect.any(Number),
      duration_ms: expect.any(Number),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    expect(whole.map((r: { session_id: number }) => r.session_id)).toContain(ids.olafK2);
    expect(whole.map((r: { session_id: number }) => r.session_id)).not.toContain(ids.olafK1);
    expect(await walkPages(api, "/records?limit=1", annaTokens.partner)).toEqual(whole);
    const olafs = (await get(api, "/records", olafToken)).body.data;
    expect(olafs.map((r: { session_id: number }) => r.session_id)).toContain(ids.olafK1);
  });

  it("weights: own manual entries newest first, never external or another person's", async () => {
    for (const token of [annaTokens.full, annaTokens.partner]) {
      const weights = await walkPages(api, "/health/weights?limit=1", token);
      expect(weights).toEqual([
        { id: expect.any(Number), measured_on: "2026-10-15", weight_kg: DATA_WORLD.annaWeightsKg[1], provenance: "manual" },
        { id: expect.any(Number), measured_on: "2026-10-01", weight_kg: DATA_WORLD.annaWeightsKg[0], provenance: "manual" },
      ]);
    }
    const olafs = (await get(api, "/health/weights", olafToken)).body.data;
    expect(olafs.map((w: { weight_kg: number }) => w.weight_kg)).toEqual([DATA_WORLD.olafWeightKg]);
  });

  it("lactate: own readings, of one readable session or all of them; at most one of session_id and training_id", async () => {
    const lactate = (path: string, token = annaTokens.full) => get(api, `/health/lactate${path}`, token);
    const k1 = await lactate(`?session_id=${ids.annaK1}`, annaTokens.partner);
    expect(k1.body).toEqual({
      data: [
        {
          id: expect.any(Number),
          session_id: ids.annaK1,
          training_id: null,
          measured_at: "2026-05-14T12:05:00.000Z",
          lactate_mmol_l: DATA_WORLD.annaLactate,
          note: "after 3 min",
          provenance: "manual",
        },
      ],
      meta: { next_cursor: null, limit: 50 },
    });
    expectNothingForeign(k1.body, "lactate");
    // Without a filter: all of Anna's own readings in time order: this one, then her training's (data-api-trainings.spec.ts).
    const all = (await lactate("")).body;
    expect(all.data[0]).toEqual(k1.body.data[0]);
    expect(all.data.map((l: { lactate_mmol_l: number }) => l.lactate_mmol_l)).toEqual([
      DATA_WORLD.annaLactate,
      DATA_WORLD.annaTrainingLactate,
    ]);
    // Anna paddled in Olaf's K2: she may read the session, but Olaf's reading of it is his.
    expect((await lactate(`?session_id=${ids.olafK2}`)).body.data).toEqual([]);
    expect(
      (await lactate(`?session_id=${ids.olafK2}`, olafToken)).body.data.map((l: { lactate_mmol_l: number }) => l.lactate_mmol_l),
    ).toEqual([DATA_WORLD.olafLactate]);
    for (const path of [`?session_id=${ids.olafK1}`, `?session_id=${ABSENT}`, `?training_id=${ABSENT}`]) {
      const hidden = await lactate(path);
      expect(hidden.status, path).toBe(404);
      expect(hidden.body.error).toBe("not_found");
    }
    for (const [path, message] of [
      [`?session_id=${ids.annaK1}&training_id=1`, /^training_id/],
      ["?session_id=abc", /^session_id/],
      ["?training_id=0", /^training_id/],
      [`?session_id=${ids.annaK1}&limit=101`, /^limit/],
    ] as const) {
      const { status, body } = await lactate(path);
      expect(status, path).toBe(400);
      expect(body.error_description, path).toMatch(message);
    }
  });

  it("devices: sanitized status and file manifests of the subject's own units; serials never leave", async () => {
    const devices = await walkPages(api, "/devices?limit=1", annaTokens.full);
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
      const one = await get(api, `/devices/${device.id}`, annaTokens.full);
      expect(one.body.data).toEqual(device);
      const files = await get(api, `/devices/${device.id}/files`, annaTokens.full);
      expect(files.body.data).toEqual([
        {
          filename: expect.stringMatching(/^world-60\d\.svc$/),
          byte_size: expect.any(Number),
          sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
          session_id: expect.any(Number),
          session_date: device.last_session_date,
          uploaded_at: expect.any(String),
        },
      ]);
      expectNothingForeign(files.body, "files");
    }
    expectNothingForeign(devices, "devices");
    for (const path of [`/devices/${ids.olafDevice}`, `/devices/${ABSENT}`]) {
      expect((await get(api, path, annaTokens.full)).status, path).toBe(404);
      expect((await get(api, `${path}/files`, annaTokens.full)).status, path).toBe(404);
    }
    const malformed = await get(api, "/devices/0/files", annaTokens.full);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error_description).toMatch(/^device_id/);
  });

  it("cursors are bound to their list, its path and the person", async () => {
    const first = (await get(api, "/devices?limit=1", annaTokens.full)).body;
    const cursor = encodeURIComponent(first.meta.next_cursor);
    const attempts: [string, string, string][] = [
      ["/roster/athletes", `/roster/athletes?cursor=${cursor}`, annaTokens.full],
      ["/equipment/{kind}", `/equipment/paddles?cursor=${cursor}`, annaTokens.full],
      ["/devices", `/devices?limit=1&cursor=${cursor}`, olafToken],
    ];
    for (const [, path, token] of attempts) {
      const { status, body } = await get(api, path, token);
      expect(status, path).toBe(400);
      expect(body.error_description, path).toMatch(/^cursor/);
    }
    const weights = (await get(api, "/health/weights?limit=1", annaTokens.full)).body;
    const crossSurface = await get(
      api,
      `/health/weights?limit=1&cursor=${encodeURIComponent(weights.meta.next_cursor)}`,
      annaTokens.partner,
    );
    expect(crossSurface.status).toBe(400);
    expect((await get(api, `/devices?limit=1&cursor=${cursor}`, annaTokens.full)).status).toBe(200);
  });

  it("no answer carries another person's data, an external provider's value or a serial", async () => {
    const paths = [
      "/roster/athletes",
      "/teams",
      `/teams/${ids.team}`,
      "/equipment/vessels",
      "/equipment/paddles",
      "/records",
      "/health/weights",
      `/health/lactate?session_id=${ids.annaK1}`,
      "/devices",
      "/tracks",
    ];
    for (const path of paths) {
      const response = await get(api, path, annaTokens.full);
      expect(response.status, path).toBe(200);
      expectNothingForeign(response.body, path);
    }
  });
});
