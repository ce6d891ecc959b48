import { afterAll, beforeAll } from "vitest";
import type { Db } from "@/server/db/client";
import { OpenApiValidator, type OpenApiDocument } from "../openapi-validator";
import { prepareFileDatabase, type FileDatabase, type Seed } from "./database";
import { dispatch } from "./routes";

export * from "./credentials";

/**
 * The in-process API harness (issue 22 §3, after Unkey's route tests): a test
 * file calls `apiHarness()` once at its top; it gets a real migrated Postgres
 * of its own (harness/database.ts), seeded when asked, and `call(method,
 * path, {token, body, query})`, which builds a Request, hands it to the
 * app/api/v1 route module Next.js would pick (harness/routes.ts) and checks
 * the answer against the OpenAPI document the app serves for that API
 * (fetched through its own route, app/api/docs). Credentials are made by
 * harness/credentials.ts through the domain's functions, so the admission
 * code verifies them as real ones.
 */
/** Requests arrive over HTTPS, as deployed (uploads require it); `origin` in a call says otherwise. */
export const ORIGIN = "https://localhost:3000";

export interface CallOptions {
  /** The bearer credential: an access token, or a key pair `<public>.<secret>`. */
  token?: string | null;
  /** A JSON value (sent as application/json), or a raw body (string, bytes, FormData). */
  body?: unknown;
  query?: Record<string, string | number | boolean | readonly (string | number)[] | undefined>;
  headers?: Record<string, string>;
  /** Scheme, host and port of the request URL (default ORIGIN). */
  origin?: string;
  /** The path is not in either document (unknown paths, methods): the answer is not validated against one. */
  undocumented?: boolean;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON body; the text for text/*; the bytes otherwise; null when empty. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- validated against the OpenAPI document before it is returned; tests read it freely
  body: any;
  /** The document template the path matched, e.g. /sessions/{session_id}. */
  template: string | null;
}

export type ApiName = "data" | "results";

export interface ApiHarness {
  readonly db: Db;
  /** The app's documents, as served (app/api/docs/*.json). */
  readonly documents: Record<ApiName, OpenApiValidator>;
  call(method: string, path: string, options?: CallOptions): Promise<ApiAnswer>;
  /** Works the background runs queued so far (exports, device fetches, replay artifacts) with the embedded runner, until none is runnable. */
  drainJobs(): Promise<number>;
}

const isKeyPair = (token: string) => token.startsWith("svcpk_");

/** The request as a client sends it over the wire: the body serialized, with its Content-Type and Content-Length. */
async function buildRequest(method: string, path: string, options: CallOptions): Promise<Request> {
  const url = new URL(`/api/v1${path}`, options.origin ?? ORIGIN);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
  }
  const headers = new Headers(options.headers);
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  let body: Uint8Array<ArrayBuffer> | undefined;
  if (options.body !== undefined) {
    const raw =
      typeof options.body === "string" ||
      options.body instanceof Uint8Array ||
      options.body instanceof FormData ||
      options.body instanceof Blob;
    const encoded = new Response((raw ? options.body : JSON.stringify(options.body)) as BodyInit);
    body = new Uint8Array(await encoded.arrayBuffer());
    const contentType = raw ? encoded.headers.get("content-type") : "application/json";
    if (contentType && !headers.has("content-type")) headers.set("content-type", contentType);
    headers.set("content-length", String(body.byteLength));
  }
  return new Request(url, { method: method.toUpperCase(), headers, body });
}

async function readBody(response: Response): Promise<unknown> {
  const contentType = response.headers.get("content-type") ?? "";
  if (response.status === 204 || response.body === null) return null;
  if (contentType.includes("json")) return response.json();
  if (contentType.startsWith("text/")) return response.text();
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The documents that describe a call: those that have the path; on a path
 * both APIs own (GET /tracks), the credential's API, or both when there is none.
 */
function documentsFor(documents: Record<ApiName, OpenApiValidator>, method: string, path: string, token: string | null | undefined) {
  const having = (Object.keys(documents) as ApiName[])
    .map((name) => ({ name, validator: documents[name], template: documents[name].templateOf(method, path) }))
    .filter((d): d is { name: ApiName; validator: OpenApiValidator; template: string } => d.template !== null);
  if (having.length < 2 || !token) return having;
  return having.filter((d) => d.name === (isKeyPair(token) ? "results" : "data"));
}

async function loadDocument(route: string): Promise<OpenApiValidator> {
  const { GET } = (await import(/* @vite-ignore */ `@/app/api/docs/${route}/route`)) as { GET: () => Response | Promise<Response> };
  return new OpenApiValidator((await (await GET()).json()) as OpenApiDocument);
}

/**
 * Registers the file's database (beforeAll/afterAll) and returns the harness.
 * `seed` fills the file's template once (name it; list the files it depends on).
 */
export function apiHarness(options: { seed?: { name: string; run: Seed; sources: string[] } } = {}): ApiHarness {
  let fileDb: FileDatabase | undefined;
  let db: Db | undefined;
  let documents: Record<ApiName, OpenApiValidator> | undefined;
  beforeAll(async () => {
    fileDb = await prepareFileDatabase(options.seed?.name ?? "empty", options.seed?.run ?? (async () => {}), options.seed?.sources ?? []);
    const { getDb } = await import("@/server/db/client");
    db = getDb();
    documents = { data: await loadDocument("data-api.json"), results: await loadDocument("results-api.json") };
  });
  afterAll(async () => {
    const { getDbHandle } = await import("@/server/db/client");
    await getDbHandle().close();
    await fileDb?.drop();
  });
  return {
    get db() {
      if (!db) throw new Error("the harness's database is ready in tests and hooks, after its beforeAll");
      return db;
    },
    get documents() {
      if (!documents) throw new Error("the documents are loaded in the harness's beforeAll");
      return documents;
    },
    async drainJobs() {
      const { drainEmbeddedRuns } = await import("@/server/jobs/embedded-runner");
      return drainEmbeddedRuns(this.db, { maxWaitMs: 0 });
    },
    async call(method, path, callOptions = {}) {
      const response = await dispatch(await buildRequest(method, path, callOptions));
      const body = await readBody(response);
      const bare = path.split("?")[0];
      const describing = documentsFor(this.documents, method, bare, callOptions.token);
      const template = describing[0]?.template ?? null;
      if (!callOptions.undocumented) {
        if (!describing.length)
          throw new Error(`${method} ${bare} is an operation of neither API's document (pass undocumented: true for paths outside them)`);
        const contentType = response.headers.get("content-type") ?? "";
        for (const d of describing) d.validator.check(method, d.template, { status: response.status, contentType, body });
      }
      return { status: response.status, headers: response.headers, body, template };
    },
  };
}
