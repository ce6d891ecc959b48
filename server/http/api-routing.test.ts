import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DbHandle } from "../db/client";
import { openTestDb } from "../../test/support/test-db";
import { dataApiDocument } from "./data-api/openapi";
import { resultsApiDocument } from "./results-api/openapi";

/**
 * Every route file under app/api/v1 goes through `apiRoute` (issue 22,
 * docs/architecture.md "Every route through its wrapper"): a method its path
 * does not serve is the kernel's JSON 405 with `Allow` naming exactly the
 * methods the OpenAPI documents declare there, OPTIONS is a 204 with the
 * same `Allow`, and each declared method reaches its operation. The route
 * files are found by walking the folder, so a new one cannot be forgotten.
 */
const ROOT = path.resolve(import.meta.dirname, "../../app/api/v1");
const BASE = "http://localhost/api/v1";
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type RouteModule = Partial<Record<(typeof METHODS)[number] | "OPTIONS" | "HEAD", Handler>>;

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** "/sessions/[session_id]/exports" and "/sessions/{session_id}/exports" alike → "/sessions/{}/exports" (the folder's and the document's parameter names may differ). */
const shapeOf = (route: string) => route.replace(/\[[^\]]+\]|\{[^}]+\}/g, "{}");

/** The methods both documents declare per path shape. */
function declaredMethods(): Map<string, Set<string>> {
  const byShape = new Map<string, Set<string>>();
  for (const doc of [resultsApiDocument("https://example.test"), dataApiDocument("https://example.test")]) {
    for (const [template, operations] of Object.entries(doc.paths as Record<string, object>)) {
      const methods = byShape.get(shapeOf(template)) ?? new Set<string>();
      for (const method of Object.keys(operations)) methods.add(method.toUpperCase());
      byShape.set(shapeOf(template), methods);
    }
  }
  return byShape;
}

/** A concrete URL and route params for a folder path: every dynamic segment gets "1". */
function concrete(route: string) {
  const params: Record<string, string> = {};
  const url = route.replace(/\[([^\]]+)\]/g, (_, name: string) => {
    params[name] = "1";
    return "1";
  });
  return { url: `${BASE}${url}`, context: { params: Promise.resolve(params) } };
}

const routes = routeFiles(ROOT)
  .map((file) => ({ file, route: path.dirname(file).slice(ROOT.length) || "/" }))
  .filter(({ route }) => route !== "/[[...path]]")
  .sort((a, b) => a.route.localeCompare(b.route));
const declared = declaredMethods();
const load = (file: string) => import(/* @vite-ignore */ file) as Promise<RouteModule>;

let handle: DbHandle;
beforeAll(async () => {
  handle = await openTestDb();
});
afterAll(async () => {
  await handle.close();
});

describe("every route file under app/api/v1", () => {
  it("is found by the walk (the folder holds the two APIs' operations)", () => {
    expect(routes.length).toBeGreaterThan(50);
    for (const { route } of routes) expect(declared.has(shapeOf(route)), `${route} is in an OpenAPI document`).toBe(true);
  });

  for (const { file, route } of routes) {
    it(`${route}: JSON 405 with Allow for every other method, OPTIONS 204 with Allow, each declared method reaches its operation`, async () => {
      const mod = await load(file);
      const served = declared.get(shapeOf(route))!;
      const allow = [...served, ...(served.has("GET") ? ["HEAD"] : []), "OPTIONS"].sort();
      const { url, context } = concrete(route);

      for (const method of METHODS.filter((m) => !served.has(m))) {
        expect(typeof mod[method], `${method} ${route} is exported`).toBe("function");
        for (const credential of [
          {} as Record<string, string>,
          { authorization: "Bearer not-a-token" },
          { authorization: "Bearer svcpk_none.none" },
        ]) {
          const response = await mod[method]!(new Request(url, { method, headers: credential }), context);
          expect(response.status, `${method} ${route}`).toBe(405);
          expect(response.headers.get("content-type")).toMatch(/^application\/json/);
          expect(response.headers.get("allow")?.split(", ").sort(), `${method} ${route} Allow`).toEqual(allow);
          expect(await response.json()).toMatchObject({ error: "method_not_allowed" });
        }
      }

      expect(typeof mod.OPTIONS, `OPTIONS ${route} is exported`).toBe("function");
      const options = await mod.OPTIONS!(new Request(url, { method: "OPTIONS" }), context);
      expect(options.status).toBe(204);
      expect(options.headers.get("allow")?.split(", ").sort()).toEqual(allow);

      // No export Next would answer by itself (its plain 405, or its own OPTIONS listing every export).
      expect(
        Object.keys(mod)
          .filter((name) => /^[A-Z]+$/.test(name))
          .sort(),
      ).toEqual([...METHODS, "OPTIONS"].sort());

      for (const method of served) {
        const response = await mod[method as (typeof METHODS)[number]]!(
          new Request(url, { method, headers: { "content-type": "application/json" }, body: method === "GET" ? undefined : "{}" }),
          context,
        );
        expect(response.status, `${method} ${route} reaches its operation`).not.toBe(405);
        expect(response.status, `${method} ${route}`).toBeLessThan(500);
      }
    });
  }

  it("/[[...path]]: every method of an unknown path is a JSON 404", async () => {
    const mod = await load(path.join(ROOT, "[[...path]]", "route.ts"));
    for (const method of [...METHODS, "OPTIONS"] as const) {
      const response = await mod[method]!(new Request(`${BASE}/no/such/operation`, { method }), {
        params: Promise.resolve({ path: ["no", "such", "operation"] }),
      });
      expect(response.status, method).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    }
  });
});
