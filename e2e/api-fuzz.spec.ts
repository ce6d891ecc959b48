import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { createKeyPair, signUpOverHttp, trpcMutation, type ApiKey } from "./api-helpers";
import { anna, bearer, dataApiToken } from "./data-api-helpers";
import { simulatedSvc } from "./svc-files";

/**
 * Property test of the parameter layer (issue 14, defect 1): reads BOTH served
 * OpenAPI documents and throws generated hostile values — NUL, unpaired
 * surrogates, 2^31, 2^53, 9999999999, -1, huge strings, impossible dates,
 * repeated parameters, deep JSON — at every parameter of every operation
 * with a valid credential, and at every field of the upload's metadata.
 * The property: no 5xx, every answer JSON, every status one the document
 * lists for the operation (or 429). Seeded (FUZZ_SEED) and bounded: a fixed
 * list plus RANDOM_PER_PARAMETER generated values per parameter.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RANDOM_PER_PARAMETER = 4;

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Query-string-ready values (already percent-encoded where needed). */
const FIXED_URL_VALUES = [
  "%00",
  "a%00b",
  "%ED%A0%80", // a UTF-16 surrogate encoded as UTF-8: not valid UTF-8
  "%F0%9F",
  "%FF%FE",
  "2147483648",
  "4294967296",
  "9007199254740992",
  "9999999999",
  "99999999999999999999999",
  "-1",
  "0",
  "1e3",
  "0x10",
  "%201",
  "NaN",
  "2020-02-30",
  "2021-02-29T10:00:00Z",
  "2020-02-30T10:00",
  "2025-13-01T25:61:61%2B99:99",
  "x".repeat(6000),
  "%5B%5D",
  encodeURIComponent("[".repeat(2000) + "]".repeat(2000)),
  encodeURIComponent('{"a":{"b":{"c":1}}}'),
  "%25%5F%5C",
];

function randomUrlValue(rand: () => number): string {
  const kind = Math.floor(rand() * 4);
  if (kind === 0) return `${rand() < 0.3 ? "-" : ""}${Math.floor(rand() * 10 ** (1 + Math.floor(rand() * 19)))}`;
  if (kind === 1) {
    const pad = (n: number) => String(n).padStart(2, "0");
    return `${1900 + Math.floor(rand() * 300)}-${pad(Math.floor(rand() * 14))}-${pad(Math.floor(rand() * 33))}T${pad(Math.floor(rand() * 26))}:${pad(Math.floor(rand() * 62))}`;
  }
  const alphabet = ["\u0000", "\u0001", "\u001f", "%", "_", "\\", "'", '"', ";", "é", "😀", "a", "Z", "0", " ", "\u200b", "\ufffd", "--"];
  let s = "";
  for (let i = 0, n = 1 + Math.floor(rand() * (kind === 2 ? 40 : 400)); i < n; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  return encodeURIComponent(s);
}

/** JSON values for the upload's metadata fields. */
function hostileJsonValues(): unknown[] {
  let deep: unknown = 1;
  for (let i = 0; i < 3000; i++) deep = [deep];
  return ["\u0000", "a\u0000b", "\ud800", "x".repeat(70_000 / 2), 2 ** 31, 2 ** 53, 9999999999, -1, 0.5, 1e308, -1e308, [], {}, [null], { id: 2 ** 31 }, { name: "\u0000" }, { name: "a", surname: "\udfff" }, deep, true, null];
}

interface Doc {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[]; responses: Record<string, { content?: Record<string, unknown> } | undefined> }>>;
}

interface Probe {
  api: "results" | "data";
  method: string;
  template: string;
  url: string;
}

function probesOf(doc: Doc, api: Probe["api"], rand: () => number): Probe[] {
  const probes: Probe[] = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (method === "post") continue; // the upload: its body is fuzzed below
      const params = operation.parameters ?? [];
      const fill = (name: string, value: string) => template.replace(/\{(\w+)\}/g, (_, p: string) => (p === name ? value : p === "kind" ? "vessels" : "1"));
      const values = () => [...FIXED_URL_VALUES, ...Array.from({ length: RANDOM_PER_PARAMETER }, () => randomUrlValue(rand))];
      for (const p of params) {
        for (const value of values()) {
          const url = p.in === "path" ? fill(p.name, value) : `${fill("", "")}?${p.name}=${value}`;
          probes.push({ api, method, template, url });
        }
        if (p.in === "query") probes.push({ api, method, template, url: `${fill("", "")}?${p.name}=1&${p.name}=2` });
      }
      probes.push({ api, method, template, url: `${fill("", "")}?%00=1&${"q".repeat(300)}=%ED%A0%80` });
    }
  }
  return probes;
}

test("no 5xx for hostile values at any parameter of either API, and every answer documented", async ({ request, baseURL }) => {
  test.setTimeout(600_000);
  const rand = mulberry32(SEED);
  const resultsDoc: Doc = await (await request.get("/api/docs/results-api.json")).json();
  const dataDoc: Doc = await (await request.get("/api/docs/data-api.json")).json();
  const probes = [...probesOf(resultsDoc, "results", rand), ...probesOf(dataDoc, "data", rand)];

  // Fresh credentials before a bucket runs out, so every probe reaches the parameter layer.
  const account = await signUpOverHttp(baseURL!, "fuzzer");
  const keys: (ApiKey & { context: APIRequestContext })[] = [];
  // Per key: 100 requests a minute, 20 of them on the PDF endpoint.
  let general = Infinity;
  let pdf = 0;
  async function keyFor(template: string) {
    if (general >= 95 || pdf >= 19) {
      keys.push(await createKeyPair(baseURL!, account, `fuzz ${keys.length}`));
      general = 0;
      pdf = 0;
    }
    general++;
    if (template.endsWith("/pdf")) pdf++;
    return keys[keys.length - 1];
  }
  let token = "";
  let dataCalls = 0;
  async function tokenFor() {
    if (dataCalls++ % 250 === 0) token = (await dataApiToken(baseURL!, anna)).token;
    return token;
  }

  const failures: string[] = [];
  for (const probe of probes) {
    const headers = probe.api === "results" ? { authorization: (await keyFor(probe.template)).authorization } : bearer(await tokenFor());
    const response = await request.fetch(`/api/v1${probe.url}`, { method: probe.method.toUpperCase(), headers, maxRedirects: 0 });
    const status = response.status();
    const documented = status === 429 || String(status) in (probe.api === "results" ? resultsDoc : dataDoc).paths[probe.template][probe.method].responses;
    // JSON, or the other type the document declares for that status (the replay launch is an HTML page for an iframe).
    const contentType = response.headers()["content-type"] ?? "";
    const declared = Object.keys((probe.api === "results" ? resultsDoc : dataDoc).paths[probe.template][probe.method].responses[String(status)]?.content ?? {});
    const json = contentType.includes("application/json") || (status === 200 && probe.template.endsWith("/pdf")) || declared.some((type) => type !== "application/json" && contentType.startsWith(type));
    if (status >= 500 || !documented || !json) failures.push(`${probe.api} ${probe.method.toUpperCase()} ${probe.url.slice(0, 120)} → ${status} ${(await response.text()).slice(0, 160)}`);
  }

  // The upload's body: every metadata field, one hostile JSON value at a time, on a baseline that would be accepted.
  const uploader = await createKeyPair(baseURL!, account, "fuzz upload");
  const trackId = (await trpcMutation<{ id: number }>(uploader.context, "tracks.create", { name: "Fuzz basin" })).id;
  const athleteId = (await trpcMutation<{ id: number }>(uploader.context, "athletes.create", { name: "Fuzz", subscriptionActiveUntil: "2099-12-31" })).id;
  const baseline: Record<string, unknown> = { distance: 200, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId], competition: "c", description: "d", important: false, meteo: { wind_speed: 1 } };
  const file = simulatedSvc({ vessel: "K1", distanceM: 200, seed: 9100 });
  const fields = [...Object.keys(baseline), "duration_ms", "athletes[0]", "meteo.wind_speed"];
  let uploads = 0;
  let uploadKey = uploader;
  for (const field of fields) {
    for (const value of hostileJsonValues()) {
      if (uploads++ % 9 === 8) uploadKey = await createKeyPair(baseURL!, account, `fuzz upload ${uploads}`);
      const metadata = structuredClone(baseline);
      if (field === "athletes[0]") metadata.athletes = [value];
      else if (field === "meteo.wind_speed") metadata.meteo = { wind_speed: value };
      else metadata[field] = value;
      const response = await request.post("/api/v1/results", {
        headers: { authorization: uploadKey.authorization, "x-forwarded-proto": "https" },
        multipart: { file: { name: "f.svc", mimeType: "application/octet-stream", buffer: file }, metadata: JSON.stringify(metadata) },
      });
      const status = response.status();
      if (status >= 500 || !(String(status) in resultsDoc.paths["/results"].post.responses)) failures.push(`POST /results ${field}=${JSON.stringify(value).slice(0, 60)} → ${status} ${(await response.text()).slice(0, 160)}`);
    }
  }

  for (const key of [...keys, uploader]) await key.context.dispose();
  expect(failures, `${failures.length} of ${probes.length} probes failed (seed ${SEED})`).toEqual([]);
});
