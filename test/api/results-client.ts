import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { createAthlete, ZAthleteInput } from "@/server/athletes/athletes";
import { getDb } from "@/server/db/client";
import { createKeyPair, revokeKeyPair } from "@/server/keys/key-pairs";
import { createTrack } from "@/server/tracks/tracks";
import { createUser, type RoleName } from "@/server/users/users";

/**
 * The results API's client for in-process tests: people with key pairs made
 * in the database, requests sent to the route modules under app/api/v1 as
 * Next.js would route them, and every answer checked against the served
 * OpenAPI document. The server settings are the e2e server's.
 */
process.env.TRUST_PROXY ??= "1";
/** The e2e server's lower limit: the 413 case sends megabytes, not 64 MiB. */
export const MAX_UPLOAD_BYTES = 2_000_000;
process.env.RESULTS_API_MAX_UPLOAD_BYTES ??= String(MAX_UPLOAD_BYTES);

export const ORIGIN = "http://localhost:3000";

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
interface RouteFile {
  segments: string[];
  file: string;
}

/** Every route.ts under app/api/v1 and app/api/docs, as Next's segments. */
function routeFiles(root: string): RouteFile[] {
  const found: RouteFile[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), [...segments, entry.name]);
      else if (entry.name === "route.ts") found.push({ segments, file: path.join(dir, entry.name) });
    }
  };
  walk(root, []);
  return found;
}
const API_ROOT = path.join(process.cwd(), "app/api");
const ROUTES = routeFiles(API_ROOT);

/** Next's precedence: a static segment, then [param], then [...rest], then [[...rest]]. */
function segmentRank(segment: string): number {
  if (segment.startsWith("[[...")) return 3;
  if (segment.startsWith("[...")) return 2;
  if (segment.startsWith("[")) return 1;
  return 0;
}

function matchRoute(parts: string[]): { file: string; params: Record<string, string | string[]> } | null {
  const candidates = ROUTES.map((route) => ({ route, params: matchSegments(route.segments, parts) })).filter((c) => c.params);
  candidates.sort((a, b) => {
    for (let i = 0; i < Math.max(a.route.segments.length, b.route.segments.length); i++) {
      const diff = segmentRank(a.route.segments[i] ?? "[[...") - segmentRank(b.route.segments[i] ?? "[[...");
      if (diff) return diff;
    }
    return 0;
  });
  return candidates[0] ? { file: candidates[0].route.file, params: candidates[0].params! } : null;
}

function matchSegments(segments: string[], parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const catchAll = /^\[\[?\.\.\.(\w+)\]\]?$/.exec(segment);
    if (catchAll) {
      const rest = parts.slice(i);
      if (rest.length === 0 && !segment.startsWith("[[")) return null;
      if (rest.length) params[catchAll[1]] = rest;
      return params;
    }
    if (i >= parts.length) return null;
    const dynamic = /^\[(\w+)\]$/.exec(segment);
    if (dynamic) params[dynamic[1]] = parts[i];
    else if (segment !== parts[i]) return null;
  }
  return segments.length === parts.length ? params : null;
}

/** Whether proxy.ts runs for the path (its `config.matcher` under /api/v1: the launch page and paths holding a percent sign). */
const proxied = (pathname: string) => pathname.startsWith("/api/v1/") && (pathname.includes("%") || /^\/api\/v1\/svcsim\/launch\/[^/]+$/.test(pathname));

/** proxy.ts as Next runs it before a route: its own answer, or null when it lets the request through. */
async function throughProxy(request: Request): Promise<Response | null> {
  const [{ NextRequest }, { proxy }] = await Promise.all([import("next/server"), import("@/proxy")]);
  const response = await proxy(new NextRequest(request));
  return response.headers.get("x-middleware-next") ? null : response;
}

/** Paths Next serves with a page (the replay launch): not a route handler, so not callable in process. */
export const servedByPage = (pathname: string) => /^\/api\/v1\/svcsim\/launch\/[^/]+$/.test(pathname);

/**
 * Sends `request` through proxy.ts (where its matcher applies) to the route module Next.js
 * would pick for its path (under /api), with the path parameters decoded as Next hands them over.
 */
export async function send(request: Request): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  if (proxied(pathname)) {
    const answer = await throughProxy(request);
    if (answer) return answer;
  }
  if (servedByPage(pathname)) throw new Error(`${pathname} is a page, not a route handler`);
  const parts = pathname.replace(/^\/api\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  const match = matchRoute(parts);
  if (!match) throw new Error(`no route file serves ${pathname}`);
  const module = (await import(pathToFileURL(match.file).href)) as Record<string, RouteHandler | undefined>;
  const method = request.method === "HEAD" ? "GET" : request.method;
  const handler = module[method];
  if (!handler) throw new Error(`${match.file} exports no ${method}`);
  return handler(request, { params: Promise.resolve(match.params) });
}

/** GET/POST/... of an /api path with headers and an optional body. */
export function call(method: string, pathAndQuery: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}): Promise<Response> {
  return send(new Request(`${ORIGIN}${pathAndQuery}`, { method, headers: init.headers, body: init.body }));
}

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>> };

/** Checks real answers against a served OpenAPI document: the status is documented for the operation, a JSON body matches its schema. */
export class OpenApiCheck {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ReturnType<Ajv2020["compile"]>>();

  constructor(readonly doc: Doc) {
    addFormats(this.ajv);
  }

  static async load(documentPath: string): Promise<OpenApiCheck> {
    const response = await call("GET", documentPath);
    expect(response.status).toBe(200);
    return new OpenApiCheck(await response.json());
  }

  /** What is wrong with an answer by the document (undocumented status, a type it does not declare, a body off its schema), or null. */
  problemOf(method: string, template: string, status: number, contentType: string, body: unknown): string | null {
    const operation = this.doc.paths[template]?.[method.toLowerCase()];
    if (!operation) return `${method} ${template} is not in the document`;
    const documented = operation.responses[String(status)];
    if (!documented) return `status ${status} is not documented`;
    const declared = Object.keys(documented.content ?? {});
    if (!contentType.includes("application/json")) return declared.some((type) => type !== "application/json" && contentType.startsWith(type)) ? null : `content type ${contentType || "none"} is not declared`;
    const schema = documented.content?.["application/json"]?.schema;
    if (!schema) return `status ${status} has no JSON schema`;
    const key = `${method} ${template} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.cache.set(key, validate);
    }
    return validate(body) ? null : `body off the schema: ${this.ajv.errorsText(validate.errors)}`;
  }

  /** The response's parsed JSON body (null when it is not JSON), after checking it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body was just validated against the document's schema; tests read it freely
  async check(method: string, template: string, response: Response): Promise<any> {
    const operation = this.doc.paths[template]?.[method.toLowerCase()];
    expect(operation, `${method} ${template} is not in the OpenAPI document`).toBeTruthy();
    const status = String(response.status);
    const documented = operation!.responses[status];
    expect(documented, `${method} ${template} answered ${status}, which the document does not list`).toBeTruthy();
    if (!(response.headers.get("content-type") ?? "").includes("application/json")) return null;
    const body = await response.clone().json();
    const schema = documented!.content?.["application/json"]?.schema;
    expect(schema, `${method} ${template} ${status} has no JSON schema`).toBeTruthy();
    const key = `${method} ${template} ${status}`;
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema!);
      this.cache.set(key, validate);
    }
    expect(validate(body), `${key}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`).toBe(true);
    return body;
  }
}

export interface KeyPair {
  id: number;
  publicKey: string;
  secretKey: string;
  /** "Bearer PUBLIC.SECRET" */
  authorization: string;
}

export interface Person {
  userId: number;
  key: KeyPair;
  /** Another key pair of the same person (each its own rate-limit bucket). */
  newKey(name?: string): Promise<KeyPair>;
  track(name: string): Promise<number>;
  athlete(input: { name: string; surname?: string; modality?: string; dateOfBirth?: string; subscriptionActiveUntil?: string }): Promise<number>;
  revoke(key: KeyPair): Promise<void>;
}

/** A person with a key pair: a coach by default, as sign-up makes one. */
export async function personWithKey(label: string, options: { role?: RoleName; unlimitedExternals?: boolean } = {}): Promise<Person> {
  const db = getDb();
  const user = await createUser(db, { name: `Test ${label}`, email: `${label}-${randomUUID()}@test.example`, password: "correct horse battery" }, options);
  const newKey = async (name = "test key"): Promise<KeyPair> => {
    const { keyPair, secretKey } = await createKeyPair(db, user.id, { name });
    return { id: keyPair.id, publicKey: keyPair.publicKey, secretKey, authorization: `Bearer ${keyPair.publicKey}.${secretKey}` };
  };
  return {
    userId: user.id,
    key: await newKey(),
    newKey,
    track: async (name) => (await createTrack(db, user.id, { name })).id,
    athlete: async (input) => (await createAthlete(db, user.id, ZAthleteInput.parse(input))).id,
    revoke: (key) => revokeKeyPair(db, user.id, key.id),
  };
}

/** The results API's document, as served. */
export const resultsDocument = () => OpenApiCheck.load("/api/docs/results-api.json");

/**
 * A multipart upload built with the web FormData, as it arrives over the wire: with the Content-Length
 * a client sends (formidable reads a body without Content-Length or Transfer-Encoding as empty).
 */
export async function uploadRequest(parts: { file?: { bytes: Buffer; filename: string } | null; metadata?: string | null }, headers: Record<string, string>): Promise<Request> {
  const form = new FormData();
  if (parts.file) form.append("file", new Blob([new Uint8Array(parts.file.bytes)], { type: "application/octet-stream" }), parts.file.filename);
  if (parts.metadata !== null && parts.metadata !== undefined) form.append("metadata", parts.metadata);
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return new Request(`${ORIGIN}/api/v1/results`, {
    method: "POST",
    headers: { ...headers, "content-type": encoded.headers.get("content-type")!, "content-length": String(body.byteLength) },
    body,
  });
}
