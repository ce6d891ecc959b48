import { beforeAll, describe, expect, it, vi } from "vitest";
import { apiHarness } from "./harness";
import { call, personWithKey, resultsDocument, type OpenApiCheck, type Person } from "./results-client";

/** A database of the file's own (test/api/harness). */
apiHarness();

/**
 * The results API's reads (docs/results-api.md): health, reference tables,
 * credentials, tracks and athletes, the results list's filters, deletion's
 * 403/404 and the per-key rate limit. Every answer is checked against the
 * served document.
 */
let api: OpenApiCheck;
let reader: Person;
beforeAll(async () => {
  api = await resultsDocument();
  reader = await personWithKey("reader");
});

const get = (path: string, authorization?: string) => call("GET", path, { headers: authorization ? { authorization } : {} });

describe("results API: authentication, reference tables, roster", () => {
  it("health answers without credentials, in a shape both APIs accept", async () => {
    const body = await api.check("get", "/health", await get("/api/v1/health"));
    expect(body).toEqual({ status: "ok", data: { status: "ok" } });
  });

  it("reference tables accept the bare public key and the full pair", async () => {
    for (const authorization of [`Bearer ${reader.key.publicKey}`, reader.key.authorization]) {
      const response = await get("/api/v1/vessels", authorization);
      const body = await api.check("get", "/vessels", response);
      expect(body.data.map((v: { type: string }) => v.type)).toEqual(expect.arrayContaining(["K1", "K2", "K4", "C1", "C2", "C4"]));
      expect(body.pagination).toMatchObject({ page: 1, per_page: 20, has_prev: false });
      expect(response.headers.get("x-ratelimit-limit")).toBe("100");
    }
    const one = await api.check("get", "/vessels/{id}", await get("/api/v1/vessels/3", `Bearer ${reader.key.publicKey}`));
    expect(one.data).toEqual({ id: 3, type: "K4", npeople: 4 });
    for (const kind of ["categories", "paces"]) {
      const list = await api.check("get", `/${kind}`, await get(`/api/v1/${kind}?per_page=2&page=2`, reader.key.authorization));
      expect(list.data).toHaveLength(2);
      expect(list.pagination).toMatchObject({ page: 2, per_page: 2, has_prev: true });
      const missing = await get(`/api/v1/${kind}/9999`, reader.key.authorization);
      expect(missing.status).toBe(404);
      expect((await api.check("get", `/${kind}/{id}`, missing)).error).toBe("not_found");
    }
  });

  it("per_page is capped at 100 and bad paging parameters are 400", async () => {
    const capped = await api.check("get", "/paces", await get("/api/v1/paces?per_page=5000", reader.key.authorization));
    expect(capped.pagination.per_page).toBe(100);
    for (const query of ["page=0", "page=abc", "per_page=-1", "page=1&page=2"]) {
      const response = await get(`/api/v1/paces?${query}`, reader.key.authorization);
      const body = await api.check("get", "/paces", response);
      expect(response.status, query).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.message).toMatch(/page|per_page/);
    }
  });

  it("every credential failure is a 401 with a precise message", async () => {
    const cases: [string | undefined, RegExp][] = [
      [undefined, /Authorization header missing/],
      [`Bearer ${reader.key.publicKey}`, /Secret key not supplied/],
      [`Bearer ${reader.key.publicKey}.wrong-secret`, /invalid/],
      ["Bearer svcpk_doesnotexist.svcsk_nope", /invalid/],
      [`Basic ${Buffer.from("a:b").toString("base64")}`, /Authorization header missing/],
    ];
    for (const [authorization, message] of cases) {
      const response = await get("/api/v1/results", authorization);
      const body = await api.check("get", "/results", response);
      expect(response.status).toBe(401);
      expect(body.error).toBe("unauthorized");
      expect(body.message).toMatch(message);
      expect(response.headers.get("www-authenticate")).toContain("Bearer");
    }
  });

  it("a revoked key is refused from the next request on", async () => {
    const revoker = await personWithKey("revoker");
    expect((await get("/api/v1/tracks", revoker.key.authorization)).status).toBe(200);
    await revoker.revoke(revoker.key);
    expect((await get("/api/v1/tracks", revoker.key.authorization)).status).toBe(401);
    expect((await get("/api/v1/vessels", `Bearer ${revoker.key.publicKey}`)).status).toBe(401);
  });

  it("tracks and athletes: only what the key's owner can access; others are 404", async () => {
    const owner = await personWithKey("roster");
    const track = await owner.track("API basin");
    const athlete = await owner.athlete({ name: "Irene", surname: "Lago", modality: "Para kayak", dateOfBirth: "1999-02-03" });
    const auth = owner.key.authorization;

    const tracks = await api.check("get", "/tracks", await get("/api/v1/tracks", auth));
    expect(tracks.data).toContainEqual({ id: track, name: "API basin" });
    expect((await api.check("get", "/tracks/{id}", await get(`/api/v1/tracks/${track}`, auth))).data.name).toBe("API basin");

    const athletes = await api.check("get", "/athletes", await get("/api/v1/athletes?modality=para", auth));
    expect(athletes.data).toEqual([{ id: athlete, name: "Irene Lago", date_of_birth: "1999-02-03", modality: "Para kayak" }]);
    const none = await api.check("get", "/athletes", await get("/api/v1/athletes?modality=canoe%25", auth));
    expect(none.pagination.total).toBe(0);

    const stranger = await personWithKey("stranger");
    for (const [path, template] of [
      [`/api/v1/tracks/${track}`, "/tracks/{id}"],
      [`/api/v1/athletes/${athlete}`, "/athletes/{id}"],
      ["/api/v1/tracks/2147483000", "/tracks/{id}"],
    ]) {
      const response = await get(path, stranger.key.authorization);
      expect(response.status, path).toBe(404);
      expect((await api.check("get", template, response)).error).toBe("not_found");
    }
    const bad = await get("/api/v1/athletes/abc", stranger.key.authorization);
    expect(bad.status).toBe(400);
    expect((await api.check("get", "/athletes/{id}", bad)).message).toMatch(/id must be a positive integer/);
  });

  it("results list: empty for a new account, filters validated", async () => {
    const fresh = await personWithKey("fresh");
    const auth = fresh.key.authorization;
    const empty = await api.check("get", "/results", await get("/api/v1/results", auth));
    expect(empty).toEqual({ data: [], pagination: { page: 1, per_page: 20, total: 0, pages: 0, has_next: false, has_prev: false } });
    for (const [query, message] of [
      ["sort=speed", /sort must be one of/],
      ["order=up", /order must be asc or desc/],
      ["start_date=2025-13-01", /start_date/],
      ["start_datetime=2025-10-13 11:30", /start_datetime/],
      ["vessel_id=K1", /vessel_id must be a positive integer/],
      ["competition=" + "x".repeat(65), /competition/],
    ] as const) {
      const response = await get(`/api/v1/results?${query}`, auth);
      const body = await api.check("get", "/results", response);
      expect(response.status, query).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.message).toMatch(message);
    }
    const missing = await get("/api/v1/results/999999", auth);
    expect(missing.status).toBe(404);
    expect((await api.check("get", "/results/{id}", missing)).error).toBe("not_found");
  });

  it("deleting needs the delete permission (403), and absent results are 404", async () => {
    const viewer = await personWithKey("viewer", { role: "viewer" });
    const forbidden = await call("DELETE", "/api/v1/results/1", { headers: { authorization: viewer.key.authorization } });
    expect(forbidden.status).toBe(403);
    expect((await api.check("delete", "/results/{id}", forbidden)).message).toMatch(/role does not allow deleting/);
    const absent = await call("DELETE", "/api/v1/results/999999", { headers: { authorization: reader.key.authorization } });
    expect(absent.status).toBe(404);
    await api.check("delete", "/results/{id}", absent);
  });

  it("the per-key rate limit answers 429 with Retry-After, and other keys are unaffected", async () => {
    const busy = await personWithKey("busy");
    const auth = `Bearer ${busy.key.publicKey}`;
    // The whole burst in one fixed window, from its start: one that straddles a minute boundary never reaches the limit.
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 101; i++) statuses.push((await get("/api/v1/paces", auth)).status);
      expect(statuses.slice(0, 100)).not.toContain(429);
      expect(statuses[100]).toBe(429);
      const refused = await get("/api/v1/paces", auth);
      expect(refused.status).toBe(429);
      const body = await api.check("get", "/paces", refused);
      expect(body.error).toBe("rate_limited");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect((await get("/api/v1/paces", reader.key.authorization)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});
