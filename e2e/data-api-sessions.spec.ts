import { expect, test } from "./fixtures";
import { createKeyPair, signUpOverHttp, trpcMutation } from "./api-helpers";
import { anna, bearer, call, dataApiToken, expectCommonAuthCases, loadDataApi, olaf, tokenSet, walkPages, type OperationCase, type TokenSet } from "./data-api-helpers";
import { DATA_WORLD } from "./data-api-world";
import { apiResourceFor, authorizeAndExchange } from "./oauth-helpers";
import type { OpenApiValidator } from "./openapi-validator";
import { startOfRateWindow } from "./helpers";
import { simulatedSvc } from "./svc-files";

/**
 * Data API identity and sessions against the seeded world
 * (e2e/data-api-world.ts): every operation's happy path, documented errors,
 * scopes, surfaces, subject boundary and cursors, each response validated
 * against the served OpenAPI document.
 */
type Session = { id: number; boat_class: { type: string }; competition: string; status: string; description: string; distance_m: number };

test.describe.configure({ mode: "serial" });

test.describe("Data API: identity and sessions", () => {
  let api: OpenApiValidator;
  let annaTokens: TokenSet;
  let olafToken: string;
  const ids = {} as Record<"annaK1" | "annaK4" | "annaC1" | "olafK2" | "failed" | "olafK1" | "olafC2", number>;
  let benId: number;
  let olafAthleteId: number;

  test.beforeAll(async ({ request, baseURL }) => {
    test.setTimeout(120_000);
    api = await loadDataApi(request);
    annaTokens = await tokenSet(baseURL!, request, anna);
    olafToken = (await dataApiToken(baseURL!, olaf)).token;
    const mine: Session[] = await walkPages(request, api, "/sessions", "/sessions?limit=100", annaTokens.full);
    const find = (list: Session[], predicate: (s: Session) => boolean) => list.find(predicate)!.id;
    ids.annaK1 = find(mine, (s) => s.competition === "World trial");
    ids.annaK4 = find(mine, (s) => s.boat_class.type === "K4");
    ids.annaC1 = find(mine, (s) => s.boat_class.type === "C1");
    ids.olafK2 = find(mine, (s) => s.boat_class.type === "K2");
    ids.failed = find(mine, (s) => s.description === DATA_WORLD.failedDescription);
    const his: Session[] = await walkPages(request, api, "/sessions", "/sessions?limit=100", olafToken);
    ids.olafK1 = find(his, (s) => s.boat_class.type === "K1" && s.status === "processed");
    ids.olafC2 = find(his, (s) => s.boat_class.type === "C2");
    const roster = await call(request, api, { template: "/sessions/{session_id}", path: `/sessions/${ids.annaK4}` }, annaTokens.full);
    benId = roster.body.data.crew[1].athlete.id;
    olafAthleteId = (await call(request, api, { template: "/athlete", path: "/athlete" }, olafToken)).body.data.id;
  });

  test("every identity and session operation passes the common authorization cases", async ({ request }) => {
    const s = ids.annaK1;
    const every = ["data", "partner", "session"] as OperationCase["surfaces"];
    const cases: OperationCase[] = [
      { template: "/me", path: "/me", scopes: ["openid"], surfaces: every },
      { template: "/authorization", path: "/authorization", scopes: ["openid"], surfaces: every },
      { method: "delete", template: "/authorization", path: "/authorization", scopes: ["openid"], surfaces: every },
      { template: "/athlete", path: "/athlete", scopes: ["athlete:read"], surfaces: every },
      { template: "/sessions", path: "/sessions", scopes: ["sessions:read"], surfaces: every },
      { template: "/sessions/{session_id}", path: `/sessions/${s}`, scopes: ["sessions:read"], surfaces: every },
      { template: "/sessions/{session_id}/summary", path: `/sessions/${s}/summary`, scopes: ["sessions:read"], surfaces: every },
      { template: "/sessions/{session_id}/series", path: `/sessions/${s}/series`, scopes: ["sessions:read"], surfaces: every },
      { template: "/sessions/{session_id}/strokes", path: `/sessions/${s}/strokes`, scopes: ["sessions:read"], surfaces: every },
      { template: "/sessions/{session_id}/splits", path: `/sessions/${s}/splits`, scopes: ["sessions:read"], surfaces: every },
    ];
    for (const op of cases) await expectCommonAuthCases(request, api, op, annaTokens);
  });

  test("GET /me gives the pairwise subject of the ID token; name only with profile", async ({ request, baseURL }) => {
    const app = await dataApiToken(baseURL!, anna, { scopes: ["openid", "sessions:read"] });
    const me = await call(request, api, { template: "/me", path: "/me" }, app.token);
    expect(me.status).toBe(200);
    expect(me.body.data).toEqual({ sub: expect.any(String) });
    const full = await call(request, api, { template: "/me", path: "/me" }, annaTokens.full);
    expect(full.body.data).toEqual({ sub: expect.any(String), name: DATA_WORLD.anna.name });
    // Two applications never see the same subject.
    expect(full.body.data.sub).not.toBe(me.body.data.sub);
  });

  test("GET /authorization shows the consent; DELETE revokes only this application and keeps the data", async ({ request, baseURL }) => {
    const { token, app } = await dataApiToken(baseURL!, anna, { scopes: ["openid", "sessions:read", "health:read"] });
    // A second authorization of the same application: its token must fall with the first.
    const again = await authorizeAndExchange(baseURL!, app, { scope: "openid sessions:read health:read", health: true, tokenResource: apiResourceFor(baseURL!) });
    await again.browser.dispose();
    const shown = await call(request, api, { template: "/authorization", path: "/authorization" }, token);
    expect(shown.body.data).toMatchObject({ application: { surface: "data" }, scopes: ["openid", "sessions:read", "health:read"] });
    const revoked = await call(request, api, { method: "delete", template: "/authorization", path: "/authorization" }, token);
    expect(revoked.status).toBe(204);
    for (const path of ["/me", "/sessions", `/sessions/${ids.annaK1}`]) {
      expect((await request.get(`/api/v1${path}`, { headers: bearer(token) })).status()).toBe(401);
      expect((await request.get(`/api/v1${path}`, { headers: bearer(again.tokens.access_token) })).status()).toBe(401);
    }
    const stillThere = await call(request, api, { template: "/sessions/{session_id}", path: `/sessions/${ids.annaK1}` }, annaTokens.full);
    expect(stillThere.status).toBe(200);
  });

  test("GET /athlete is the subject's own profile, 404 without one, no health fields", async ({ request, baseURL }) => {
    const mine = await call(request, api, { template: "/athlete", path: "/athlete" }, annaTokens.full);
    expect(mine.body.data).toEqual({ id: expect.any(Number), name: "Anna", surname: "Owner", date_of_birth: null, modality: "Kayak" });
    const newcomer = await signUpOverHttp(baseURL!, "no-athlete");
    const { token } = await dataApiToken(baseURL!, newcomer, { scopes: ["openid", "athlete:read"] });
    const none = await call(request, api, { template: "/athlete", path: "/athlete" }, token);
    expect(none.status).toBe(404);
    expect(none.body.error).toBe("not_found");
  });

  test("GET /sessions lists what the subject owns or paddled in, never other people's", async ({ request }) => {
    const list: Session[] = await walkPages(request, api, "/sessions", "/sessions?limit=2", annaTokens.full);
    const listed = list.map((s) => s.id);
    expect(listed).toEqual(expect.arrayContaining([ids.annaK1, ids.annaK4, ids.annaC1, ids.olafK2, ids.failed]));
    expect(listed).not.toContain(ids.olafK1);
    expect(listed).not.toContain(ids.olafC2);
    expect(new Set(listed).size).toBe(listed.length);
  });

  test("GET /sessions filters, sorts and orders", async ({ request }) => {
    const get = async (query: string) => (await call(request, api, { template: "/sessions", path: `/sessions?${query}` }, annaTokens.full)).body.data as Session[];
    expect((await get("important=true")).map((s) => s.id)).toEqual([ids.annaK1]);
    expect((await get("competition=world%20TRIAL")).map((s) => s.id)).toEqual([ids.annaK1]);
    expect((await get("distance_m=200")).map((s) => s.id)).toEqual([ids.annaC1]);
    expect((await get("boat_class_id=3")).map((s) => s.id)).toEqual([ids.annaK4]);
    expect((await get(`description=${encodeURIComponent(DATA_WORLD.failedDescription)}`)).map((s) => s.id)).toEqual([ids.failed]);
    expect(await get("date_from=2030-01-01")).toEqual([]);
    expect((await get("date_to=2026-01-12")).map((s) => s.id)).toEqual([ids.failed]);
    const vessels = await call(request, api, { template: "/sessions", path: "/sessions" }, annaTokens.full);
    expect(vessels.status).toBe(200);
    const byDistance = await get("sort=distance&order=asc");
    expect(byDistance.map((s) => s.distance_m)).toEqual([...byDistance.map((s) => s.distance_m)].sort((a, b) => a - b));
    const desc = await get("sort=distance");
    expect(desc.map((s) => s.distance_m)).toEqual([...desc.map((s) => s.distance_m)].sort((a, b) => b - a));
  });

  test("athlete_id reaches the athletes the subject coaches, on the data surface only", async ({ request }) => {
    const ben = await walkPages(request, api, "/sessions", `/sessions?athlete_id=${benId}`, annaTokens.full);
    expect(ben.map((s: Session) => s.id).sort()).toEqual([ids.annaK4, ids.annaC1, ids.olafC2].sort());
    const opened = await call(request, api, { template: "/sessions/{session_id}", path: `/sessions/${ids.olafC2}` }, annaTokens.full);
    expect(opened.status).toBe(200);
    expect((await call(request, api, { template: "/sessions/{session_id}", path: `/sessions/${ids.olafC2}` }, annaTokens.partner)).status).toBe(404);
    const partner = await call(request, api, { template: "/sessions", path: `/sessions?athlete_id=${benId}` }, annaTokens.partner);
    expect(partner.status).toBe(400);
    expect(partner.body.error_description).toMatch(/^athlete_id/);
    const notMine = await call(request, api, { template: "/sessions", path: `/sessions?athlete_id=${olafAthleteId}` }, annaTokens.full);
    expect(notMine.status).toBe(404);
  });

  test("out-of-range and unknown parameters are 400 invalid_request naming the parameter", async ({ request }) => {
    const cases: [string, string, RegExp][] = [
      ["/sessions", "/sessions?limit=0", /^limit/],
      ["/sessions", "/sessions?limit=101", /^limit/],
      ["/sessions", "/sessions?limit=abc", /^limit/],
      ["/sessions", "/sessions?sort=speed", /^sort/],
      ["/sessions", "/sessions?order=up", /^order/],
      ["/sessions", "/sessions?date_from=2026-13-01", /^date_from/],
      ["/sessions", "/sessions?date_from=2026-05-02&date_to=2026-05-01", /^date_from/],
      ["/sessions", "/sessions?distance_m=0", /^distance_m/],
      ["/sessions", "/sessions?important=yes", /^important/],
      ["/sessions", "/sessions?competition=" + "x".repeat(65), /^competition/],
      ["/sessions", "/sessions?colour=red", /colour/],
      ["/sessions", "/sessions?limit=1&limit=2", /^limit/],
      ["/sessions/{session_id}", "/sessions/abc", /^session_id/],
      ["/sessions/{session_id}/series", `/sessions/${ids.annaK1}/series?max_points=1001`, /^max_points/],
      ["/sessions/{session_id}/series", `/sessions/${ids.annaK1}/series?max_points=1`, /^max_points/],
      ["/sessions/{session_id}/series", `/sessions/${ids.annaK1}/series?fields=speed,imu`, /^fields/],
      ["/sessions/{session_id}/splits", `/sessions/${ids.annaK1}/splits?count=0`, /^count/],
      ["/sessions/{session_id}/splits", `/sessions/${ids.annaK1}/splits?count=21`, /^count/],
      ["/sessions/{session_id}/strokes", `/sessions/${ids.annaK1}/strokes?limit=500`, /^limit/],
    ];
    for (const [template, path, message] of cases) {
      const { status, body } = await call(request, api, { template, path }, annaTokens.full);
      expect(status, path).toBe(400);
      expect(body.error, path).toBe("invalid_request");
      expect(body.error_description, path).toMatch(message);
    }
  });

  test("another person's session and its parts are 404, exactly like an absent one", async ({ request }) => {
    for (const suffix of ["", "/summary", "/series", "/strokes", "/splits"]) {
      const template = `/sessions/{session_id}${suffix}`;
      const theirs = await call(request, api, { template, path: `/sessions/${ids.olafK1}${suffix}` }, annaTokens.full);
      const absent = await call(request, api, { template, path: `/sessions/2147483647${suffix}` }, annaTokens.full);
      expect(theirs.status, template).toBe(404);
      expect(absent.status, template).toBe(404);
      expect({ ...theirs.body, request_id: "" }).toEqual({ ...absent.body, request_id: "" });
    }
  });

  test("a session shows the subject's seat, hides crew members they may not see, and health only their own", async ({ request }) => {
    const k1 = (await call(request, api, { template: "/sessions/{session_id}", path: `/sessions/${ids.annaK1}` }, annaTokens.full)).body.data;
    expect(k1.subject_seat).toBe(1);
    expect(k1.crew).toEqual([{ seat: 1, athlete: { id: expect.any(Number), name: "Anna Owner" }, is_subject: true }]);
    expect(k1.equipment).toEqual({ vessel: { id: expect.any(Number), name: DATA_WORLD.annaVesselName, boat_class: "K1" }, paddle: { id: expect.any(Number), name: DATA_WORLD.annaPaddleName, kind: "kayak" } });
    expect(k1.health.avg_heart_rate_bpm).toBeGreaterThan(60);

    const bare = (await call(request, api, { template: "/sessions/{session_id}", path: `/sessions/${ids.annaK1}` }, annaTokens.noOpenid)).body.data;
    expect(bare.health).toBeNull();
    expect(bare.equipment).toBeNull();

    const k4 = (await call(request, api, { template: "/sessions/{session_id}", path: `/sessions/${ids.annaK4}` }, annaTokens.full)).body.data;
    expect(k4.crew.map((s: { athlete: { name: string } | null }) => s.athlete?.name ?? null)).toEqual(["Anna Owner", "Ben Managed", null, null]);
    const k4Partner = (await call(request, api, { template: "/sessions/{session_id}", path: `/sessions/${ids.annaK4}` }, annaTokens.partner)).body.data;
    expect(k4Partner.crew.map((s: { athlete: { name: string } | null }) => s.athlete?.name ?? null)).toEqual(["Anna Owner", null, null, null]);

    const k2 = (await call(request, api, { template: "/sessions/{session_id}", path: `/sessions/${ids.olafK2}` }, annaTokens.full)).body.data;
    expect(k2.subject_seat).toBe(2);
    expect(k2.crew[0]).toEqual({ seat: 1, athlete: null, is_subject: false });
    expect(k2.health).toBeNull();
    const summary = (await call(request, api, { template: "/sessions/{session_id}/summary", path: `/sessions/${ids.olafK2}/summary` }, annaTokens.full)).body.data;
    expect(summary.heart_rate).toBeNull();
    // Whether readings exist is health data too: the coverage follows the heart rate (issue 14, defect 7).
    expect(summary.data_quality.heart_rate_coverage).toBeNull();
    const ownSummary = (await call(request, api, { template: "/sessions/{session_id}/summary", path: `/sessions/${ids.annaK1}/summary` }, annaTokens.full)).body.data;
    expect(ownSummary.data_quality.heart_rate_coverage).toBeGreaterThan(0.5);
    const withoutHealth = (await call(request, api, { template: "/sessions/{session_id}/summary", path: `/sessions/${ids.annaK1}/summary` }, annaTokens.noOpenid)).body.data;
    expect(withoutHealth.heart_rate).toBeNull();
    expect(withoutHealth.data_quality.heart_rate_coverage).toBeNull();
    const hr = (await call(request, api, { template: "/sessions/{session_id}/series", path: `/sessions/${ids.olafK2}/series?fields=heart_rate` }, annaTokens.full)).body.data;
    expect(hr.heart_rate_bpm.every((v: number | null) => v === null)).toBe(true);
  });

  test("summary, series, strokes and splits of a processed session; 409 for one whose processing failed", async ({ request }) => {
    const s = ids.annaK1;
    const summary = (await call(request, api, { template: "/sessions/{session_id}/summary", path: `/sessions/${s}/summary` }, annaTokens.full)).body.data;
    expect(summary.stroke_count).toBeGreaterThan(100);
    expect(summary.heart_rate.avg_bpm).toBeGreaterThan(60);
    expect(summary.data_quality.imu_samples).toBeGreaterThan(1000);

    const series = (await call(request, api, { template: "/sessions/{session_id}/series", path: `/sessions/${s}/series?max_points=1000&fields=distance,speed,rate,stroke_distance,heart_rate,route` }, annaTokens.full)).body.data;
    expect(series.points).toBeLessThanOrEqual(1000);
    for (const key of ["t_s", "distance_m", "speed_m_s", "rate_spm", "stroke_distance_m", "heart_rate_bpm"]) expect(series[key].length, key).toBe(series.points);
    expect(series.route.length).toBeLessThanOrEqual(1000);
    expect(series.route.length).toBeGreaterThan(10);
    const small = (await call(request, api, { template: "/sessions/{session_id}/series", path: `/sessions/${s}/series?max_points=7` }, annaTokens.full)).body.data;
    expect(small.points).toBe(7);
    expect(Object.keys(small).sort()).toEqual(["distance_m", "points", "rate_spm", "session_id", "speed_m_s", "t_s"]);
    const noHealth = await call(request, api, { template: "/sessions/{session_id}/series", path: `/sessions/${s}/series?fields=heart_rate` }, annaTokens.noOpenid);
    expect(noHealth.status).toBe(403);
    expect(noHealth.body).toMatchObject({ error: "insufficient_scope", scope: "sessions:read health:read" });

    const strokes = await walkPages(request, api, "/sessions/{session_id}/strokes", `/sessions/${s}/strokes?limit=37`, annaTokens.full);
    expect(strokes.length).toBe(summary.stroke_count);
    expect(strokes.map((st: { index: number }) => st.index)).toEqual(strokes.map((_: unknown, i: number) => i));
    expect(new Set(strokes.map((st: { side: string }) => st.side))).toEqual(new Set(["left", "right"]));

    for (const count of [1, 4, 20]) {
      const splits = (await call(request, api, { template: "/sessions/{session_id}/splits", path: `/sessions/${s}/splits?count=${count}` }, annaTokens.full)).body.data;
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
    const defaults = (await call(request, api, { template: "/sessions/{session_id}/splits", path: `/sessions/${s}/splits` }, annaTokens.full)).body.data;
    expect(defaults.count).toBe(4);

    for (const suffix of ["summary", "series", "splits"]) {
      const failed = await call(request, api, { template: `/sessions/{session_id}/${suffix}`, path: `/sessions/${ids.failed}/${suffix}` }, annaTokens.full);
      expect(failed.status, suffix).toBe(409);
      expect(failed.body.error).toBe("conflict");
    }
    const noStrokes = await call(request, api, { template: "/sessions/{session_id}/strokes", path: `/sessions/${ids.failed}/strokes` }, annaTokens.full);
    expect(noStrokes.body).toEqual({ data: [], meta: { next_cursor: null, limit: 50 } });
  });

  test("cursors: tampered, from another list, other filters or another person are 400", async ({ request }) => {
    const first = (await call(request, api, { template: "/sessions", path: "/sessions?limit=1" }, annaTokens.full)).body;
    const cursor: string = first.meta.next_cursor;
    expect(cursor).toEqual(expect.any(String));
    const [payload, signature] = cursor.split(".");
    const flipped = `${payload.slice(0, -1)}${payload.at(-1) === "A" ? "B" : "A"}.${signature}`;
    const attempts: [string, string, string, RegExp][] = [
      ["/sessions", `/sessions?limit=1&cursor=${flipped}`, annaTokens.full, /altered/],
      ["/sessions", "/sessions?limit=1&cursor=garbage", annaTokens.full, /cursor/],
      ["/sessions", `/sessions?limit=1&sort=distance&cursor=${cursor}`, annaTokens.full, /another list/],
      ["/sessions/{session_id}/strokes", `/sessions/${ids.annaK1}/strokes?cursor=${cursor}`, annaTokens.full, /another list/],
      ["/sessions", `/sessions?limit=1&cursor=${cursor}`, olafToken, /another (account|list)/],
    ];
    for (const [template, path, token, message] of attempts) {
      const { status, body } = await call(request, api, { template, path }, token);
      expect(status, path).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.error_description).toMatch(message);
    }
    // The same cursor with another page size is the same list.
    expect((await call(request, api, { template: "/sessions", path: `/sessions?limit=3&cursor=${cursor}` }, annaTokens.full)).status).toBe(200);
  });

  test("past the per-application limit a person's calls get 429 rate_limited with Retry-After", async ({ request, baseURL }) => {
    // Up to 30 s waiting for a fresh window, then 300 calls: more than the default timeout on a busy machine.
    test.setTimeout(120_000);
    // A fresh application: the count is per application and person, so no other spec is affected.
    const { token } = await dataApiToken(baseURL!, anna, { scopes: ["openid"] });
    await startOfRateWindow(30);
    const first = await request.get("/api/v1/me", { headers: bearer(token) });
    const limit = Number(first.headers()["x-ratelimit-limit"]);
    expect(limit).toBeGreaterThan(0);
    let last = first;
    for (let i = 1; i <= limit && last.status() === 200; i++) last = await request.get("/api/v1/me", { headers: bearer(token) });
    const body = await api.check("get", "/me", last);
    expect(last.status()).toBe(429);
    expect(body).toMatchObject({ error: "rate_limited", request_id: expect.stringMatching(/^req_/) });
    expect(Number(last.headers()["retry-after"])).toBeGreaterThan(0);
  });

  test("pages stay stable while new sessions arrive", async ({ request, baseURL }) => {
    test.setTimeout(90_000);
    // A fresh coach, so the uploads leave the seeded world as it is.
    const coach = await signUpOverHttp(baseURL!, "stability");
    const key = await createKeyPair(baseURL!, coach, "stability");
    const athleteId = (await trpcMutation<{ id: number }>(key.context, "athletes.create", { name: "Steady", surname: "Walker", subscriptionActiveUntil: "2099-12-31" })).id;
    const trackId = (await trpcMutation<{ id: number }>(key.context, "tracks.create", { name: "Stability basin" })).id;
    let seed = 7000;
    const upload = async () => {
      const response = await request.post("/api/v1/results", {
        headers: { authorization: key.authorization, "x-forwarded-proto": "https" },
        multipart: {
          file: { name: "new.svc", mimeType: "application/octet-stream", buffer: simulatedSvc({ vessel: "K1", distanceM: 100, seed: seed++ }) },
          metadata: JSON.stringify({ distance: 100, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] }),
        },
      });
      expect(response.status(), await response.text()).toBe(201);
    };
    for (let i = 0; i < 4; i++) await upload();
    const { token } = await dataApiToken(baseURL!, coach, { scopes: ["openid", "sessions:read"] });
    for (const sort of ["date", "created"]) {
      const before: Session[] = await walkPages(request, api, "/sessions", `/sessions?limit=100&sort=${sort}`, token);
      // Walk one at a time; after the first pages, new sessions arrive (newest first: they sort before the walker).
      const seen: number[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const path: string = `/sessions?limit=1&sort=${sort}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
        const { body } = await call(request, api, { template: "/sessions", path }, token);
        seen.push(...body.data.map((s: Session) => s.id));
        cursor = body.meta.next_cursor;
        if (page++ === 1) await upload();
      } while (cursor);
      // Nothing repeated, nothing that existed skipped, the order kept.
      expect(new Set(seen).size, sort).toBe(seen.length);
      const known = new Set(before.map((s) => s.id));
      expect(seen.filter((id) => known.has(id)), sort).toEqual(before.map((s) => s.id));
      // Newest-created first: the arrivals sort before the walker and never appear mid-walk.
      if (sort === "created") expect(seen).toEqual(before.map((s) => s.id));
    }
    await key.context.dispose();
  });
});
