import fs from "node:fs";
import path from "node:path";

/**
 * Finds the app/api/v1 route module that Next.js would pick for a path and
 * calls its exported method handler with a Request and the params context,
 * as Next's router does. Routing is Next's own convention read from the file
 * tree (static segments before [dynamic] before [[...catch-all]]), never a
 * table of ours, so a route file added or moved is found as it is.
 */
type Segment = { kind: "static"; name: string } | { kind: "dynamic"; name: string } | { kind: "catchAll"; name: string; optional: boolean };
interface RouteFile {
  file: string;
  segments: Segment[];
}
type RouteHandler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const API_ROOT = path.join(process.cwd(), "app", "api", "v1");

function segmentOf(part: string): Segment {
  const catchAll = /^\[(\[)?\.\.\.(\w+)\]?\]$/.exec(part);
  if (catchAll) return { kind: "catchAll", name: catchAll[2], optional: Boolean(catchAll[1]) };
  const dynamic = /^\[(\w+)\]$/.exec(part);
  return dynamic ? { kind: "dynamic", name: dynamic[1] } : { kind: "static", name: part };
}

function listRouteFiles(dir = API_ROOT, parts: string[] = []): RouteFile[] {
  const found: RouteFile[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...listRouteFiles(path.join(dir, entry.name), [...parts, entry.name]));
    else if (entry.name === "route.ts") found.push({ file: path.join(dir, entry.name), segments: parts.map(segmentOf) });
  }
  return found;
}

let routeFiles: RouteFile[] | undefined;

/** Params of `pathParts` under `route`, or null when it does not match. */
function matchRoute(route: RouteFile, pathParts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let i = 0; i < route.segments.length; i++) {
    const segment = route.segments[i];
    if (segment.kind === "catchAll") {
      const rest = pathParts.slice(i);
      if (!rest.length && !segment.optional) return null;
      if (rest.length) params[segment.name] = rest;
      return params;
    }
    if (i >= pathParts.length) return null;
    if (segment.kind === "static" && segment.name !== pathParts[i]) return null;
    if (segment.kind === "dynamic") params[segment.name] = pathParts[i];
  }
  return route.segments.length === pathParts.length ? params : null;
}

/** Next's precedence, segment by segment: static, then dynamic, then catch-all. */
const RANK = { static: 0, dynamic: 1, catchAll: 2 } as const;
function compareRoutes(a: RouteFile, b: RouteFile): number {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const ra = a.segments[i] ? RANK[a.segments[i].kind] : -1;
    const rb = b.segments[i] ? RANK[b.segments[i].kind] : -1;
    if (ra !== rb) return ra - rb;
  }
  return 0;
}

/** The route file serving `pathname` (under /api/v1) and its params; params are decoded, as Next passes them. */
export function resolveRoute(pathname: string): { file: string; params: Record<string, string | string[]> } {
  routeFiles ??= listRouteFiles();
  const relative = pathname.replace(/^\/api\/v1/, "");
  const parts = relative
    .split("/")
    .filter(Boolean)
    .map((part) => decodeURIComponent(part));
  const candidates = routeFiles
    .map((route) => ({ route, params: matchRoute(route, parts) }))
    .filter((c): c is { route: RouteFile; params: Record<string, string | string[]> } => c.params !== null)
    .sort((a, b) => compareRoutes(a.route, b.route));
  if (!candidates.length) throw new Error(`no route file under app/api/v1 serves ${pathname}`);
  return { file: candidates[0].route.file, params: candidates[0].params };
}

/** Calls the route module's exported handler for the request's method (HEAD falls back to GET, as in Next). */
export async function dispatch(request: Request): Promise<Response> {
  const { file, params } = resolveRoute(new URL(request.url).pathname);
  const routeModule = (await import(/* @vite-ignore */ file)) as Record<string, RouteHandler | undefined>;
  const handler = routeModule[request.method] ?? (request.method === "HEAD" ? routeModule.GET : undefined);
  // Next answers a method a route file does not export with its own 405; every /api/v1 file exports them all (api-routing.ts).
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve(params) });
}
