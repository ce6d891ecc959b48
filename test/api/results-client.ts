import { randomUUID } from "node:crypto";
import { afterAll, expect } from "vitest";
import { createAthlete, ZAthleteInput } from "@/server/athletes/athletes";
import { getDb, getDbHandle } from "@/server/db/client";
import { revokeKeyPair } from "@/server/keys/key-pairs";
import { createTrack } from "@/server/tracks/tracks";
import { createUser, type RoleName } from "@/server/users/users";
import { createKeyPairToken, createOAuthApplication, issueToken, tokenScopesOfSurface } from "./harness";
import { prepareFileDatabase } from "./harness/database";
import { dispatch } from "./harness/routes";
import { OpenApiValidator, type OpenApiDocument } from "./openapi-validator";

/**
 * The results API's client on the in-process harness (test/api/harness):
 * people with key pairs made in the database, requests sent through proxy.ts
 * (where its matcher applies) to the route module Next.js would pick, and
 * answers checked against the served OpenAPI documents. The server settings
 * are the e2e server's.
 */
process.env.TRUST_PROXY ??= "1";
/** The e2e server's lower limit: the 413 case sends megabytes, not 64 MiB. */
export const MAX_UPLOAD_BYTES = 2_000_000;
process.env.RESULTS_API_MAX_UPLOAD_BYTES ??= String(MAX_UPLOAD_BYTES);

export const ORIGIN = "http://localhost:3000";

/** Whether proxy.ts runs for the path (its `config.matcher` under /api/v1: the launch page and paths holding a percent sign). */
const proxied = (pathname: string) =>
  pathname.startsWith("/api/v1/") && (pathname.includes("%") || /^\/api\/v1\/svcsim\/launch\/[^/]+$/.test(pathname));

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
  return dispatch(request);
}

/** GET/POST/... of an /api path with headers and an optional body. */
export function call(
  method: string,
  pathAndQuery: string,
  init: { headers?: Record<string, string>; body?: BodyInit } = {},
): Promise<Response> {
  return send(new Request(`${ORIGIN}${pathAndQuery}`, { method, headers: init.headers, body: init.body }));
}

/** Checks real answers against a served OpenAPI document (the harness's validator), on the web Response. */
export class OpenApiCheck {
  constructor(readonly validator: OpenApiValidator) {}

  get doc(): OpenApiDocument {
    return this.validator.doc;
  }

  /** The served document of `route` under app/api/docs (results-api.json, data-api.json). */
  static async load(route: string): Promise<OpenApiCheck> {
    const { GET } = (await import(/* @vite-ignore */ `@/app/api/docs/${route}/route`)) as { GET: () => Response | Promise<Response> };
    const response = await GET();
    expect(response.status).toBe(200);
    return new OpenApiCheck(new OpenApiValidator((await response.json()) as OpenApiDocument));
  }

  /** What is wrong with an answer by the document (undocumented status, a type it does not declare, a body off its schema), or null. */
  problemOf(method: string, template: string, status: number, contentType: string, body: unknown): string | null {
    const documented = this.validator.operation(method, template)?.responses[String(status)];
    if (documented && !contentType.includes("application/json")) {
      const declared = Object.keys(documented.content ?? {});
      return declared.some((type) => type !== "application/json" && contentType.startsWith(type))
        ? null
        : `content type ${contentType || "none"} is not declared`;
    }
    try {
      this.validator.check(method, template, { status, contentType, body });
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** The response's parsed JSON body (null when it is not JSON), after checking it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the body was just validated against the document's schema; tests read it freely
  async check(method: string, template: string, response: Response): Promise<any> {
    const contentType = response.headers.get("content-type") ?? "";
    const body = contentType.includes("application/json") ? await response.clone().json() : null;
    const problem = this.problemOf(method, template, response.status, contentType, body);
    expect(problem, `${method} ${template}`).toBeNull();
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
  newKey(): Promise<KeyPair>;
  track(name: string): Promise<number>;
  athlete(input: {
    name: string;
    surname?: string;
    modality?: string;
    dateOfBirth?: string;
    subscriptionActiveUntil?: string;
  }): Promise<number>;
  revoke(key: KeyPair): Promise<void>;
}

/** A person with a key pair: a coach by default, as sign-up makes one. */
export async function personWithKey(label: string, options: { role?: RoleName; unlimitedExternals?: boolean } = {}): Promise<Person> {
  const db = getDb();
  const user = await createUser(
    db,
    { name: `Test ${label}`, email: `${label}-${randomUUID()}@test.example`, password: "correct horse battery" },
    options,
  );
  const newKey = async (): Promise<KeyPair> => {
    const { token, publicKey, keyPairId } = await createKeyPairToken(db, user.id);
    return { id: keyPairId, publicKey, secretKey: token.slice(publicKey.length + 1), authorization: `Bearer ${token}` };
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

/** A Data API access token of `userId` for a fresh data-surface application holding the scopes the e2e tokens had (openid, profile, every API scope of the surface). */
export async function dataApiToken(userId: number): Promise<string> {
  const application = await createOAuthApplication(getDb(), userId);
  return (await issueToken(getDb(), { userId, application, scopes: tokenScopesOfSurface("data") })).token;
}

/**
 * The harness's database prepared while the file is collected, for files whose tests are made from
 * the documents (one test per operation): apiHarness() prepares it in a beforeAll, after collection.
 */
export async function databaseForCollection(): Promise<void> {
  const database = await prepareFileDatabase("empty", async () => {}, []);
  afterAll(async () => {
    await getDbHandle().close();
    await database.drop();
  });
}

/** The results API's document, as served. */
export const resultsDocument = () => OpenApiCheck.load("results-api.json");

/**
 * A multipart upload built with the web FormData, as it arrives over the wire: with the Content-Length
 * a client sends (formidable reads a body without Content-Length or Transfer-Encoding as empty).
 */
export async function uploadRequest(
  parts: { file?: { bytes: Buffer; filename: string } | null; metadata?: string | null },
  headers: Record<string, string>,
): Promise<Request> {
  const form = new FormData();
  if (parts.file)
    form.append("file", new Blob([new Uint8Array(parts.file.bytes)], { type: "application/octet-stream" }), parts.file.filename);
  if (parts.metadata !== null && parts.metadata !== undefined) form.append("metadata", parts.metadata);
  const encoded = new Response(form);
  const body = new Uint8Array(await encoded.arrayBuffer());
  return new Request(`${ORIGIN}/api/v1/results`, {
    method: "POST",
    headers: { ...headers, "content-type": encoded.headers.get("content-type")!, "content-length": String(body.byteLength) },
    body,
  });
}
