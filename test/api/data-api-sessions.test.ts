import { beforeAll, describe, expect, it } from "vitest";
import { createAthlete } from "@/server/athletes/athletes";
import { dataApiClock } from "@/server/http/data-api/define-operation";
import { createTrack } from "@/server/tracks/tracks";
import { DATA_WORLD } from "../../e2e/data-api-world";
import { simulatedSvc } from "../../e2e/svc-files";
import { apiHarness, createKeyPairToken, createPerson } from "./harness";
import { DATA_WORLD_SEED, loadDataWorld, tokenSet, type TokenSet } from "./data-world";
import { dataApiToken, get, walkPages } from "./data-api-support";

/**
 * Data API identity and sessions against the seeded world
 * (e2e/data-api-world.ts), in process: happy paths, documented errors,
 * the subject boundary and cursors, each answer validated against the
 * served document (moved from e2e/data-api-sessions.spec.ts; the common
 * authorization cases are the security matrix's, security.test.ts).
 */
type Session = { id: number; boat_class: { type: string }; competition: string; status: string; description: string; distance_m: number };

const api = apiHarness({ seed: DATA_WORLD_SEED });
let annaTokens: TokenSet;
let olafToken: string;
let annaId: number;
const ids = {} as Record<"annaK1" | "annaK4" | "annaC1" | "olafK2" | "failed" | "olafK1" | "olafC2", number>;
let benId: number;
let olafAthleteId: number;

beforeAll(async () => {
  const world = await loadDataWorld(api.db);
  annaId = world.anna.userId;
  annaTokens = await tokenSet(api.db, world.anna.userId);
  olafToken = (await dataApiToken(api, world.olaf.userId)).token;
  const mine: Session[] = await walkPages(api, "/sessions?limit=100", annaTokens.full);
  const find = (list: Session[], predicate: (s: Session) => boolean) => list.find(predicate)!.id;
  ids.annaK1 = find(mine, (s) => s.competition === "World trial");
  ids.annaK4 = find(mine, (s) => s.boat_class.type === "K4");
  ids.annaC1 = find(mine, (s) => s.boat_class.type === "C1");
  ids.olafK2 = find(mine, (s) => s.boat_class.type === "K2");
  ids.failed = find(mine, (s) => s.description === DATA_WORLD.failedDescription);
  const his: Session[] = await walkPages(api, "/sessions?limit=100", olafToken);
  ids.olafK1 = find(his, (s) => s.boat_class.type === "K1" && s.status === "processed");
  ids.olafC2 = find(his, (s) => s.boat_class.type === "C2");
  benId = (await get(api, `/sessions/${ids.annaK4}`, annaTokens.full)).body.data.crew[1].athlete.id;
  olafAthleteId = (await get(api, "/athlete", olafToken)).body.data.id;
});

describe("Data API: identity", () => {
  it("GET /me gives the pairwise subject of the ID token; name only with profile", async () => {
    const app = await dataApiToken(api, annaId, { scopes: ["openid", "sessions:read"] });
    const me = await get(api, "/me", app.token);
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({ sub: expect.any(String) });
    const full = await get(api, "/me", annaTokens.full);
    expect(full.body.data).toEqual({ sub: expect.any(String), name: DATA_WORLD.anna.name });
    // Two applications never see the same subject.
    expect(full.body.data.sub).not.toBe(me.body.data.sub);
  });

  it("GET /authorization shows the consent; DELETE revokes only this application and keeps the data", async () => {
    const { token, app } = await dataApiToken(api, annaId, { scopes: ["openid", "sessions:read", "health:read"] });
    // A second authorization of the same application: its token must fall with the first.
    const { issueToken } = await import("./harness");
    const again = await issueToken(api.db, { userId: annaId, application: app, scopes: ["openid", "sessions:read", "health:read"] });
    const shown = await get(api, "/authorization", token);
    expect(shown.body.data).toMatchObject({ application: { surface: "data" }, scopes: ["openid", "sessions:read", "health:read"] });
    const revoked = await api.call("DELETE", "/authorization", { token });
    expect(revoked.status).toBe(204);
    for (const path of ["/me", "/sessions", `/sessions/${ids.annaK1}`]) {
      expect((await get(api, path, token)).status).toBe(401);
      expect((await get(api, path, again.token)).status).toBe(401);
    }
    expect((await get(api, `/sessions/${ids.annaK1}`, annaTokens.full)).status).toBe(200);
  });

  it("GET /athlete is the subject's own profile, 404 without one, no health fields", async () => {
    const mine = await get(api, "/athlete", annaTokens.full);
    expect(mine.body.data).toEqual({ id: expect.any(Number), name: "Anna", surname: "Owner", date_of_birth: null, modality: "Kayak" });
    const newcomer = await createPerson(api.db);
    const { token } = await dataApiToken(api, newcomer.id, { scopes: ["openid", "athlete:read"] });
    const none = await get(api, "/athlete", token);
    expect(none.status).toBe(404);
    expect(none.body.error).toBe("not_found");
  });
});

describe("Data API: session lists", () => {
  it("GET /sessions lists what the subject owns or paddled in, never other people's", async () => {
    const listed = (await walkPages(api, "/sessions?limit=2", annaTokens.full)).map((s: Session) => s.id);
    expect(listed).toEqual(expect.arrayContaining([ids.annaK1, ids.annaK4, ids.annaC1, ids.olafK2, ids.failed]));
    expect(listed).not.toContain(ids.olafK1);
    expect(listed).not.toContain(ids.olafC2);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("GET /sessions filters, sorts and orders", async () => {
    const list = async (query: string) => (await get(api, `/sessions?${query}`, annaTokens.full)).body.data as Session[];
    expect((await list("important=true")).map((s) => s.id)).toEqual([ids.annaK1]);
    expect((await list("competition=world%20TRIAL")).map((s) => s.id)).toEqual([ids.annaK1]);
    expect((await list("distance_m=200")).map((s) => s.id)).toEqual([ids.annaC1]);
    expect((await list("boat_class_id=3")).map((s) => s.id)).toEqual([ids.annaK4]);
    expect((await list(`description=${encodeURIComponent(DATA_WORLD.failedDescription)}`)).map((s) => s.id)).toEqual([ids.failed]);
    expect(await list("date_from=2030-01-01")).toEqual([]);
    expect((await list("date_to=2026-01-12")).map((s) => s.id)).toEqual([ids.failed]);
    expect((await get(api, "/sessions", annaTokens.full)).status).toBe(200);
    const byDistance = await list("sort=distance&order=asc");
    expect(byDistance.map((s) => s.distance_m)).toEqual([...byDistance.map((s) => s.distance_m)].sort((a, b) => a - b));
    const desc = await list("sort=distance");
    expect(desc.map((s) => s.distance_m)).toEqual([...desc.map((s) => s.distance_m)].sort((a, b) => b - a));
  });

  it("athlete_id reaches the athletes the subject coaches, on the data surface only", async () => {
    const ben = await walkPages(api, `/sessions?athlete_id=${benId}`, annaTokens.full);
    expect(ben.map((s: Session) => s.id).sort()).toEqual([ids.annaK4, ids.annaC1, ids.olafC2].sort());
    expect((await get(api, `/sessions/${ids.olafC2}`, annaTokens.full)).status).toBe(200);
    expect((await get(api, `/sessions/${ids.olafC2}`, annaTokens.partner)).status).toBe(404);
    const partner = await get(api, `/sessions?athlete_id=${benId}`, annaTokens.partner);
    expect(partner.status).toBe(400);
    expect(partner.body.error_description).toMatch(/^athlete_id/);
    expect((await get(api, `/sessions?athlete_id=${olafAthleteId}`, annaTokens.full)).status).toBe(404);
  });

  it("out-of-range and unknown parameters are 400 invalid_request naming the parameter", async () => {
    const cases: [string, RegExp][] = [
      ["/sessions?limit=0", /^limit/],
      ["/sessions?limit=101", /^limit/],
      ["/sessions?limit=abc", /^limit/],
      ["/sessions?sort=speed", /^sort/],
      ["/sessions?order=up", /^order/],
      ["/sessions?date_from=2026-13-01", /^date_from/],
      ["/sessions?date_from=2026-05-02&date_to=2026-05-01", /^date_from/],
      ["/sessions?distance_m=0", /^distance_m/],
      ["/sessions?important=yes", /^important/],
      ["/sessions?competition=" + "x".repeat(65), /^competition/],
      ["/sessions?colour=red", /colour/],
      ["/sessions?limit=1&limit=2", /^limit/],
      ["/sessions/abc", /^session_id/],
      [`/sessions/${ids.annaK1}/series?max_points=1001`, /^max_points/],
      [`/sessions/${ids.annaK1}/series?max_points=1`, /^max_points/],
      [`/sessions/${ids.annaK1}/series?fields=speed,imu`, /^fields/],
      [`/sessions/${ids.annaK1}/splits?count=0`, /^count/],
      [`/sessions/${ids.annaK1}/splits?count=21`, /^count/],
      [`/sessions/${ids.annaK1}/strokes?limit=500`, /^limit/],
    ];
    for (const [path, message] of cases) {
      const { status, body } = await get(api, path, annaTokens.full);
      expect(status, path).toBe(400);
      expect(body.error, path).toBe("invalid_request");
      expect(body.error_description, path).toMatch(message);
    }
  });

  it("another person's session and its parts are 404, exactly like an absent one", async () => {
    for (const suffix of ["", "/summary", "/series", "/strokes", "/splits"]) {
      const theirs = await get(api, `/sessions/${ids.olafK1}${suffix}`, annaTokens.full);
      const absent = await get(api, `/sessions/2147483647${suffix}`, annaTokens.full);
      expect(theirs.status, suffix).toBe(404);
      expect(absent.status, suffix).toBe(404);
      expect({ ...theirs.body, request_id: "" }).toEqual({ ...absent.body, request_id: "" });
    }
  });
});

describe("Data API: one session", () => {
  it("shows the subject's seat, hides crew members they may not see, and health only their own", async () => {
    const k1 = (await get(api, `/sessions/${ids.annaK1}`, annaTokens.full)).body.data;
    expect(k1.subject_seat).toBe(1);
    expect(k1.crew).toEqual([{ seat: 1, athlete: { id: expect.any(Number), name: "Anna Owner" }, is_subject: true }]);
    expect(k1.equipment).toEqual({
      vessel: { id: expect.any(Number), name: DATA_WORLD.annaVesselName, boat_class: "K1" },
      paddle: { id: expect.any(Number), name: DATA_WORLD.annaPaddleName, kind: "kayak" },
    });
    expect(k1.health.avg_heart_rate_bpm).toBeGreaterThan(60);

    const bare = (await get(api, `/sessions/${ids.annaK1}`, annaTokens.noOpenid)).body.data;
    expect(bare.health).toBeNull();
    expect(bare.equipment).toBeNull();

    const seatNames = (crew: { athlete: { name: string } | null }[]) => crew.map((s) => s.athlete?.name ?? null);
    expect(seatNames((await get(api, `/sessions/${ids.annaK4}`, annaTokens.full)).body.data.crew)).toEqual([
      "Anna Owner",
      "Ben Managed",
      null,
      null,
    ]);
    expect(seatNames((await get(api, `/sessions/${ids.annaK4}`, annaTokens.partner)).body.data.crew)).toEqual([
      "Anna Owner",
      null,
      null,
      null,
    ]);

    const k2 = (await get(api, `/sessions/${ids.olafK2}`, annaTokens.full)).body.data;
    expect(k2.subject_seat).toBe(2);
    expect(k2.crew[0]).toEqual({ seat: 1, athlete: null, is_subject: false });
    expect(k2.health).toBeNull();
    const summary = (await get(api, `/sessions/${ids.olafK2}/summary`, annaTokens.full)).body.data;
    expect(summary.heart_rate).toBeNull();
    // Whether readings exist is health data too: the coverage follows the heart rate (issue 14, defect 7).
    expect(summary.data_quality.heart_rate_coverage).toBeNull();
    expect((await get(api, `/sessions/${ids.annaK1}/summary`, annaTokens.full)).body.data.data_quality.heart_rate_coverage).toBeGreaterThan(
      0.5,
    );
    const withoutHealth = (await get(api, `/sessions/${ids.annaK1}/summary`, annaTokens.noOpenid)).body.data;
    expect(withoutHealth.heart_rate).toBeNull();
    expect(withoutHealth.data_quality.heart_rate_coverage).toBeNull();
    const hr = (await get(api, `/sessions/${ids.olafK2}/series?fields=heart_rate`, annaTokens.full)).body.data;
    expect(hr.heart_rate_bpm.every((v: number | null) => v === null)).toBe(true);
  });

  it("summary, series and strokes of a processed session", async () => {
    const s = ids.annaK1;
    const summary = (await get(api, `/sessions/${s}/summary`, annaTokens.full)).body.data;
    expect(summary.stroke_count).toBeGreaterThan(100);
    expect(summary.heart_rate.avg_bpm).toBeGreaterThan(60);
    expect(summary.data_quality.imu_samples).toBeGreaterThan(1000);

    const series = (
      await get(api, `/sessions/${s}/series?max_points=1000&fields=distance,speed,rate,stroke_distance,heart_rate,route`, annaTokens.full)
    ).body.data;
    expect(series.points).toBeLessThanOrEqual(1000);
    for (const key of ["t_s", "distance_m", "speed_m_s", "rate_spm", "stroke_distance_m", "heart_rate_bpm"])
      expect(series[key].length, key).toBe(series.points);
    expect(series.route.length).toBeLessThanOrEqual(1000);
    expect(series.route.length).toBeGreaterThan(10);
    const small = (await get(api, `/sessions/${s}/series?max_points=7`, annaTokens.full)).body.data;
    expect(small.points).toBe(7);
    expect(Object.keys(small).sort()).toEqual(["distance_m", "points", "rate_spm", "session_id", "speed_m_s", "t_s"]);
    const noHealth = await get(api, `/sessions/${s}/series?fields=heart_rate`, annaTokens.noOpenid);
    expect(noHealth.status).toBe(403);
    expect(noHealth.body).toMatchObject({ error: "insufficient_scope", scope: "sessions:read health:read" });

    const strokes = await walkPages(api, `/sessions/${s}/strokes?limit=37`, annaTokens.full);
    expect(strokes.length).toBe(summary.stroke_count);
    expect(strokes.map((st: { index: number }) => st.index)).toEqual(strokes.map((_: unknown, i: number) => i));
    expect(new Set(strokes.map((st: { side: string }) => st.side))).toEqual(new Set(["left", "right"]));
  });

  it("splits with their uncertainty; 409 for a session whose processing failed", async () => {
    const s = ids.annaK1;
    const summary = (await get(api, `/sessions/${s}/summary`, annaTokens.full)).body.data;
    for (const count of [1, 4, 20]) {
      const splits = (await get(api, `/sessions/${s}/splits?count=${count}`, annaTokens.full)).body.data;
      expect(splits.splits).toHaveLength(count);
      expect(splits.splits.at(-1).distance_m).toBeCloseTo(500, 0);
      const total = splits.splits.reduce((sum: number, sp: { split_s: number }) => sum + sp.split_s, 0);
      expect(total).toBeCloseTo(summary.duration_ms / 1000, 1);
      // Every split carries its 95 % uncertainty (docs/processing.md "Split uncertainty"): the elapsed one grows
      // with the distance from the start, the split's own one is smaller, and the last is the final time's.
      const items = splits.splits as { elapsed_uncertainty_s: number; split_uncertainty_s: number }[];
      for (const [k, sp] of items.entries()) {
        expect(sp.elapsed_uncertainty_s, `split ${k + 1}`).toBeGreaterThan(0);
        expect(sp.elapsed_uncertainty_s).toBeLessThan(1);
        if (k > 0) expect(sp.split_uncertainty_s).toBeLessThan(sp.elapsed_uncertainty_s);
      }
      expect(items.at(-1)!.elapsed_uncertainty_s).toBeGreaterThan(items[0].elapsed_uncertainty_s * (count > 1 ? 1 : 0.99));
      expect(items.at(-1)!.elapsed_uncertainty_s).toBe(summary.duration_uncertainty_s);
    }
    expect((await get(api, `/sessions/${s}/splits`, annaTokens.full)).body.data.count).toBe(4);

    for (const suffix of ["summary", "series", "splits"]) {
      const failed = await get(api, `/sessions/${ids.failed}/${suffix}`, annaTokens.full);
      expect(failed.status, suffix).toBe(409);
      expect(failed.body.error).toBe("conflict");
    }
    expect((await get(api, `/sessions/${ids.failed}/strokes`, annaTokens.full)).body).toEqual({
      data: [],
      meta: { next_cursor: null, limit: 50 },
    });
  });
});

describe("Data API: cursors and limits", () => {
  it("cursors: tampered, from another list, other filters or another person are 400", async () => {
    const cursor: string = (await get(api, "/sessions?limit=1", annaTokens.full)).body.meta.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const [payload, signature] = cursor.split(".");
    const flipped = `${payload.slice(0, -1)}${payload.at(-1) === "A" ? "B" : "A"}.${signature}`;
    const attempts: [string, string, RegExp][] = [
      [`/sessions?limit=1&cursor=${flipped}`, annaTokens.full, /altered/],
      ["/sessions?limit=1&cursor=garbage", annaTokens.full, /cursor/],
      [`/sessions?limit=1&sort=distance&cursor=${cursor}`, annaTokens.full, /another list/],
      [`/sessions/${ids.annaK1}/strokes?cursor=${cursor}`, annaTokens.full, /another list/],
      [`/sessions?limit=1&cursor=${cursor}`, olafToken, /another (account|list)/],
    ];
    for (const [path, token, message] of attempts) {
      const { status, body } = await get(api, path, token);
      expect(status, path).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.error_description).toMatch(message);
    }
    // The same cursor with another page size is the same list.
    expect((await get(api, `/sessions?limit=3&cursor=${cursor}`, annaTokens.full)).status).toBe(200);
  });

  it("past the per-application limit a person's calls get 429 rate_limited with Retry-After", async () => {
    // A fresh application (the count is per application and person); every call in one window of the API's own clock.
    const { token } = await dataApiToken(api, annaId, { scopes: ["openid"] });
    const windowStart = Math.ceil(Date.now() / 60_000) * 60_000;
    const wallClock = dataApiClock.now;
    dataApiClock.now = () => new Date(windowStart + 1_000);
    try {
      const first = await get(api, "/me", token);
      const limit = Number(first.headers.get("x-ratelimit-limit"));
      expect(limit).toBeGreaterThan(0);
      let last = first;
      for (let i = 1; i <= limit && last.status === 200; i++) last = await get(api, "/me", token);
      expect(last.status).toBe(429);
      expect(last.body).toMatchObject({ error: "rate_limited", request_id: expect.stringMatching(/^req_/) });
      expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      dataApiClock.now = wallClock;
    }
  });

  it("pages stay stable while new sessions arrive", async () => {
    // A fresh coach, so the uploads leave the seeded world as it is.
    const coach = await createPerson(api.db);
    const key = await createKeyPairToken(api.db, coach.id);
    const athleteId = (await createAthlete(api.db, coach.id, { name: "Steady", surname: "Walker", subscriptionActiveUntil: "2099-12-31" }))
      .id;
    const trackId = (await createTrack(api.db, coach.id, { name: "Stability basin" })).id;
    let seed = 7000;
    const upload = async () => {
      const form = new FormData();
      form.append(
        "file",
        new Blob([new Uint8Array(simulatedSvc({ vessel: "K1", distanceM: 100, seed: seed++ }))], { type: "application/octet-stream" }),
        "new.svc",
      );
      form.append(
        "metadata",
        JSON.stringify({ distance: 100, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] }),
      );
      const response = await api.call("POST", "/results", { token: key.token, body: form });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    };
    for (let i = 0; i < 4; i++) await upload();
    const { token } = await dataApiToken(api, coach.id, { scopes: ["openid", "sessions:read"] });
    for (const sort of ["date", "created"]) {
      const before: Session[] = await walkPages(api, `/sessions?limit=100&sort=${sort}`, token);
      // Walk one at a time; after the first pages, new sessions arrive (newest first: they sort before the walker).
      const seen: number[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const { body }: { body: { data: Session[]; meta: { next_cursor: string | null } } } = await get(
          api,
          `/sessions?limit=1&sort=${sort}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
          token,
        );
        seen.push(...body.data.map((s) => s.id));
        cursor = body.meta.next_cursor;
        if (page++ === 1) await upload();
      } while (cursor);
      // Nothing repeated, nothing that existed skipped, the order kept.
      expect(new Set(seen).size, sort).toBe(seen.length);
      const known = new Set(before.map((s) => s.id));
      expect(
        seen.filter((id) => known.has(id)),
        sort,
      ).toEqual(before.map((s) => s.id));
      // Newest-created first: the arrivals sort before the walker and never appear mid-walk.
      if (sort === "created") expect(seen).toEqual(before.map((s) => s.id));
    }
  });
});
