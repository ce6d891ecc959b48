import { beforeAll, describe, expect, it } from "vitest";
import { createOwnAthleteProfile } from "@/server/athletes/athlete-links";
import { bindKeyPairToApplication } from "@/server/keys/key-pairs";
import { createTrack } from "@/server/tracks/tracks";
import { DATA_WORLD as W, serialOfSeed } from "../../e2e/data-api-world";
import { simulatedSvc } from "../../e2e/svc-files";
import { apiHarness, createKeyPairToken, createPerson, type ApiHarness } from "./harness";
import { DATA_WORLD_SEED, loadDataWorld } from "./data-world";
import { dataApiToken } from "./data-api-support";

// The crawl makes more calls than one application and person may make in a minute; the limit has its own test.
process.env.DATA_API_RATE_LIMIT = "100000";

/**
 * The privacy crawler: once per surface (data, partner, session), with a
 * token holding every scope the surface allows, call every GET operation the
 * served document serves on that surface, on every id the API itself
 * reveals, walking every page, and fail on any field or value that must
 * never leave (data-api.md "Privacy projection", "Health data rules", "Three
 * surfaces"). On the session surface it also fails on any session id the
 * calling application did not create. New operations are crawled
 * automatically; one whose parameters the crawler cannot fill fails it.
 * In process (moved from e2e/data-api-privacy.spec.ts): the document is the
 * one the app serves, every answer goes through the route modules and is
 * validated against it.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Surface = "data" | "partner" | "session";
type Operation = {
  parameters?: { name: string; in: string; required?: boolean; schema?: { enum?: string[] } }[];
  "x-surfaces"?: Surface[];
  security?: unknown[];
};
type Doc = { paths: Record<string, Record<string, Operation>> };
// (POST operations that only read are crawled too: see READ_POSTS.)

const FORBIDDEN_KEYS = new Set([
  "serial",
  "device_serial",
  "password",
  "password_hash",
  "secret",
  "client_secret",
  "secret_hash",
  "access_token",
  "refresh_token",
  "id_token",
  "token",
  "email",
  "user_id",
  "owner_user_id",
  "owner",
  "ip",
  "ip_address",
  "external_source",
  "samples",
  "imu",
  "gnss",
  "raw",
  "blob_id",
  "grant_id",
]);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const FORBIDDEN_TEXT = [
  ...Object.values(W.seeds).map(serialOfSeed),
  "Olaf",
  "Outsider",
  W.external.name,
  W.external.surname,
  W.externalSource,
  W.olafVesselName,
  "@e2e.example",
  "svcpk_",
  "svcsk_",
  "svcas_",
];
const FORBIDDEN_NUMBERS: number[] = [W.externalWeightKg, W.externalLactate, W.olafWeightKg, W.olafLactate];
/** Processed series are capped at 1000 points; anything longer is a full-rate channel. */
const MAX_ARRAY = 1000;

/**
 * `sessionIds`: on the session surface, the only session ids that may appear
 * (as `session_id` anywhere, or as the `id` of a session in a /sessions list).
 */
function violations(value: Json, path: string, out: string[], sessionIds: ReadonlySet<number> | null) {
  if (typeof value === "string") {
    if (UUID.test(value)) out.push(`${path}: UUID-shaped value ${value}`);
    for (const text of FORBIDDEN_TEXT) if (value.includes(text)) out.push(`${path}: forbidden text "${text}" in ${JSON.stringify(value)}`);
    if (value === "external") out.push(`${path}: external-provider provenance`);
  } else if (typeof value === "number") {
    if (FORBIDDEN_NUMBERS.includes(value)) out.push(`${path}: forbidden value ${value}`);
  } else if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY) out.push(`${path}: ${value.length} entries (more than ${MAX_ARRAY})`);
    value.forEach((item, i) => violations(item, `${path}[${i}]`, out, sessionIds));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(key.toLowerCase())) out.push(`${path}.${key}: forbidden field`);
      if (sessionIds && key === "session_id" && item !== null && !sessionIds.has(item as number))
        out.push(`${path}.${key}: session ${item} was not created by the application`);
      violations(item, `${path}.${key}`, out, sessionIds);
    }
  }
}

/**
 * A person of their own (not the seeded world, which other specs count on)
 * with three sessions: two uploaded through a key pair bound to the
 * session-surface application, one through an unbound key, all distance
 * efforts (so each can be a record). Returns the account, the application's
 * token and the ids of the two sessions the application created
 * (docs/data-api.md "Three surfaces").
 */
async function sessionSurfaceWorld(api: ApiHarness): Promise<{ token: string; created: Set<number> }> {
  const person = await createPerson(api.db);
  const trackId = (await createTrack(api.db, person.id, { name: "Crawler basin" })).id;
  // Their own athlete profile (linked to them), so GET /athlete and their seats have something to show.
  const athleteId = (
    await createOwnAthleteProfile(api.db, person.id, { name: "Crawled", surname: "Paddler", subscriptionActiveUntil: "2099-12-31" })
  ).id;
  const { token, app } = await dataApiToken(api, person.id, { surface: "session" });
  const bound = await createKeyPairToken(api.db, person.id);
  await bindKeyPairToApplication(api.db, person.id, bound.keyPairId, app.id);
  const unbound = await createKeyPairToken(api.db, person.id);
  const upload = async (key: string, seed: number, pace: "race" | "training") => {
    const form = new FormData();
    form.append(
      "file",
      new Blob([new Uint8Array(simulatedSvc({ vessel: "K1", distanceM: 200, seed, pace }))], { type: "application/octet-stream" }),
      "k1.svc",
    );
    form.append(
      "metadata",
      JSON.stringify({ distance: 200, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] }),
    );
    const response = await api.call("POST", "/results", { token: key, body: form });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data.id as number;
  };
  const created = new Set([await upload(bound.token, 621, "training"), await upload(bound.token, 622, "training")]);
  // The fastest of the three, uploaded by another key: on a wider surface it would be the standing record.
  await upload(unbound.token, 623, "race");
  return { token, created };
}

const api = apiHarness({ seed: DATA_WORLD_SEED });
let annaId: number;
beforeAll(async () => {
  annaId = (await loadDataWorld(api.db)).anna.userId;
});

/** What a surface's crawl shares between its parts: the token, the lists read so far, the jobs made. */
interface CrawlState {
  token: string;
  created: ReadonlySet<number> | null;
  listed: Map<string, Json[]>;
}

/** The export formats the document names; each is a part of its own (an export of every session in it). */
const EXPORT_FORMATS = ["json", "pdf", "pdf-full", "xlsx", "fit", "tcx"];
type CrawlPart = "reads" | "device jobs" | `exports ${string}` | "posts";
const PARTS: CrawlPart[] = ["reads", "device jobs", ...EXPORT_FORMATS.map((f) => `exports ${f}` as const), "posts"];

/**
 * One crawl per surface in parts (each its own test): the GET operations on
 * every id the lists reveal, the device fetch jobs, the export jobs of every
 * session in each format with their downloads, and the POST operations that
 * only read.
 */
for (const surface of ["data", "partner", "session"] as const) {
  describe(`${surface} surface: no operation lets a forbidden field or value out, on any id or page`, () => {
    let state: CrawlState;
    beforeAll(async () => {
      const { token, created } =
        surface === "session"
          ? await sessionSurfaceWorld(api)
          : { token: (await dataApiToken(api, annaId, { surface })).token, created: null };
      state = { token, created, listed: new Map() };
    });
    for (const part of PARTS) it(part, () => crawl(surface, state, part));
  });
}

async function crawl(surface: Surface, state: CrawlState, part: CrawlPart) {
  const { token, created, listed } = state;
  const doc = api.documents.data.doc as Doc;
  const found: string[] = [];
  const crawled: string[] = [];

  /** GETs a path, walking every page; returns the items of a list or the one object. */
  async function fetchAll(path: string): Promise<Json[]> {
    const items: Json[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 200; page++) {
      const url = new URL(`/api/v1${path}`, "https://localhost");
      if (cursor) url.searchParams.set("cursor", cursor);
      const response = await api.call("GET", url.pathname.replace(/^\/api\/v1/, "") + url.search, { token });
      if (!(response.headers.get("content-type") ?? "").includes("application/json")) {
        // A file (an export in another format): its text must not hold forbidden values either.
        expect(response.status, path).toBe(200);
        crawled.push(path);
        const text = typeof response.body === "string" ? response.body : Buffer.from(response.body as Uint8Array).toString("latin1");
        for (const forbidden of FORBIDDEN_TEXT)
          if (text.includes(forbidden)) found.push(`${path}: forbidden text "${forbidden}" in the file`);
        return [];
      }
      const body = response.body;
      // 409: a session whose processing failed has no summary, series or splits.
      expect([200, 409], `${path}: ${JSON.stringify(body)}`).toContain(response.status);
      crawled.push(path);
      violations(body, path, found, created);
      if (response.status !== 200) return items;
      if (!Array.isArray(body.data)) return [body.data];
      if (created && /^\/sessions(\?|$)/.test(path)) {
        for (const item of body.data as { id: number }[])
          if (!created.has(item.id)) found.push(`${path}: session ${item.id} was not created by the application`);
      }
      items.push(...body.data);
      cursor = body.meta?.next_cursor ?? null;
      if (!cursor) return items;
    }
    throw new Error(`${path}: more than 200 pages`);
  }

  async function listOf(path: string) {
    if (!listed.has(path)) listed.set(path, await fetchAll(path.includes("?") ? path : `${path}?limit=100`));
    return listed.get(path)!;
  }

  /**
   * Concrete paths for a template, filling each path parameter from the list one level up (or its
   * enum). `operation` is the documented template whose parameters describe every level.
   */
  async function concretePaths(template: string, operation = template): Promise<string[]> {
    const segments = template.split("/");
    const last = segments.findLastIndex((s) => s.startsWith("{"));
    if (last < 0) return [template];
    const name = segments[last].slice(1, -1);
    const parent = segments.slice(0, last).join("/");
    const suffix = segments
      .slice(last + 1)
      .map((s) => `/${s}`)
      .join("");
    const parameter = Object.values(doc.paths[operation])[0].parameters?.find((p) => p.name === name && p.in === "path");
    const prefixes = await concretePaths(parent, operation);
    const out: string[] = [];
    for (const prefix of prefixes) {
      if (parameter?.schema?.enum) {
        for (const value of parameter.schema.enum) out.push(`${prefix}/${value}${suffix}`);
        continue;
      }
      if (JOB_IDS[name]) {
        for (const id of await JOB_IDS[name](parent)) out.push(`${prefix}/${id}${suffix}`);
        continue;
      }
      // Sets have no list of their own: a training's read names them (rests too, which set operations answer 404).
      if (name === "set_id") {
        const [training] = (await fetchAll(prefix.replace(/\/sets$/, ""))) as { sets: { set_id: number; kind: string }[] }[];
        for (const set of training?.sets ?? []) if (set.kind === "work") out.push(`${prefix}/${set.set_id}${suffix}`);
        continue;
      }
      expect(
        doc.paths[parent]?.get,
        `the crawler fills {${name}} of ${template} from GET ${parent}, which the document lacks`,
      ).toBeTruthy();
      for (const item of await listOf(prefix)) out.push(`${prefix}/${(item as { id: number }).id}${suffix}`);
    }
    return out;
  }

  const sessions = (await listOf("/sessions")) as { id: number }[];
  if (part === "reads" && created) {
    expect(sessions.map((s) => s.id).sort((a, b) => a - b)).toEqual([...created].sort((a, b) => a - b));
    // Records are derived over those sessions alone (issue 14, defect 4).
    const records = (await listOf("/records")) as { session_id: number }[];
    expect(records.length).toBeGreaterThan(0);
  } else if (part === "reads") expect(sessions.length).toBeGreaterThanOrEqual(5);
  /** Operations of this part the surface serves: a part with none (device jobs off the data surface) crawls nothing. */
  let partTemplates = 0;
  const served = (operation: Operation | undefined): operation is Operation =>
    operation !== undefined && (operation["x-surfaces"] ?? []).includes(surface);
  /** Jobs have no list: the crawler creates them (an export of every session, in this part's format) and works them. */
  async function exportJobIds(): Promise<string[]> {
    const formats = [part.replace(/^exports /, "")];
    const documented = (
      doc.paths["/sessions/{session_id}/exports"] as unknown as {
        post: { requestBody: { content: { "application/json": { schema: { properties: { format: { enum: string[] } } } } } } };
      }
    ).post.requestBody.content["application/json"].schema.properties.format.enum;
    expect([...documented].sort(), "the crawler's export parts are the document's formats").toEqual([...EXPORT_FORMATS].sort());
    const ids: string[] = [];
    for (const session of sessions) {
      for (const format of formats) {
        const created = await api.call("POST", `/sessions/${session.id}/exports`, { token, body: { format } });
        if (created.status === 202) ids.push(created.body.data.job_id);
      }
    }
    // The export runs, worked by the embedded runner.
    await api.drainJobs();
    const succeeded: string[] = [];
    for (const id of ids) if ((await api.call("GET", `/exports/${id}`, { token })).body.data.status === "succeeded") succeeded.push(id);
    // Only finished files can be downloaded. Seat 1 of a session the person paddled in may be someone else's (404 at creation).
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    return succeeded;
  }
  /** A fetch job for the newest file of each of the person's units. */
  async function deviceJobIds(): Promise<string[]> {
    const ids: string[] = [];
    for (const device of (await listOf("/devices")) as { id: number }[]) {
      const [file] = (await listOf(`/devices/${device.id}/files`)) as { filename: string }[];
      if (!file) continue;
      const created = await api.call("POST", `/devices/${device.id}/files/${encodeURIComponent(file.filename)}/fetch`, { token });
      expect(created.status).toBe(202);
      ids.push(created.body.data.job_id);
    }
    expect(ids.length).toBeGreaterThan(0);
    return ids;
  }
  const JOB_IDS: Record<string, (parent: string) => Promise<string[]>> = {
    job_id: async (parent) => (parent === "/exports" ? exportJobIds() : parent === "/devices/jobs" ? deviceJobIds() : []),
  };
  /** Query parameters the crawler adds: every series field; each required id from the lists. */
  const QUERY: Record<string, () => Promise<string[]>> = {
    fields: async () => ["distance,speed,rate,stroke_distance,heart_rate,route"],
    max_points: async () => ["1000"],
    session_id: async () => sessions.map((s) => String(s.id)),
  };
  for (const [template, operations] of Object.entries(doc.paths)) {
    const operation = operations.get;
    // Operations that take no OAuth token (/health, the replay launch and artifact URLs, whose
    // single-use tokens no list reveals) are not the token's to crawl; e2e/replay-embeds.spec.ts
    // checks the replay artifact member by member and frame by frame.
    if (!served(operation) || template === "/health" || operation.security?.length === 0) continue;
    const partOfTemplate = !template.includes("{job_id}") ? "reads" : template.startsWith("/devices/") ? "device jobs" : "exports";
    if (part !== partOfTemplate && !part.startsWith(`${partOfTemplate} `)) continue;
    partTemplates += 1;
    for (const path of await concretePaths(template)) {
      const paged = operation.parameters?.some((p) => p.name === "cursor");
      let queries = [paged ? "limit=100" : ""];
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== "query" || !QUERY[parameter.name]) continue;
        if (!parameter.required && parameter.name === "session_id") continue;
        const values = await QUERY[parameter.name]();
        queries = queries.flatMap((q) => values.map((v) => [q, `${parameter.name}=${encodeURIComponent(v)}`].filter(Boolean).join("&")));
      }
      for (const query of queries) await fetchAll(query ? `${path}?${query}` : path);
    }
  }
  // POST operations that only read: every session compared with its neighbours (all together when 2 to 9),
  // every template the API lists sent back through the import, and every ready training's work sets compared
  // all together. Exports and device jobs are crawled above.
  if (part !== "posts") return expectClean(found, crawled, doc, surface, part, partTemplates > 0);
  const READ_POSTS = ["/sessions/compare", "/workout-templates/import", "/trainings/{training_id}/compare"];
  const posts = Object.entries(doc.paths)
    .filter(([t, ops]) => served(ops.post) && !/exports$|fetch$|download$|embeds$|leases$/.test(t))
    .map(([t]) => t);
  expect(posts.sort()).toEqual(READ_POSTS.filter((t) => served(doc.paths[t]?.post)).sort());
  async function postJson(path: string, body: Json) {
    const response = await api.call("POST", path, { token, body });
    const json = response.body as Json;
    // 409: a compared session whose processing failed.
    expect([200, 409], `${path}: ${JSON.stringify(json).slice(0, 300)}`).toContain(response.status);
    crawled.push(path);
    violations(json, path, found, created);
  }
  if (posts.includes("/sessions/compare")) {
    const ids = sessions.map((s) => s.id);
    for (let k = 0; k + 1 < ids.length; k++)
      await postJson("/sessions/compare", { session_ids: [ids[k], ids[k + 1]], points: 1000, splits: 20 });
    if (ids.length >= 2 && ids.length <= 9) await postJson("/sessions/compare", { session_ids: ids });
  }
  if (posts.includes("/workout-templates/import")) {
    for (const item of (await listOf("/workout-templates")) as { id: number }[]) {
      const [one] = (await fetchAll(`/workout-templates/${item.id}`)) as { template: Json }[];
      await postJson("/workout-templates/import", one.template);
    }
  }
  if (posts.includes("/trainings/{training_id}/compare")) {
    for (const item of (await listOf("/trainings")) as { id: number; status: string }[]) {
      if (item.status !== "ready") continue;
      const [training] = (await fetchAll(`/trainings/${item.id}`)) as { sets: { set_id: number; kind: string }[] }[];
      const work = training.sets
        .filter((set) => set.kind === "work")
        .map((set) => set.set_id)
        .slice(0, 9);
      if (work.length >= 2) await postJson(`/trainings/${item.id}/compare`, { set_ids: work, splits: 20 });
    }
  }
  expectClean(found, crawled, doc, surface, part, posts.length > 0);
}

/** Nothing forbidden was found; the reads reached every kind of operation the document lists. */
function expectClean(found: string[], crawled: string[], doc: Doc, surface: Surface, part: string, served: boolean) {
  expect(found, found.slice(0, 20).join("\n")).toEqual([]);
  if (served) expect(crawled.length, part).toBeGreaterThan(0);
  if (part !== "reads") return;
  const servedHere = (operation: Operation | undefined) => (operation?.["x-surfaces"] ?? []).includes(surface);
  const templates = Object.keys(doc.paths).filter(
    (t) => servedHere(doc.paths[t].get) && t !== "/health" && doc.paths[t].get.security?.length !== 0 && !t.includes("{job_id}"),
  );
  expect(templates.length).toBeGreaterThan(5);
  expect(crawled.length).toBeGreaterThan(templates.length);
}
