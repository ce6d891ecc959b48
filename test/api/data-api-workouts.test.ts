import { describe, beforeAll, expect, it } from "vitest";
import { createTemplate } from "@/server/workouts/templates";
import { DATA_WORLD } from "../../e2e/data-api-world";
import { apiHarness, createPerson } from "./harness";
import { DATA_WORLD_SEED, loadDataWorld, tokenSet, type TokenSet } from "./data-world";
import { dataApiToken, get, walkPages } from "./data-api-support";

/**
 * The workout-template operations and POST /sessions/compare on the seeded
 * world and on a person of their own, in process: pages, the boundary
 * (someone else's is the absent 404), every documented 400 of the import
 * with its JSON paths, and the compare's limits, 404 and 409; every answer
 * validated against the served document (moved from
 * e2e/data-api-workouts.spec.ts; the common authorization cases are the
 * security matrix's, security.test.ts).
 */
const api = apiHarness({ seed: DATA_WORLD_SEED });
const SMALLEST =
  '{"version": 1, "steps": [{"kind": "work", "distance_m": 500}, {"kind": "rest", "duration_s": 120}, {"kind": "work", "distance_m": 500}]}';
type Session = { id: number; boat_class: { type: string }; competition: string; description: string; status: string; distance_m: number };

describe("Data API: workout templates and session compare", () => {
  let tokens: TokenSet;
  const ids = {} as Record<"annaK1" | "annaK4" | "annaC1" | "olafK2" | "failed" | "olafK1" | "annaTemplate" | "olafTemplate", number>;

  /** A JSON (or raw) POST validated against the document. */
  const post = (path: string, token: string, body: string | object | Uint8Array, contentType = "application/json") =>
    api.call("POST", path, {
      token,
      body: typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body),
      headers: { "content-type": contentType },
    });
  const inspect = (body: string | object | Uint8Array, contentType?: string) =>
    post("/workout-templates/import", tokens.full, body, contentType);
  const compare = (body: string | object, token = tokens.full) => post("/sessions/compare", token, body);

  beforeAll(async () => {
    const world = await loadDataWorld(api.db);
    tokens = await tokenSet(api.db, world.anna.userId);
    const mine: Session[] = await walkPages(api, "/sessions?limit=100", tokens.full);
    ids.annaK1 = mine.find((s) => s.competition === "World trial")!.id;
    ids.annaK4 = mine.find((s) => s.boat_class.type === "K4")!.id;
    ids.annaC1 = mine.find((s) => s.boat_class.type === "C1")!.id;
    ids.olafK2 = mine.find((s) => s.boat_class.type === "K2")!.id;
    ids.failed = mine.find((s) => s.description === DATA_WORLD.failedDescription)!.id;
    const olafToken = (await dataApiToken(api, world.olaf.userId)).token;
    const his: Session[] = await walkPages(api, "/sessions?limit=100", olafToken);
    ids.olafK1 = his.find((s) => s.boat_class.type === "K1" && s.status === "processed")!.id;
    const annaTemplates = await walkPages(api, "/workout-templates", tokens.full);
    ids.annaTemplate = annaTemplates.find((t: { name: string }) => t.name === DATA_WORLD.annaTemplateName).id;
    const olafTemplates = await walkPages(api, "/workout-templates", olafToken);
    ids.olafTemplate = olafTemplates.find((t: { name: string }) => t.name === DATA_WORLD.olafTemplateName).id;
  });

  it("lists a person's templates in creation order across pages, and reads one normalized", async () => {
    const coach = await createPerson(api.db);
    const made: number[] = [];
    for (const name of ["A", "B", "C"]) made.push((await createTemplate(api.db, coach.id, { name: `Plan ${name}`, text: SMALLEST })).id);
    const { token } = await dataApiToken(api, coach.id, { scopes: ["openid", "workouts:read"] });
    const first = await get(api, "/workout-templates?limit=2", token);
    expect(first.status).toBe(200);
    expect(first.body.data.map((t: { id: number }) => t.id)).toEqual(made.slice(0, 2));
    expect(first.body.meta).toMatchObject({ limit: 2, next_cursor: expect.any(String) });
    const all = await walkPages(api, "/workout-templates?limit=2", token);
    expect(all.map((t: { id: number }) => t.id)).toEqual(made);
    expect(all[0]).toEqual({
      id: made[0],
      name: "Plan A",
      boat_class: null,
      totals: { set_count: 2, step_count: 3, work_distance_m: 1000, work_duration_s: 0, rest_distance_m: 0, rest_duration_s: 120 },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const tampered = await get(api, `/workout-templates?cursor=${first.body.meta.next_cursor}x`, token);
    expect(tampered.status).toBe(400);
    expect(tampered.body.error).toBe("invalid_request");

    const one = await get(api, `/workout-templates/${ids.annaTemplate}`, tokens.full);
    expect(one.status).toBe(200);
    expect(one.body.data.name).toBe(DATA_WORLD.annaTemplateName);
    expect(one.body.data.template.steps).toHaveLength(8);
    expect(one.body.data.template.steps[0]).toEqual({ kind: "work", distance_m: 250, targets: { rate_spm: 100 } });
    expect(one.body.data.totals).toMatchObject({ set_count: 4, work_distance_m: 1000, rest_duration_s: 360 });
  });

  it("someone else's template is the same 404 as an absent one; a bad id is a 400 naming it", async () => {
    const theirs = await get(api, `/workout-templates/${ids.olafTemplate}`, tokens.full);
    const absent = await get(api, "/workout-templates/2147483647", tokens.full);
    expect(theirs.status).toBe(404);
    expect(absent.status).toBe(404);
    expect({ ...theirs.body, request_id: "" }).toEqual({ ...absent.body, request_id: "" });
    const list = await walkPages(api, "/workout-templates", tokens.full);
    expect(list.map((t: { id: number }) => t.id)).not.toContain(ids.olafTemplate);
    for (const bad of ["abc", "0", "2147483648", "1.5"]) {
      const answer = await get(api, `/workout-templates/${bad}`, tokens.full);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.error_description, bad).toContain("template_id");
    }
  });

  it("import inspects a shared workout without saving it", async () => {
    const before = await walkPages(api, "/workout-templates", tokens.full);
    const smallest = await inspect(SMALLEST);
    expect(smallest.status).toBe(200);
    expect(smallest.body.data).toEqual({
      valid: true,
      problems: [],
      template: {
        version: 1,
        name: null,
        boat_class: null,
        notes: null,
        steps: [
          { kind: "work", distance_m: 500 },
          { kind: "rest", duration_s: 120 },
          { kind: "work", distance_m: 500 },
        ],
      },
      totals: { set_count: 2, step_count: 3, work_distance_m: 1000, work_duration_s: 0, rest_distance_m: 0, rest_duration_s: 120 },
    });
    const repeats = await inspect({
      version: 1,
      name: "Pyramid",
      boat_class: "K2",
      steps: [
        {
          repeat: 3,
          steps: [
            { kind: "work", duration_s: 60, targets: { zone: 4 } },
            { kind: "rest", duration_s: 60 },
          ],
        },
      ],
    });
    expect(repeats.status).toBe(200);
    expect(repeats.body.data.totals).toMatchObject({ set_count: 3, step_count: 6, work_duration_s: 180 });
    expect(await walkPages(api, "/workout-templates", tokens.full)).toEqual(before);
  });

  it("import answers hostile input with a 400 listing problems by JSON path, never a 5xx", async () => {
    const cases: { label: string; body: string; contentType?: string; paths: string[] }[] = [
      { label: "unknown version", body: '{"version": 2, "steps": [{"kind": "work", "distance_m": 500}]}', paths: ["$.version"] },
      {
        label: "wrong types",
        body: '{"version": 1, "name": 7, "steps": [{"kind": "sprint", "distance_m": "500"}]}',
        paths: ["$.name", "$.steps[0].kind", "$.steps[0].distance_m"],
      },
      { label: "huge array", body: `{"version": 1, "steps": [${Array.from({ length: 5000 }, () => "{}").join(",")}]}`, paths: ["$.steps"] },
      { label: "deep nesting", body: `{"version": 1, "steps": ${"[".repeat(20000)}${"]".repeat(20000)}}`, paths: ["$"] },
      {
        label: "deep repeats",
        body: JSON.stringify({
          version: 1,
          steps: [
            { repeat: 2, steps: [{ repeat: 2, steps: [{ repeat: 2, steps: [{ repeat: 2, steps: [{ kind: "work", distance_m: 1 }] }] }] }] },
          ],
        }),
        paths: ["$.steps[0].steps[0].steps[0].steps[0]"],
      },
      { label: "1 MB body", body: JSON.stringify({ version: 1, notes: "n".repeat(1_048_576), steps: [] }), paths: ["$"] },
      { label: "huge number", body: '{"version": 1, "steps": [{"kind": "work", "distance_m": 1e400}]}', paths: ["$.steps[0].distance_m"] },
      {
        label: "NUL in a name",
        body: '{"version": 1, "name": "a\\u0000b", "steps": [{"kind": "work", "distance_m": 1}]}',
        paths: ["$.name"],
      },
      { label: "not JSON", body: "{version: 1", paths: ["$"] },
      { label: "not UTF-8", body: "\u00ff", contentType: "application/json; charset=latin1", paths: ["$"] },
      { label: "an array", body: "[]", paths: ["$"] },
      { label: "empty body", body: "", paths: ["$"] },
      { label: "not JSON content type", body: SMALLEST, contentType: "text/plain", paths: ["$"] },
    ];
    for (const c of cases) {
      const data = c.label === "not UTF-8" ? new Uint8Array([0x7b, 0xff, 0x7d]) : c.body;
      const { status, body } = await inspect(data, c.contentType);
      expect(status, c.label).toBe(400);
      expect(body.error, c.label).toBe("invalid_request");
      expect(body.problems.length, c.label).toBeGreaterThan(0);
      for (const path of c.paths)
        expect(
          body.problems.map((p: { path: string }) => p.path),
          c.label,
        ).toContain(path);
      for (const p of body.problems) expect(p.message, c.label).toEqual(expect.any(String));
    }
    const withQuery = await post("/workout-templates/import?dry_run=1", tokens.full, SMALLEST);
    expect(withQuery.status).toBe(400);
    expect(withQuery.body.error_description).toContain("dry_run");
  });

  it("compares 2 to 9 readable sessions over one distance grid, with split deltas against the first", async () => {
    const result = await compare({ session_ids: [ids.annaK1, ids.annaK4, ids.annaC1], points: 50, splits: 4 });
    expect(result.status).toBe(200);
    const data = result.body.data;
    expect(data.session_ids).toEqual([ids.annaK1, ids.annaK4, ids.annaC1]);
    // The C1 covered 200 m: the common distance.
    expect(data.distance_m).toBeGreaterThan(190);
    expect(data.distance_m).toBeLessThan(215);
    expect(data.points).toBe(50);
    expect(data.distance_grid_m).toHaveLength(50);
    expect(data.distance_grid_m[0]).toBe(0);
    expect(data.distance_grid_m[49]).toBe(data.distance_m);
    for (const s of data.sessions) {
      expect(s.series.speed_m_s).toHaveLength(50);
      expect(s.series.rate_spm).toHaveLength(50);
      expect(s.splits).toHaveLength(4);
      expect(s.summary.heart_rate).toBeNull();
      expect(s.series.time_s[49]).toBeCloseTo(s.splits[3].elapsed_s, 2);
    }
    expect(data.sessions[0].splits.every((p: { split_delta_s: number }) => p.split_delta_s === 0)).toBe(true);
    const [a, b] = data.sessions;
    expect(b.splits[2].elapsed_delta_s).toBeCloseTo(b.splits[2].elapsed_s - a.splits[2].elapsed_s, 2);
    // Each split's 95 % uncertainty, and "within the noise" exactly when the gap is below the combined figure.
    type Compared = {
      split_s: number;
      split_delta_s: number;
      split_uncertainty_s: number;
      elapsed_uncertainty_s: number;
      split_delta_within_noise: boolean | null;
    };
    for (const [j, split] of (b.splits as Compared[]).entries()) {
      expect(split.elapsed_uncertainty_s).toBeGreaterThan(0);
      expect(split.split_delta_within_noise).toBe(
        Math.abs(split.split_delta_s) < Math.hypot(split.split_uncertainty_s, (a.splits as Compared[])[j].split_uncertainty_s),
      );
    }
    expect((a.splits as Compared[]).every((p) => p.split_delta_within_noise === null)).toBe(true);
    // Olaf's K2 with Anna in a seat is hers to compare; the defaults are 200 points and 4 splits.
    const paddled = await compare({ session_ids: [ids.olafK2, ids.annaK1] });
    expect(paddled.status).toBe(200);
    expect(paddled.body.data.points).toBe(200);
    expect(paddled.body.data.sessions[0].splits).toHaveLength(4);
  });

  it("compare refuses a bad body with a 400 naming the field, and answers 404 and 409 as documented", async () => {
    const bad: [string, unknown, string][] = [
      ["one session", { session_ids: [ids.annaK1] }, "session_ids"],
      ["ten sessions", { session_ids: Array.from({ length: 10 }, (_, k) => k + 1) }, "session_ids"],
      ["a duplicate", { session_ids: [ids.annaK1, ids.annaK1] }, "session_ids"],
      ["a fraction", { session_ids: [ids.annaK1, 1.5] }, "session_ids"],
      ["a string id", { session_ids: [ids.annaK1, String(ids.annaK4)] }, "session_ids"],
      ["a huge id", { session_ids: [ids.annaK1, 99999999999] }, "session_ids"],
      ["no ids", {}, "session_ids"],
      ["not a list", { session_ids: "1,2" }, "session_ids"],
      ["too many points", { session_ids: [ids.annaK1, ids.annaK4], points: 1001 }, "points"],
      ["too many splits", { session_ids: [ids.annaK1, ids.annaK4], splits: 21 }, "splits"],
      ["an unknown field", { session_ids: [ids.annaK1, ids.annaK4], athlete: 1 }, "athlete"],
    ];
    for (const [label, body, field] of bad) {
      const answer = await compare(body as object);
      expect(answer.status, label).toBe(400);
      expect(answer.body.error, label).toBe("invalid_request");
      expect(answer.body.error_description, label).toContain(field);
    }
    const notJson = await compare("{session_ids: [1, 2]");
    expect(notJson.status).toBe(400);

    const outside = await compare({ session_ids: [ids.annaK1, ids.olafK1] });
    const absent = await compare({ session_ids: [ids.annaK1, 2147483647] });
    expect(outside.status).toBe(404);
    expect(absent.status).toBe(404);
    expect({ ...outside.body, request_id: "" }).toEqual({ ...absent.body, request_id: "" });

    const failed = await compare({ session_ids: [ids.annaK1, ids.failed] });
    expect(failed.status).toBe(409);
    expect(failed.body).toMatchObject({ error: "conflict", error_description: expect.stringContaining(String(ids.failed)) });
  });

  it("on the session surface, only sessions the application created can be compared", async () => {
    const answer = await compare({ session_ids: [ids.annaK1, ids.annaK4] }, tokens.session);
    expect(answer.status).toBe(404);
  });

  it("the workout JSON Schema is served beside the OpenAPI document and named by the import operation", async () => {
    const { GET } = await import("@/app/api/docs/workout-template.schema.json/route");
    const schema = GET();
    expect(schema.status).toBe(200);
    expect(schema.headers.get("content-type")).toContain("application/schema+json");
    expect((await schema.json()).title).toBe("Workout template, version 1");
    // The document as served (app/api/docs/data-api.json, loaded by the harness).
    const doc = api.documents.data.doc as unknown as {
      paths: Record<string, Record<string, { description: string; "x-scopes": string[] }>>;
    };
    expect(doc.paths["/workout-templates/import"].post.description).toContain("/api/docs/workout-template.schema.json");
    expect(doc.paths["/workout-templates/import"].post["x-scopes"]).toEqual(["workouts:read"]);
  });
});
