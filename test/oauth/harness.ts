// First: the environment, before any module reads it.
import "./env";
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import * as oauthRoute from "@/app/api/oauth/[...oidc]/route";
import * as interactionRoute from "@/app/(oauth)/oauth/interaction/[uid]/route";
import nextConfig from "@/next.config.mjs";
import { setIntrospectionAllowed } from "@/server/applications/application-review";
import { createApplication } from "@/server/applications/applications";
import { getEnv } from "@/server/config/env";
import { getDb, getDbHandle, type Db } from "@/server/db/client";
import { createUser } from "@/server/users/users";
import { prepareFileDatabase, type FileDatabase } from "../api/harness/database";
import { authorizeUrlAt, basicAuth, pkcePair, randomValue, type AuthorizeParams } from "../support/oauth-authorize";

export { basicAuth, pkcePair, randomValue, type AuthorizeParams };

/**
 * The authorization server in process (issue 22 §3): requests go to the same
 * route modules Next.js calls (app/api/oauth/[...oidc], the interaction
 * route), after next.config.mjs's own rewrites, against the file's own
 * migrated database (test/api/harness/database.ts, shared with the API
 * harness), which the routes reach through getDb() as in production.
 * An `OAuthBrowser` keeps cookies (by path, like a browser) and never follows
 * redirects, so a test sees every hop; people and applications are made with
 * the domain functions.
 */

export const appUrl = () => getEnv().appUrl;
export const issuer = () => `${appUrl()}/api`;
export const apiResource = () => `${appUrl()}/api/v1`;

/**
 * Registers the file's database (beforeAll/afterAll): a test file calls it once at its top and
 * reads `.db` in its tests. The routes and the tests share the one handle.
 */
export function oauthHarness(): { readonly db: Db } {
  let fileDb: FileDatabase | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    fileDb = await prepareFileDatabase("empty", async () => {}, []);
    db = getDb();
  });
  afterAll(async () => {
    await getDbHandle().close();
    await fileDb?.drop();
  });
  return {
    get db() {
      if (!db) throw new Error("the harness's database is ready in tests and hooks, after its beforeAll");
      return db;
    },
  };
}

type Rewrite = { source: string; destination: string };
let rewrites: Promise<Rewrite[]> | undefined;
const rewritesOf = () => (rewrites ??= nextConfig.rewrites());

/** Answers one request the way the production server routes it (only the routes the OAuth server has). */
export async function send(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const rewrite = (await rewritesOf()).find((r) => r.source === url.pathname);
  const pathname = rewrite ? rewrite.destination : url.pathname;
  const method = request.method as "GET" | "POST";
  if (pathname.startsWith("/api/oauth/")) {
    const oidc = pathname.slice("/api/oauth/".length).split("/").map(decodeURIComponent);
    const target = rewrite ? new Request(new URL(pathname + url.search, url), request) : request;
    return oauthRoute[method](target, { params: Promise.resolve({ oidc }) });
  }
  const interaction = pathname.match(/^\/oauth\/interaction\/([^/]+)$/);
  if (interaction) return interactionRoute[method](request, { params: Promise.resolve({ uid: decodeURIComponent(interaction[1]) }) });
  throw new Error(`no in-process route for ${request.method} ${pathname}`);
}

export const randomClientIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;

interface Cookie {
  name: string;
  value: string;
  path: string;
}

export interface SendOptions {
  method?: string;
  form?: Record<string, string> | URLSearchParams;
  headers?: Record<string, string>;
}

/** A request built like a browser's or a client's: a form body is urlencoded. */
export function buildRequest(url: string, options: SendOptions = {}): Request {
  const headers = new Headers(options.headers);
  let body: string | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers.set("content-type", "application/x-www-form-urlencoded");
  }
  return new Request(new URL(url, appUrl()), { method: options.method ?? (body === undefined ? "GET" : "POST"), headers, body });
}

/** A cookie-keeping client from one address that never follows redirects. */
export class OAuthBrowser {
  private readonly cookies: Cookie[] = [];
  constructor(readonly clientIp = randomClientIp()) {}

  async fetch(url: string, options: SendOptions = {}): Promise<Response> {
    const request = buildRequest(url, { ...options, headers: { "x-forwarded-for": this.clientIp, ...options.headers } });
    const cookie = this.cookieFor(new URL(request.url).pathname);
    if (cookie) request.headers.set("cookie", cookie);
    const response = await send(request);
    for (const line of response.headers.getSetCookie()) this.keep(line);
    return response;
  }

  /** The Cookie header a browser would send to `requestPath`. */
  cookieFor(requestPath: string): string {
    const matches = (c: Cookie) => requestPath === c.path || requestPath.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`);
    return this.cookies
      .filter(matches)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }

  private keep(line: string) {
    const [pair, ...attributes] = line.split(";").map((part) => part.trim());
    const at = pair.indexOf("=");
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    const attribute = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
    const cookiePath = attribute("path") ?? "/";
    const expires = attribute("expires");
    const gone = attribute("max-age") === "0" || (expires !== undefined && Date.parse(expires) <= Date.now());
    const index = this.cookies.findIndex((c) => c.name === name && c.path === cookiePath);
    if (index >= 0) this.cookies.splice(index, 1);
    if (!gone) this.cookies.push({ name, value, path: cookiePath });
  }
}

export interface Person {
  id: number;
  name: string;
  email: string;
  password: string;
}

export async function newPerson(db: Db, label = "owner"): Promise<Person> {
  const account = { name: `OAuth ${label}`, email: `${label}-${randomUUID()}@oauth.test`, password: `pw-${randomValue()}` };
  const user = await createUser(db, account);
  return { ...account, id: user.id };
}

export interface TestApp {
  id: number;
  clientId: string;
  clientSecret: string | null;
  redirectUri: string;
  owner: Person;
}

export interface AppOptions {
  surface?: "data" | "partner" | "session";
  clientType?: "confidential" | "public";
  redirectUris?: string[];
  scopes?: string[];
}

export const USERINFO_SCOPE = "openid profile email offline_access";
export const DEFAULT_SCOPES = ["openid", "profile", "email", "offline_access", "sessions:read", "health:read"];

/** A fresh owner (unless given) and a registered application, as the portal registers one. */
export async function registerApp(db: Db, options: AppOptions = {}, owner?: Person): Promise<TestApp> {
  const person = owner ?? (await newPerson(db));
  const redirectUris = options.redirectUris ?? [`http://127.0.0.1:${40000 + Math.floor(Math.random() * 20000)}/callback`];
  const { application, clientSecret } = await createApplication(db, person.id, {
    name: "In-process app",
    surface: options.surface ?? "data",
    clientType: options.clientType ?? "confidential",
    redirectUris,
    embedOrigins: [],
    scopes: options.scopes ?? DEFAULT_SCOPES,
  });
  return { id: application.id, clientId: application.clientId, clientSecret, redirectUri: redirectUris[0], owner: person };
}

export const allowIntrospection = (db: Db, app: TestApp) => setIntrospectionAllowed(db, { id: app.id, allowed: true });

export function authorizeUrl(p: AuthorizeParams): string {
  return authorizeUrlAt(appUrl(), p);
}
