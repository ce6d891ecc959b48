/**
 * For `bench:data-api` only: the Data API's GET /sessions and
 * GET /sessions/{id}/strokes served by a plain Node.js HTTP server, outside
 * Next.js' request pipeline, through the very same operation declarations
 * (credential, rate limit, boundary, query, serializer). It measures what
 * serving /api/v1 outside Next.js would gain (docs/benchmarks.md); it is not
 * how the product is served.
 *
 * Run: PORT=… DATABASE_URL=… APP_URL=… tsx scripts/bench/plain-http-server.ts
 */
import http from "node:http";
import { listSessions, listSessionStrokes } from "../../server/http/data-api/operations/sessions";

const STROKES = /^\/api\/v1\/sessions\/([^/]+)\/strokes$/;
const port = Number(process.env.PORT);
const origin = process.env.APP_URL!;

http
  .createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const request = new Request(url, { method: req.method, headers });
    const strokes = STROKES.exec(url.pathname);
    const response =
      url.pathname === "/api/v1/sessions"
        ? await listSessions.handle(request, { params: Promise.resolve({}) })
        : strokes
          ? await listSessionStrokes.handle(request, { params: Promise.resolve({ session_id: strokes[1] }) })
          : Response.json({ error: "not_found" }, { status: 404 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  })
  .listen(port, "127.0.0.1", () => console.log(`plain server on ${port}`));
