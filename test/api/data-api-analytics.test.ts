import { beforeAll, describe, expect, it } from "vitest";
import { DATA_WORLD } from "../../e2e/data-api-world";
import { apiHarness } from "./harness";
import { DATA_WORLD_SEED, loadDataWorld, tokenSet, type TokenSet } from "./data-world";
import { dataApiToken, get, walkPages } from "./data-api-support";

/**
 * GET /sessions/{session_id}/analytics/{analysis} and the cross-session
 * analytics on the seeded world, in process: all eleven analyses, their
 * parameters and limits, the boundary, the 409 of a failed session and the
 * health projection, every answer validated against the served document
 * (moved from e2e/data-api-analytics.spec.ts; the common authorization
 * cases are the security matrix's, security.test.ts). What each analysis
 * finds is tested against simulator truth in server/analytics/analytics.test.ts.
 */
const api = apiHarness({ seed: DATA_WORLD_SEED });
const ANALYSES = [
  "data-quality",
  "anomalies",
  "side-balance",
  "metric-relationships",
  "pacing",
  "progression",
  "stroke-phases",
  "consistency",
  "start",
  "finish",
  "split-motion",
];
type Session = { id: number; boat_class: { type: string }; competition: string; description: string; status: string };

describe("Data API: session analytics", () => {
  let tokens: TokenSet;
  const ids = {} as Record<"annaK1" | "annaC1" | "olafK2" | "failed" | "olafK1", number>;
  const analytics = (path: string, token: string) => get(api, path, token);

  beforeAll(async () => {
    const world = await loadDataWorld(api.db);
    tokens = await tokenSet(api.db, world.anna.userId);
    const mine: Session[] = await walkPages(api, "/sessions?limit=100", tokens.full);
    ids.annaK1 = mine.find((s) => s.competition === "World trial")!.id;
    ids.annaC1 = mine.find((s) => s.boat_class.type === "C1")!.id;
    ids.olafK2 = mine.find((s) => s.boat_class.type === "K2")!.id;
    ids.failed = mine.find((s) => s.description === DATA_WORLD.failedDescription)!.id;
    const his: Session[] = await walkPages(api, "/sessions?limit=100", (await dataApiToken(api, world.olaf.userId)).token);
    ids.olafK1 = his.find((s) => s.boat_class.type === "K1" && s.status === "processed")!.id;
  });

  it("answers all eleven analyses of a processed K1 with their parameters", async () => {
    for (const analysis of ANALYSES) {
      const answer = await analytics(`/sessions/${ids.annaK1}/analytics/${analysis}`, tokens.full);
      expect(answer.status, analysis).toBe(200);
      expect(answer.body.data).toMatchObject({
        session_id: ids.annaK1,
        analysis,
        status: "ok",
        reason: null,
        parameters: { segments: 4, sensitivity: 2, metrics: null },
      });
      expect(answer.body.data.result, analysis).not.toBeNull();
    }
    const pacing = (await analytics(`/sessions/${ids.annaK1}/analytics/pacing?segments=10&sensitivity=0.5`, tokens.full)).body.data;
    expect(pacing.result.segments).toHaveLength(10);
    expect(pacing.result.segments.at(-1).to_m).toBeCloseTo(500, 0);
    expect(pacing.result.tolerance_pct).toBe(6);
    const pairs = (await analytics(`/sessions/${ids.annaK1}/analytics/metric-relationships?metrics=rate,roll,rate`, tokens.full)).body.data;
    expect(pairs.parameters.metrics).toEqual(["rate", "roll"]);
    expect(pairs.result.pairs.map((p: { x: string; y: string }) => `${p.x}/${p.y}`)).toEqual(["rate/roll"]);
  });

  it("a canoe has no side balance: 200 insufficient_data with the reason", async () => {
    const answer = (await analytics(`/sessions/${ids.annaC1}/analytics/side-balance`, tokens.full)).body.data;
    expect(answer).toMatchObject({ status: "insufficient_data", result: null, reason: expect.stringContaining("canoe") });
  });

  it("parameters out of range or unknown are 400 invalid_request naming them", async () => {
    const cases: [string, string][] = [
      ["no-such-analysis", "analysis"],
      ["pacing?segments=1", "segments"],
      ["pacing?segments=21", "segments"],
      ["pacing?segments=4.5", "segments"],
      ["pacing?segments=99999999999", "segments"],
      ["anomalies?sensitivity=0.4", "sensitivity"],
      ["anomalies?sensitivity=10.01", "sensitivity"],
      ["anomalies?sensitivity=1e3", "sensitivity"],
      ["anomalies?sensitivity=NaN", "sensitivity"],
      ["anomalies?sensitivity=%00", "sensitivity"],
      ["anomalies?metrics=heart_rate", "metrics"],
      ["anomalies?metrics=", "metrics"],
      ["anomalies?colour=red", "colour"],
      ["pacing?segments=4&segments=5", "segments"],
    ];
    for (const [suffix, name] of cases) {
      const answer = await analytics(`/sessions/${ids.annaK1}/analytics/${suffix}`, tokens.full);
      expect(answer.status, suffix).toBe(400);
      expect(answer.body.error, suffix).toBe("invalid_request");
      expect(answer.body.error_description, suffix).toContain(name);
    }
  });

  it("another person's session is the same 404 as an absent one; a failed session is 409", async () => {
    const theirs = await analytics(`/sessions/${ids.olafK1}/analytics/pacing`, tokens.full);
    const absent = await analytics(`/sessions/2147483647/analytics/pacing`, tokens.full);
    expect(theirs.status).toBe(404);
    expect(absent.status).toBe(404);
    expect({ ...theirs.body, request_id: null }).toEqual({ ...absent.body, request_id: null });
    const failed = await analytics(`/sessions/${ids.failed}/analytics/start`, tokens.full);
    expect(failed.status).toBe(409);
    expect(failed.body.error).toBe("conflict");
  });

  it("heart-rate coverage only with health:read and only the subject's own heart rate", async () => {
    const own = (await analytics(`/sessions/${ids.annaK1}/analytics/data-quality`, tokens.full)).body.data.result;
    expect(own.heart_rate_coverage).toBeGreaterThan(0);
    const noScope = (await analytics(`/sessions/${ids.annaK1}/analytics/data-quality`, tokens.noOpenid)).body.data.result;
    expect(noScope.heart_rate_coverage).toBeNull();
    // Anna paddled seat 2 of Olaf's K2: the unit's heart rate is Olaf's.
    const crewed = (await analytics(`/sessions/${ids.olafK2}/analytics/data-quality`, tokens.full)).body.data.result;
    expect(crewed.heart_rate_coverage).toBeNull();
  });

  it("across sessions: comparable sessions, progression, personal bests and benchmarks", async () => {
    const s = ids.annaK1;
    const comparable = (await get(api, `/analytics/comparable-sessions?session_id=${s}&limit=25`, tokens.full)).body.data;
    expect(comparable).toMatchObject({ session_id: s, boat_class: "K1", target_distance_m: 500 });
    expect(comparable.sessions.every((c: { session_id: number }) => c.session_id !== s)).toBe(true);
    const progression = (await get(api, `/analytics/progression?session_id=${s}`, tokens.full)).body.data;
    expect(progression.athlete.name).toBe("Anna Owner");
    expect(progression.sessions.filter((x: { is_reference: boolean }) => x.is_reference)).toHaveLength(1);
    const bests = (await get(api, "/analytics/personal-bests", tokens.full)).body.data;
    const records = await walkPages(api, "/records?limit=100", tokens.full);
    // The same figures as the standing records of GET /records.
    const current = records
      .filter((r: { current: boolean }) => r.current)
      .map((r: { session_id: number }) => r.session_id)
      .sort();
    expect(bests.map((b: { session_id: number }) => b.session_id).sort()).toEqual(current);
    // Service-wide, and this file's database holds the seeded world alone: fewer than ten people on this boat and distance.
    const bench = (await get(api, `/analytics/benchmarks?session_id=${s}`, tokens.full)).body.data;
    expect(bench).toMatchObject({
      status: "insufficient_data",
      people: null,
      percentiles: [],
      faster_than_pct: null,
      reason: expect.stringContaining("fewer than 10 people"),
    });

    for (const [, path, name] of [
      ["/analytics/comparable-sessions", "/analytics/comparable-sessions", "session_id"],
      ["/analytics/comparable-sessions", `/analytics/comparable-sessions?session_id=${s}&limit=26`, "limit"],
      ["/analytics/comparable-sessions", `/analytics/comparable-sessions?session_id=${s}&limit=0`, "limit"],
      ["/analytics/progression", "/analytics/progression?session_id=4294967296", "session_id"],
      ["/analytics/benchmarks", "/analytics/benchmarks?session_id=abc", "session_id"],
      ["/analytics/personal-bests", "/analytics/personal-bests?session_id=1", "session_id"],
    ]) {
      const bad = await get(api, path, tokens.full);
      expect(bad.status, path).toBe(400);
      expect(bad.body.error_description, path).toContain(name);
    }
    for (const template of ["/analytics/comparable-sessions", "/analytics/progression", "/analytics/benchmarks"]) {
      const theirs = await get(api, `${template}?session_id=${ids.olafK1}`, tokens.full);
      expect(theirs.status, template).toBe(404);
    }
  });
});
