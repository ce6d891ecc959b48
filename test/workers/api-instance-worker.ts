/**
 * A second application instance for test/api/lost-connections.test.ts: the
 * same route modules as the in-process harness (test/api/harness/routes.ts),
 * served over HTTP by a process of its own, with its own connection pool on
 * the test file's database (DATABASE_URL). Prints `{"port"}` once listening.
 */
import http from "node:http";
import { dispatch } from "../api/harness/routes";

const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "host"]);

const server = http.createServer(async (incoming, outgoing) => {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (!HOP_BY_HOP.has(name) && typeof value === "string") headers.set(name, value);
    const response = await dispatch(
      new Request(`http://localhost:3000${incoming.url}`, { method: incoming.method, headers, body: body.length ? body : undefined }),
    );
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    // An exception escaping a handler is what the test must see as a failure, not a hang.
    console.error(error);
    outgoing.writeHead(599).end();
  }
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
});
