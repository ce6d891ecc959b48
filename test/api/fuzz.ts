import { call, type OpenApiCheck } from "./results-client";

/**
 * The parameter fuzz of both APIs (issue 14, defect 1; results-fuzz.test.ts
 * and data-api-fuzz.test.ts): hostile values — NUL, unpaired surrogates,
 * invalid UTF-8, 2^31, 2^53, 9999999999, -1, huge strings, impossible
 * dates, repeated parameters, deep JSON — at every parameter of every
 * operation of the served documents. The property: no 5xx, and every answer
 * one the document lists for the operation (or 429), of a declared type,
 * with a body that matches the documented schema. Seeded (FUZZ_SEED, then
 * per operation) and bounded: a fixed list plus RANDOM_PER_PARAMETER
 * generated values per parameter.
 */
export const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
export const RANDOM_PER_PARAMETER = 4;

export function mulberry32(seed: number): () => number {
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
export const FIXED_URL_VALUES = [
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

export function randomUrlValue(rand: () => number): string {
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
export function hostileJsonValues(): unknown[] {
  let deep: unknown = 1;
  for (let i = 0; i < 3000; i++) deep = [deep];
  return [
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x".repeat(70_000 / 2),
    2 ** 31,
    2 ** 53,
    9999999999,
    -1,
    0.5,
    1e308,
    -1e308,
    [],
    {},
    [null],
    { id: 2 ** 31 },
    { name: "\u0000" },
    { name: "a", surname: "\udfff" },
    deep,
    true,
    null,
  ];
}

export interface FuzzDoc {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
}

export interface FuzzOperation {
  method: string;
  template: string;
  parameters: { name: string; in: string }[];
}

/** Every operation of the document but the uploads (their bodies are fuzzed apart). */
export const operationsOf = (doc: FuzzDoc): FuzzOperation[] =>
  Object.entries(doc.paths).flatMap(([template, operations]) =>
    Object.entries(operations)
      .filter(([method]) => method !== "post")
      .map(([method, operation]) => ({ method, template, parameters: operation.parameters ?? [] })),
  );

/** A seed of the operation's own, so each test repeats alone. */
function seedOf(operation: FuzzOperation): number {
  let hash = SEED;
  for (const char of `${operation.method} ${operation.template}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return hash >>> 0;
}

/**
 * Paths and queries under /api/v1 for every parameter of the operation: every fixed value and
 * RANDOM_PER_PARAMETER generated ones, a repeated query parameter, and a hostile parameter name.
 * The other path parameters take 1 (`{kind}`: vessels).
 */
export function probeUrls(operation: FuzzOperation): string[] {
  const rand = mulberry32(seedOf(operation));
  const fill = (name: string, value: string) =>
    operation.template.replace(/\{(\w+)\}/g, (_, p: string) => (p === name ? value : p === "kind" ? "vessels" : "1"));
  const bare = fill("", "");
  const urls: string[] = [];
  for (const p of operation.parameters) {
    const values = [...FIXED_URL_VALUES, ...Array.from({ length: RANDOM_PER_PARAMETER }, () => randomUrlValue(rand))];
    for (const value of values) urls.push(p.in === "path" ? fill(p.name, value) : `${bare}?${p.name}=${value}`);
    if (p.in === "query") urls.push(`${bare}?${p.name}=1&${p.name}=2`);
  }
  urls.push(`${bare}?%00=1&${"q".repeat(300)}=%ED%A0%80`);
  return urls;
}

export async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What is wrong with an answer to a probe, or null: a 5xx, or an answer the document does not describe (a 429 may come anywhere). */
export async function probeProblem(document: OpenApiCheck, method: string, template: string, response: Response): Promise<string | null> {
  const body = await bodyOf(response);
  const problem =
    response.status >= 500
      ? "a 5xx"
      : response.status === 429
        ? null
        : document.problemOf(method, template, response.status, response.headers.get("content-type") ?? "", body);
  return problem && `→ ${response.status} (${problem}) ${JSON.stringify(body).slice(0, 160)}`;
}

/** Sends every probe of the operation with the credential `authorization()` gives; returns the failures. */
export async function fuzzOperation(
  document: OpenApiCheck,
  operation: FuzzOperation,
  authorization: () => Promise<string>,
): Promise<string[]> {
  const failures: string[] = [];
  for (const url of probeUrls(operation)) {
    const response = await call(operation.method.toUpperCase(), `/api/v1${url}`, { headers: { authorization: await authorization() } });
    const problem = await probeProblem(document, operation.method, operation.template, response);
    if (problem) failures.push(`${operation.method.toUpperCase()} ${url.slice(0, 120)} ${problem}`);
  }
  return failures;
}
