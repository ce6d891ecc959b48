import { expect, test } from "./fixtures";
import { anna, DATA_API_DOC, dataApiToken } from "./data-api-helpers";
import { DATA_WORLD as W, serialOfSeed } from "./data-api-world";

/**
 * The privacy crawler: with a token holding every Data API scope, call every
 * GET operation of the served document on every id the API itself reveals,
 * walking every page, and fail on any field or value that must never leave
 * (data-api.md "Privacy projection", "Health data rules"). New operations are
 * crawled automatically; one whose parameters the crawler cannot fill fails it.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Doc = { paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean; schema?: { enum?: string[] } }[] }>> };

const FORBIDDEN_KEYS = new Set([
  "serial", "device_serial", "password", "password_hash", "secret", "client_secret", "secret_hash", "access_token", "refresh_token", "id_token",
  "token", "email", "user_id", "owner_user_id", "owner", "ip", "ip_address", "external_source", "samples", "imu", "gnss", "raw", "blob_id", "grant_id",
]);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const FORBIDDEN_TEXT = [
  ...Object.values(W.seeds).map(serialOfSeed),
  "Olaf", "Other", W.external.name, W.external.surname, W.externalSource, W.olafVesselName, "@e2e.example", "svcpk_", "svcsk_", "svcas_",
];
const FORBIDDEN_NUMBERS: number[] = [W.externalWeightKg, W.externalLactate, W.olafWeightKg, W.olafLactate];
/** Processed series are capped at 1000 points; anything longer is a full-rate channel. */
const MAX_ARRAY = 1000;

function violations(value: Json, path: string, out: string[]) {
  if (typeof value === "string") {
    if (UUID.test(value)) out.push(`${path}: UUID-shaped value ${value}`);
    for (const text of FORBIDDEN_TEXT) if (value.includes(text)) out.push(`${path}: forbidden text "${text}" in ${JSON.stringify(value)}`);
    if (value === "external") out.push(`${path}: external-provider provenance`);
  } else if (typeof value === "number") {
    if (FORBIDDEN_NUMBERS.includes(value)) out.push(`${path}: forbidden value ${value}`);
  } else if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY) out.push(`${path}: ${value.length} entries (more than ${MAX_ARRAY})`);
    value.forEach((item, i) => violations(item, `${path}[${i}]`, out));
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(key.toLowerCase())) out.push(`${path}.${key}: forbidden field`);
      violations(item, `${path}.${key}`, out);
    }
  }
}

test("no operation lets a forbidden field or value out, on any id or page", async ({ request, baseURL }) => {
  test.setTimeout(240_000);
  const { token } = await dataApiToken(baseURL!, anna);
  const doc: Doc = await (await request.get(DATA_API_DOC)).json();
  const headers = { authorization: `Bearer ${token}` };
  const found: string[] = [];
  const crawled: string[] = [];

  /** GETs a path, walking every page; returns the items of a list or the one object. */
  async function fetchAll(path: string): Promise<Json[]> {
    const items: Json[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 200; page++) {
      const url = new URL(`/api/v1${path}`, baseURL);
      if (cursor) url.searchParams.set("cursor", cursor);
      const response = await request.get(url.pathname + url.search, { headers });
      if (!(response.headers()["content-type"] ?? "").includes("application/json")) {
        // A file (an export in another format): its text must not hold forbidden values either.
        expect(response.status(), path).toBe(200);
        crawled.push(path);
        const text = (await response.body()).toString("latin1");
        for (const forbidden of FORBIDDEN_TEXT) if (text.includes(forbidden)) found.push(`${path}: forbidden text "${forbidden}" in the file`);
        return [];
      }
      const body = await response.json();
      // 409: a session whose processing failed has no summary, series or splits.
      expect([200, 409], `${path}: ${JSON.stringify(body)}`).toContain(response.status());
      crawled.push(path);
      violations(body, path, found);
      if (response.status() !== 200) return items;
      if (!Array.isArray(body.data)) return [body.data];
      items.push(...body.data);
      cursor = body.meta?.next_cursor ?? null;
      if (!cursor) return items;
    }
    throw new Error(`${path}: more than 200 pages`);
  }

  const listed = new Map<string, Json[]>();
  async function listOf(path: string) {
    if (!listed.has(path)) listed.set(path, await fetchAll(path.includes("?") ? path : `${path}?limit=100`));
    return listed.get(path)!;
  }

  /** Concrete paths for a template, filling each path parameter from the list one level up (or its enum). */
  async function concretePaths(template: string): Promise<string[]> {
    const segments = template.split("/");
    const last = segments.findLastIndex((s) => s.startsWith("{"));
    if (last < 0) return [template];
    const name = segments[last].slice(1, -1);
    const parent = segments.slice(0, last).join("/");
    const suffix = segments.slice(last + 1).map((s) => `/${s}`).join("");
    const parameter = Object.values(doc.paths[template])[0].parameters?.find((p) => p.name === name && p.in === "path");
    const prefixes = await concretePaths(parent);
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
      expect(doc.paths[parent]?.get, `the crawler fills {${name}} of ${template} from GET ${parent}, which the document lacks`).toBeTruthy();
      for (const item of await listOf(prefix)) out.push(`${prefix}/${(item as { id: number }).id}${suffix}`);
    }
    return out;
  }

  const sessions = (await listOf("/sessions")) as { id: number }[];
  expect(sessions.length).toBeGreaterThanOrEqual(5);
  /** Jobs have no list: the crawler creates them (an export of every session, in every format) and waits for each to finish. */
  async function exportJobIds(): Promise<string[]> {
    const formats = ((doc.paths["/sessions/{session_id}/exports"] as unknown as { post: { requestBody: { content: { "application/json": { schema: { properties: { format: { enum: string[] } } } } } } } }).post.requestBody.content["application/json"].schema.properties.format.enum);
    const ids: string[] = [];
    for (const session of sessions) {
      for (const format of formats) {
        const created = await request.post(`/api/v1/sessions/${session.id}/exports`, { headers: { ...headers, "content-type": "application/json" }, data: { format } });
        if (created.status() === 202) ids.push((await created.json()).data.job_id);
      }
    }
    const succeeded: string[] = [];
    for (const id of ids) {
      for (let i = 0; i < 120; i++) {
        const status = (await (await request.get(`/api/v1/exports/${id}`, { headers })).json()).data.status;
        if (status === "succeeded") succeeded.push(id);
        if (status !== "queued" && status !== "running") break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    // Only finished files can be downloaded. Seat 1 of a session the person paddled in may be someone else's (404 at creation).
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    return succeeded;
  }
  let exportIds: Promise<string[]> | undefined;
  /** A fetch job for the newest file of each of the person's units. */
  async function deviceJobIds(): Promise<string[]> {
    const ids: string[] = [];
    for (const device of (await listOf("/devices")) as { id: number }[]) {
      const [file] = (await listOf(`/devices/${device.id}/files`)) as { filename: string }[];
      if (!file) continue;
      const created = await request.post(`/api/v1/devices/${device.id}/files/${encodeURIComponent(file.filename)}/fetch`, { headers });
      expect(created.status()).toBe(202);
      ids.push((await created.json()).data.job_id);
    }
    expect(ids.length).toBeGreaterThan(0);
    return ids;
  }
  const JOB_IDS: Record<string, (parent: string) => Promise<string[]>> = {
    job_id: async (parent) => (parent === "/exports" ? (exportIds ??= exportJobIds()) : parent === "/devices/jobs" ? deviceJobIds() : []),
  };
  /** Query parameters the crawler adds: every series field; each required id from the lists. */
  const QUERY: Record<string, () => Promise<string[]>> = {
    fields: async () => ["distance,speed,rate,stroke_distance,heart_rate,route"],
    max_points: async () => ["1000"],
    session_id: async () => sessions.map((s) => String(s.id)),
  };
  for (const [template, operations] of Object.entries(doc.paths)) {
    const operation = operations.get;
    if (!operation || template === "/health") continue;
    for (const path of await concretePaths(template)) {
      const paged = operation.parameters?.some((p) => p.name === "limit");
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
  expect(found, found.slice(0, 20).join("\n")).toEqual([]);
  // The crawl reached every kind of operation the document lists.
  const templates = Object.keys(doc.paths).filter((t) => doc.paths[t].get && t !== "/health");
  expect(crawled.length).toBeGreaterThan(templates.length);
});
