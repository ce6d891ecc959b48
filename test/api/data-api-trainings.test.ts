import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { oauthApplications } from "@/server/db/schema";
import { DATA_WORLD as W } from "../../e2e/data-api-world";
import { apiHarness, issueToken, type ApiHarness } from "./harness";
import { DATA_WORLD_SEED, loadDataWorld, tokenSet, type TokenSet } from "./data-world";
import { dataApiToken, get, walkPages } from "./data-api-support";

/**
 * Data API trainings against the seeded world (e2e/data-api-world.ts
 * `trainings`), in process: every operation's happy path, its documented
 * errors, the session surface (only what its application created), the
 * subject boundary, cursors, set compare limits and training exports (202 →
 * the background run → download), each answer validated against the served
 * document (moved from e2e/data-api-trainings.spec.ts; the common
 * authorization cases are the security matrix's, security.test.ts).
 */
type Training = { id: number; title: string; status: string; date: string | null };
type TrainingSet = {
  set_id: number;
  position: number;
  kind: "work" | "rest";
  start_s: number;
  end_s: number;
  stroke_count: number;
  duration_ms: number;
  distance_m: number;
};

const ABSENT = 2_147_483_647;
const T = {
  list: "/trainings",
  one: "/trainings/{training_id}",
  summary: "/trainings/{training_id}/summary",
  timeline: "/trainings/{training_id}/timeline",
  series: "/trainings/{training_id}/sets/{set_id}/series",
  strokes: "/trainings/{training_id}/sets/{set_id}/strokes",
  splits: "/trainings/{training_id}/sets/{set_id}/splits",
  compare: "/trainings/{training_id}/compare",
  exports: "/trainings/{training_id}/exports",
} as const;

const post = (api: ApiHarness, path: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  api.call("POST", path, {
    token,
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json", ...headers },
  });

/** A download's body as text, whatever its content type. */
const text = (body: unknown) => (typeof body === "string" ? body : new TextDecoder().decode(body as Uint8Array));

const api = apiHarness({ seed: DATA_WORLD_SEED });

describe("Data API: trainings", () => {
  let annaId: number;
  let tokens: TokenSet;
  let olafToken: string;
  /** trainings:read only: no health, no exports. */
  let plainToken: string;
  const ids = {} as Record<"templated" | "ben" | "app" | "failed" | "olaf", number>;
  let sets: TrainingSet[];
  let work: TrainingSet[];
  let rest: TrainingSet;
  let benWork: TrainingSet;
  let olafWork: number;

  beforeAll(async () => {
    const world = await loadDataWorld(api.db);
    annaId = world.anna.userId;
    tokens = await tokenSet(api.db, annaId);
    olafToken = (await dataApiToken(api, world.olaf.userId)).token;
    plainToken = (await dataApiToken(api, annaId, { scopes: ["trainings:read"] })).token;
    const mine: Training[] = await walkPages(api, "/trainings?limit=100", tokens.full);
    const byTitle = (list: Training[], title: string) => list.find((t) => t.title === title)!.id;
    ids.templated = byTitle(mine, W.trainings.annaTemplated.title);
    ids.ben = byTitle(mine, W.trainings.annaBen.title);
    ids.app = byTitle(mine, W.trainings.annaApp.title);
    ids.failed = byTitle(mine, W.trainings.annaFailed.title);
    ids.olaf = byTitle(await walkPages(api, "/trainings?limit=100", olafToken), W.trainings.olaf.title);
    sets = (await get(api, `/trainings/${ids.templated}`, tokens.full)).body.data.sets;
    work = sets.filter((s) => s.kind === "work");
    rest = sets.find((s) => s.kind === "rest")!;
    benWork = (await get(api, `/trainings/${ids.ben}`, tokens.full)).body.data.sets.find((s: TrainingSet) => s.kind === "work");
    olafWork = (await get(api, `/trainings/${ids.olaf}`, olafToken)).body.data.sets.find((s: TrainingSet) => s.kind === "work").set_id;
  });

  it("GET /trainings lists the subject's trainings newest first, pages by cursor, never another's", async () => {
    const all: Training[] = await walkPages(api, "/trainings?limit=1", tokens.full);
    const listed = all.map((t) => t.id);
    expect(listed).toEqual(expect.arrayContaining([ids.templated, ids.ben, ids.app, ids.failed]));
    expect(listed).not.toContain(ids.olaf);
    expect(new Set(listed).size).toBe(listed.length);
    const full = (await get(api, "/trainings?limit=100", tokens.full)).body.data.map((t: Training) => t.id);
    expect(listed).toEqual(full);
    const failed = all.find((t) => t.id === ids.failed)!;
    expect(failed).toMatchObject({ status: "failed", date: null });
  });

  it("GET /trainings filters by title and local date", async () => {
    const list = async (query: string) => (await get(api, `/trainings?${query}`, tokens.full)).body.data as Training[];
    expect((await list("title=WORLD%20intervals")).map((t) => t.id)).toEqual([ids.templated]);
    expect((await list("title=pieces")).map((t) => t.id)).toEqual([ids.ben]);
    expect(await list("title=%25%25")).toEqual([]);
    const date = (await list("title=world%20intervals"))[0].date!;
    expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await list(`date_from=${date}&date_to=${date}`)).map((t) => t.id)).toContain(ids.templated);
    expect(await list("date_from=2099-01-01")).toEqual([]);
    // A training not processed yet has no date: a date filter leaves it out.
    expect((await list("date_to=2099-01-01")).map((t) => t.id)).not.toContain(ids.failed);
  });

  it("GET /trainings/{id}: structure, sets and template; a failed one shows its status and reason and no sets", async () => {
    const one = (await get(api, `/trainings/${ids.templated}`, tokens.full)).body.data;
    expect(one).toMatchObject({
      id: ids.templated,
      title: W.trainings.annaTemplated.title,
      status: "ready",
      failure: null,
      work_set_count: 4,
      athlete: { id: expect.any(Number), name: "Anna Owner" },
      track: { name: "Anna basin" },
    });
    expect(one.sets.map((s: TrainingSet) => s.kind)).toEqual(["work", "rest", "work", "rest", "work", "rest", "work"]);
    expect(one.sets[0].start_s).toBe(0);
    expect(one.template).toMatchObject({
      template_id: expect.any(Number),
      name: W.annaTemplateName,
      boat_class: "K1",
      unmatched_steps: [],
      extra_set_ids: [],
    });
    expect(one.template.steps.filter((s: { kind: string }) => s.kind === "work")).toEqual(
      Array(4).fill({ kind: "work", distance_m: 250, targets: { rate_spm: 100 } }),
    );
    expect(work.map((s) => s.distance_m)).toEqual([250, 250, 250, 250]);

    const failed = (await get(api, `/trainings/${ids.failed}`, tokens.full)).body.data;
    expect(failed).toMatchObject({
      status: "failed",
      sets: [],
      template: null,
      distance_m: null,
      failure: { code: "no_sets", message: expect.stringContaining("No work sets") },
    });

    const ben = (await get(api, `/trainings/${ids.ben}`, tokens.full)).body.data;
    expect(ben.athlete).toEqual({ id: expect.any(Number), name: "Ben Managed" });
    // Off the data surface, a managed athlete carries no identity.
    expect((await get(api, `/trainings/${ids.ben}`, tokens.partner)).body.data.athlete).toBeNull();
  });

  it("summary per work set; heart rate only the subject's own with health:read; 409 before sets exist", async () => {
    const summary = (await get(api, `/trainings/${ids.templated}/summary`, tokens.full)).body.data;
    expect(summary.work_set_count).toBe(4);
    expect(summary.sets.map((s: { set_id: number }) => s.set_id)).toEqual(work.map((s) => s.set_id));
    for (const [k, set] of summary.sets.entries()) {
      expect(set.stroke_count).toBe(work[k].stroke_count);
      expect(set.distance_m).toBe(250);
      expect(set.pace_500m_s).toBeCloseTo(500 / set.avg_speed_m_s, 0);
      expect(set.heart_rate.avg_bpm).toBeGreaterThan(60);
    }
    expect(summary.total.data_quality.imu_samples).toBeGreaterThan(1000);
    expect(summary.total.data_quality.heart_rate_coverage).toBeGreaterThan(0.5);

    const noHealth = (await get(api, `/trainings/${ids.templated}/summary`, plainToken)).body.data;
    expect(noHealth.sets.every((s: { heart_rate: unknown }) => s.heart_rate === null)).toBe(true);
    expect(noHealth.total.heart_rate).toBeNull();
    expect(noHealth.total.data_quality.heart_rate_coverage).toBeNull();
    // Ben paddled it: his heart rate is never Anna's to read.
    const ben = (await get(api, `/trainings/${ids.ben}/summary`, tokens.full)).body.data;
    expect(ben.sets.every((s: { heart_rate: unknown }) => s.heart_rate === null)).toBe(true);

    for (const template of [T.summary, T.timeline]) {
      const failed = await get(api, template.replace("{training_id}", String(ids.failed)), tokens.full);
      expect(failed.status, template).toBe(409);
      expect(failed.body.error).toBe("conflict");
    }
  });

  it("the timeline: set and rest intervals with relative times and derived metrics only", async () => {
    const timeline = (await get(api, `/trainings/${ids.templated}/timeline`, tokens.full)).body.data;
    expect(timeline.intervals.map((i: { set_id: number }) => i.set_id)).toEqual(sets.map((s) => s.set_id));
    expect(timeline.intervals[0].start_s).toBe(0);
    expect(timeline.duration_s).toBeCloseTo(timeline.work_s + timeline.rest_s, 0);
    for (const interval of timeline.intervals) {
      expect(Object.keys(interval).sort()).toEqual([
        "avg_rate_spm",
        "avg_speed_m_s",
        "complete",
        "corrected",
        "distance_m",
        "duration_s",
        "end_s",
        "kind",
        "position",
        "set_id",
        "start_s",
        "step_index",
        "stroke_count",
      ]);
      if (interval.kind === "work") expect(interval.avg_rate_spm).toBeGreaterThan(40);
      else expect(interval.avg_rate_spm).toBeNull();
    }
  });

  it("a work set's series is bounded and allowlisted; heart rate follows the health rule", async () => {
    const path = (set: number, query: string, training = ids.templated) => `/trainings/${training}/sets/${set}/series${query}`;
    const series = (
      await get(api, path(work[1].set_id, "?max_points=1000&fields=distance,speed,rate,stroke_distance,heart_rate,route"), tokens.full)
    ).body.data;
    expect(series).toMatchObject({ training_id: ids.templated, set_id: work[1].set_id });
    expect(series.points).toBeLessThanOrEqual(1000);
    for (const key of ["t_s", "distance_m", "speed_m_s", "rate_spm", "stroke_distance_m", "heart_rate_bpm"])
      expect(series[key].length, key).toBe(series.points);
    expect(series.t_s[0]).toBe(0);
    expect(series.distance_m.at(-1)).toBeCloseTo(250, 0);
    expect(series.heart_rate_bpm.some((v: number | null) => v !== null && v > 60)).toBe(true);
    expect(series.route.length).toBeLessThanOrEqual(1000);
    const small = (await get(api, path(work[1].set_id, "?max_points=7"), tokens.full)).body.data;
    expect(small.points).toBe(7);
    expect(Object.keys(small).sort()).toEqual(["distance_m", "points", "rate_spm", "set_id", "speed_m_s", "t_s", "training_id"]);
    const noHealth = await get(api, path(work[1].set_id, "?fields=heart_rate"), plainToken);
    expect(noHealth.status).toBe(403);
    expect(noHealth.body).toMatchObject({ error: "insufficient_scope", scope: "trainings:read health:read" });
    const bens = (await get(api, path(benWork.set_id, "?fields=heart_rate", ids.ben), tokens.full)).body.data;
    expect(bens.heart_rate_bpm.every((v: number | null) => v === null)).toBe(true);
  });

  it("a work set's strokes page by cursor; its splits take count 1 to 20", async () => {
    const set = work[2];
    const strokes = await walkPages(api, `/trainings/${ids.templated}/sets/${set.set_id}/strokes?limit=13`, tokens.full);
    expect(strokes.length).toBe(set.stroke_count);
    expect(strokes.map((s: { index: number }) => s.index)).toEqual(strokes.map((_: unknown, i: number) => i));
    expect(strokes[0].time_s).toBeGreaterThanOrEqual(0);
    expect(strokes.at(-1).time_s).toBeLessThanOrEqual(set.duration_ms / 1000 + 0.01);
    expect(new Set(strokes.map((s: { side: string }) => s.side))).toEqual(new Set(["left", "right"]));

    for (const count of [1, 4, 20]) {
      const splits = (await get(api, `/trainings/${ids.templated}/sets/${set.set_id}/splits?count=${count}`, tokens.full)).body.data;
      expect(splits).toMatchObject({ training_id: ids.templated, set_id: set.set_id, count });
      expect(splits.splits.at(-1).distance_m).toBeCloseTo(250, 0);
      const total = splits.splits.reduce((sum: number, s: { split_s: number }) => sum + s.split_s, 0);
      expect(total).toBeCloseTo(set.duration_ms / 1000, 1);
      // Each set split carries its 95 % uncertainties; the set is matched to a 250 m step, so its end is a distance.
      for (const sp of splits.splits as { elapsed_uncertainty_s: number; split_uncertainty_s: number }[]) {
        expect(sp.elapsed_uncertainty_s).toBeGreaterThan(0);
        expect(sp.split_uncertainty_s).toBeGreaterThan(0);
      }
    }
    expect((await get(api, `/trainings/${ids.templated}/sets/${set.set_id}/splits`, tokens.full)).body.data.count).toBe(4);

    // A cursor of one set's strokes is not another set's.
    const first = (await get(api, `/trainings/${ids.templated}/sets/${set.set_id}/strokes?limit=5`, tokens.full)).body;
    const other = await get(
      api,
      `/trainings/${ids.templated}/sets/${work[0].set_id}/strokes?limit=5&cursor=${first.meta.next_cursor}`,
      tokens.full,
    );
    expect(other.status).toBe(400);
    expect(other.body.error_description).toMatch(/another list/);
  });

  it("a rest, another training's set, an absent set and another person's training are the same 404", async () => {
    const t = ids.templated;
    const absentBody = async (template: string, path: string) => {
      const { status, body } = await get(api, path, tokens.full);
      expect(status, path).toBe(404);
      expect(body.error, path).toBe("not_found");
      return { ...body, request_id: "" };
    };
    for (const template of [T.series, T.strokes, T.splits]) {
      const suffix = template.split("{set_id}")[1];
      const reference = await absentBody(template, `/trainings/${t}/sets/${ABSENT}${suffix}`);
      expect(await absentBody(template, `/trainings/${t}/sets/${rest.set_id}${suffix}`)).toEqual(reference);
      expect(await absentBody(template, `/trainings/${t}/sets/${benWork.set_id}${suffix}`)).toEqual(reference);
      // Olaf's training, and Olaf's set under Anna's training.
      await absentBody(template, `/trainings/${ids.olaf}/sets/${olafWork}${suffix}`);
      expect(await absentBody(template, `/trainings/${t}/sets/${olafWork}${suffix}`)).toEqual(reference);
    }
    for (const template of [T.one, T.summary, T.timeline]) {
      const theirs = await absentBody(template, template.replace("{training_id}", String(ids.olaf)));
      expect(await absentBody(template, template.replace("{training_id}", String(ABSENT)))).toEqual(theirs);
    }
    const compare = await post(api, `/trainings/${ids.olaf}/compare`, tokens.full, { set_ids: [olafWork, olafWork + 2] });
    expect(compare.status).toBe(404);
  });

  it("parameters out of range are 400 invalid_request naming the parameter", async () => {
    const s = work[0].set_id;
    const t = ids.templated;
    const cases: [string, string, RegExp][] = [
      [T.list, "/trainings?limit=0", /^limit/],
      [T.list, "/trainings?limit=101", /^limit/],
      [T.list, "/trainings?date_from=2026-02-30", /^date_from/],
      [T.list, "/trainings?date_from=2026-05-02&date_to=2026-05-01", /^date_from/],
      [T.list, "/trainings?title=" + "x".repeat(65), /^title/],
      [T.list, "/trainings?title=a%00b", /^title/],
      [T.list, "/trainings?sort=date", /sort/],
      [T.list, "/trainings?cursor=garbage", /^cursor/],
      [T.one, "/trainings/abc", /^training_id/],
      [T.one, "/trainings/99999999999", /^training_id/],
      [T.series, `/trainings/${t}/sets/0/series`, /^set_id/],
      [T.series, `/trainings/${t}/sets/${s}/series?max_points=1001`, /^max_points/],
      [T.series, `/trainings/${t}/sets/${s}/series?max_points=1`, /^max_points/],
      [T.series, `/trainings/${t}/sets/${s}/series?fields=speed,imu`, /^fields/],
      [T.splits, `/trainings/${t}/sets/${s}/splits?count=0`, /^count/],
      [T.splits, `/trainings/${t}/sets/${s}/splits?count=21`, /^count/],
      [T.strokes, `/trainings/${t}/sets/${s}/strokes?limit=500`, /^limit/],
      [T.summary, `/trainings/${t}/summary?x=1`, /x/],
    ];
    for (const [, path, message] of cases) {
      const { status, body } = await get(api, path, tokens.full);
      expect(status, path).toBe(400);
      expect(body.error, path).toBe("invalid_request");
      expect(body.error_description, path).toMatch(message);
    }
  });

  it("POST /trainings/{id}/compare: 2 to 9 unique work sets of that training, else 400 naming the field", async () => {
    const t = ids.templated;
    const compared = await post(api, `/trainings/${t}/compare`, tokens.full, { set_ids: [work[3].set_id, work[0].set_id], splits: 2 });
    expect(compared.status).toBe(200);
    const data = compared.body.data;
    expect(data).toMatchObject({ training_id: t, splits: 2 });
    expect(data.sets.map((s: { set_id: number }) => s.set_id)).toEqual([work[3].set_id, work[0].set_id]);
    expect(data.sets[0].delta_vs_first).toEqual({ duration_ms: 0, avg_speed_m_s: 0, avg_rate_spm: 0 });
    expect(data.sets[1].delta_vs_first.duration_ms).toBe(work[0].duration_ms - work[3].duration_ms);
    expect(data.sets.map((s: { rank: number }) => s.rank).sort()).toEqual([1, 2]);
    const fastest = data.sets.find((s: { rank: number }) => s.rank === 1);
    expect(data.fastest_set_id).toBe(fastest.set_id);
    expect(data.sets.every((s: { splits: unknown[] }) => s.splits.length === 2)).toBe(true);
    const all = await post(api, `/trainings/${t}/compare`, tokens.full, { set_ids: work.map((s) => s.set_id) });
    expect(all.body.data.sets).toHaveLength(4);
    expect(all.body.data.splits).toBe(4);

    const ten = Array.from({ length: 10 }, (_, i) => work[0].set_id + i * 1000);
    const bad: [unknown, RegExp][] = [
      [{ set_ids: [work[0].set_id] }, /^set_ids/],
      [{ set_ids: ten }, /^set_ids/],
      [{ set_ids: [work[0].set_id, work[0].set_id] }, /^set_ids.*repeat/],
      [{ set_ids: [work[0].set_id, rest.set_id] }, /^set_ids\[1\]: \d+ is not a work set of this training/],
      [{ set_ids: [benWork.set_id, work[0].set_id] }, /^set_ids\[0\]: \d+ is not a work set of this training/],
      [{ set_ids: [work[0].set_id, olafWork] }, /^set_ids\[1\]: \d+ is not a work set of this training/],
      [{ set_ids: [work[0].set_id, ABSENT] }, /^set_ids\[1\]/],
      [{ set_ids: [work[0].set_id, "2"] }, /^set_ids/],
      [{ set_ids: [work[0].set_id, 1.5] }, /^set_ids/],
      [{ set_ids: [work[0].set_id, 99999999999] }, /^set_ids/],
      [{}, /^set_ids/],
      [{ set_ids: [work[0].set_id, work[1].set_id], splits: 21 }, /^splits/],
      [{ set_ids: [work[0].set_id, work[1].set_id], colour: "red" }, /colour/],
      ["[1,2", /^body/],
    ];
    for (const [body, message] of bad) {
      const answer = await post(api, `/trainings/${t}/compare`, tokens.full, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe("invalid_request");
      expect(answer.body.error_description, JSON.stringify(body)).toMatch(message);
    }
    const failed = await post(api, `/trainings/${ids.failed}/compare`, tokens.full, { set_ids: [1, 2] });
    expect(failed.status).toBe(409);
  });

  it("exports: 202 with Location and Retry-After → the run → the JSON download, with its sets, splits and lactate", async () => {
    const t = ids.templated;
    const create = (body: unknown, headers: Record<string, string> = {}, training = t, token = tokens.full) =>
      post(api, `/trainings/${training}/exports`, token, body, headers);
    const created = await create({ format: "json", splits: 5 });
    expect(created.status).toBe(202);
    expect(created.body.data).toMatchObject({ status: "queued", format: "json", session_id: null, training_id: t, athlete: 1, splits: 5 });
    expect(created.headers.get("location")).toBe(created.body.data.links.self);
    expect(Number(created.headers.get("retry-after"))).toBeGreaterThan(0);
    const done = await poll(api, created.body.data.job_id, tokens.full);
    expect(done).toMatchObject({ status: "succeeded", training_id: t });
    // Olaf cannot poll Anna's job.
    expect((await get(api, `/exports/${done.job_id}`, olafToken)).status).toBe(404);
    const file = await get(api, `/exports/${done.job_id}/download`, tokens.full);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("application/json");
    expect(file.headers.get("content-disposition")).toContain(`training-${t}-`);
    const doc = file.body;
    expect(doc).toMatchObject({
      format: "paddle-results.training-export",
      version: 2,
      kind: "training",
      source: { kind: "training", training_id: t },
      privacy: { heart_rate_included: true, lactate_included: true },
    });
    expect(doc).not.toHaveProperty("session");
    expect(doc.timeline.intervals).toHaveLength(sets.length);
    expect(doc.training.sets.map((s: { set_id: number }) => s.set_id)).toEqual(sets.map((s) => s.set_id));
    expect(doc.set_splits.map((s: { set_id: number }) => s.set_id)).toEqual(work.map((s) => s.set_id));
    expect(doc.set_splits.every((s: { splits: unknown[] }) => s.splits.length === 5)).toBe(true);
    expect(doc.lactate.map((l: { lactate_mmol_l: number }) => l.lactate_mmol_l)).toEqual([W.annaTrainingLactate]);
  });

  it("exports in PDF, XLSX, FIT and TCX", async () => {
    const t = ids.templated;
    const create = (body: unknown, headers: Record<string, string> = {}, training = t, token = tokens.full) =>
      post(api, `/trainings/${training}/exports`, token, body, headers);
    const types: Record<string, string> = { pdf: "application/pdf", xlsx: "spreadsheetml", fit: "application/vnd.ant.fit", tcx: "tcx+xml" };
    for (const [format, type] of Object.entries(types)) {
      const job = (await create({ format, lang: "es" })).body.data;
      const finished = await poll(api, job.job_id, tokens.full);
      expect(finished.status, format).toBe("succeeded");
      const download = await get(api, `/exports/${job.job_id}/download`, tokens.full);
      expect(download.headers.get("content-type"), format).toContain(type);
      if (format === "tcx") expect(text(download.body).match(/<Lap /g)).toHaveLength(sets.length);
    }
  });

  it("exports: the same Idempotency-Key and request are the same job; another request under it is 409; a long key 400", async () => {
    const t = ids.templated;
    const create = (body: unknown, headers: Record<string, string> = {}, training = t, token = tokens.full) =>
      post(api, `/trainings/${training}/exports`, token, body, headers);
    // The same key and request: the same job; another request under the key: 409.
    const key = `trainings-${Date.now()}`;
    const first = await create({ format: "xlsx" }, { "Idempotency-Key": key });
    const again = await create({ format: "xlsx" }, { "Idempotency-Key": key });
    expect(again.status).toBe(202);
    expect(again.body.data.job_id).toBe(first.body.data.job_id);
    const reused = await create({ format: "pdf" }, { "Idempotency-Key": key });
    expect(reused.status).toBe(409);
    expect(reused.body.error).toBe("idempotency_key_reused");
    const longKey = await create({ format: "pdf" }, { "Idempotency-Key": "k".repeat(256) });
    expect(longKey.status).toBe(400);
  });

  it("exports: a bad body is 400 naming the field; another seat, another person's or an absent training 404; a failed one 409; no health without health:read", async () => {
    const t = ids.templated;
    const create = (body: unknown, headers: Record<string, string> = {}, training = t, token = tokens.full) =>
      post(api, `/trainings/${training}/exports`, token, body, headers);
    for (const [body, message] of [
      [{ format: "docx" }, /^format/],
      [{}, /^format/],
      [{ format: "json", athlete: 5 }, /^athlete/],
      [{ format: "json", splits: 0 }, /^splits/],
      [{ format: "json", lang: "fr" }, /^lang/],
    ] as const) {
      const answer = await create(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error_description).toMatch(message);
    }
    // A training has one paddler: another seat is absent.
    expect((await create({ format: "json", athlete: 2 })).status).toBe(404);
    expect((await create({ format: "json" }, {}, ids.olaf)).status).toBe(404);
    expect((await create({ format: "json" }, {}, ABSENT)).status).toBe(404);
    const failed = await create({ format: "json" }, {}, ids.failed);
    expect(failed.status).toBe(409);
    expect(failed.body.error).toBe("conflict");
    // Without health:read the file holds no heart rate or lactate.
    const plain = (await dataApiToken(api, annaId, { scopes: ["trainings:read", "exports:create"] })).token;
    const noHealth = await poll(api, (await create({ format: "json" }, {}, t, plain)).body.data.job_id, plain);
    const plainDoc = (await get(api, `/exports/${noHealth.job_id}/download`, plain)).body;
    expect(plainDoc.privacy).toEqual({ mode: "full", heart_rate_included: false, lactate_included: false });
    expect(plainDoc.series.heart_rate_bpm).toBeUndefined();
  });

  it("/health/lactate?training_id: the subject's own readings of a readable training", async () => {
    const lactate = (query: string, token = tokens.full) => get(api, `/health/lactate?${query}`, token);
    const own = await lactate(`training_id=${ids.templated}`);
    expect(own.body.data).toEqual([
      {
        id: expect.any(Number),
        session_id: null,
        training_id: ids.templated,
        measured_at: "2026-06-02T09:30:00.000Z",
        lactate_mmol_l: W.annaTrainingLactate,
        note: "after the last piece",
        provenance: "manual",
      },
    ]);
    expect((await lactate(`training_id=${ids.ben}`)).body.data).toEqual([]);
    for (const query of [`training_id=${ids.olaf}`, `training_id=${ABSENT}`]) {
      const hidden = await lactate(query);
      expect(hidden.status, query).toBe(404);
      expect(hidden.body.error).toBe("not_found");
    }
    expect(
      (await lactate(`training_id=${ids.olaf}`, olafToken)).body.data.map((l: { lactate_mmol_l: number }) => l.lactate_mmol_l),
    ).toEqual([W.olafLactate]);
  });

  it("session surface: only the trainings the calling application created", async () => {
    // Another session-surface application of Anna's created none.
    expect((await get(api, "/trainings", tokens.session)).body.data).toEqual([]);
    expect((await get(api, `/trainings/${ids.app}`, tokens.session)).status).toBe(404);
    // The seeded logger application created one.
    const [logger] = await api.db
      .select({ id: oauthApplications.id, clientId: oauthApplications.clientId })
      .from(oauthApplications)
      .where(eq(oauthApplications.clientId, W.sessionApp.clientId));
    const { token } = await issueToken(api.db, {
      userId: annaId,
      application: logger,
      scopes: ["openid", "trainings:read", "exports:create", "health:read"],
    });
    expect((await get(api, "/trainings", token)).body.data.map((t: Training) => t.id)).toEqual([ids.app]);
    const one = (await get(api, `/trainings/${ids.app}`, token)).body.data;
    expect(one.status).toBe("ready");
    const set = one.sets.find((s: TrainingSet) => s.kind === "work").set_id;
    expect((await get(api, `/trainings/${ids.app}/summary`, token)).status).toBe(200);
    expect((await get(api, `/trainings/${ids.app}/sets/${set}/series`, token)).status).toBe(200);
    for (const path of [
      `/trainings/${ids.templated}`,
      `/trainings/${ids.templated}/timeline`,
      `/trainings/${ids.templated}/sets/${work[0].set_id}/splits`,
    ]) {
      expect((await get(api, path, token)).status, path).toBe(404);
    }
    expect((await post(api, `/trainings/${ids.templated}/exports`, token, { format: "json" })).status).toBe(404);
    expect((await post(api, `/trainings/${ids.app}/exports`, token, { format: "json" })).status).toBe(202);
  });
});

/** Works the queued background runs, then reads the job until it is done. */
async function poll(api: ApiHarness, jobId: string, token: string) {
  for (let i = 0; i < 5; i++) {
    await api.drainJobs();
    const { status, body } = await get(api, `/exports/${jobId}`, token);
    expect(status).toBe(200);
    if (["succeeded", "failed", "expired"].includes(body.data.status)) return body.data;
  }
  throw new Error(`export ${jobId} never finished`);
}
