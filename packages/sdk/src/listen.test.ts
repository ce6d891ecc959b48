import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { listen, ListenError, streamUrl } from "./listen.js";

/**
 * `paddle-results listen`'s client side against a scripted event stream: the
 * stream drops after one event, the command reconnects with that event's id
 * as Last-Event-ID, and a revoked token ends it. The live server:
 * e2e/webhooks-listen.spec.ts.
 */
const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const body = JSON.stringify({ type: "session.created", timestamp: "2026-12-04T10:00:00.000Z", data: { subject: "s", session_id: 1 } });

describe("paddle-results listen", () => {
  it("forwards each event signed as a delivery, resumes after a drop with Last-Event-ID, and ends on revocation", async () => {
    const posts: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const local = await serve((req, res) => {
      let text = "";
      req.on("data", (c: Buffer) => (text += c.toString()));
      req.on("end", () => {
        posts.push({ headers: req.headers, body: text });
        res.writeHead(posts.length === 1 ? 204 : 500).end();
      });
    });
    const connections: http.IncomingHttpHeaders[] = [];
    const api = await serve((req, res) => {
      connections.push(req.headers);
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (connections.length === 1) {
        // A comment, one event split across writes, then the connection drops.
        res.write(": listening\n\nid: msg_one\nevent: session.cre");
        res.end(`ated\ndata: ${body}\n\n`);
      } else {
        res.write(`id: msg_two\r\nevent: session.deleted\r\ndata: ${body}\r\n\r\n`);
        setTimeout(() => res.end("event: revoked\ndata: {}\n\n"), 50);
      }
    });
    const lines: string[] = [];
    const secret = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
    const run = listen({
      api,
      token: "prl_test",
      forwardTo: `${local}/hook`,
      secret,
      log: (l) => lines.push(l),
      error: (l) => lines.push(l),
    });
    await expect(run).rejects.toThrow(ListenError);
    await expect(run).rejects.toThrow(/revoked/);

    expect(connections.map((h) => [h.authorization, h["last-event-id"]])).toEqual([
      ["Bearer prl_test", undefined],
      ["Bearer prl_test", "msg_one"],
    ]);
    expect(posts.map((p) => p.headers["webhook-id"])).toEqual(["msg_one", "msg_two"]);
    for (const post of posts) {
      expect(post.body).toBe(body);
      expect(new Webhook(secret).verify(post.body, post.headers as Record<string, string>)).toMatchObject({ type: "session.created" });
    }
    expect(lines[0]).toMatch(/^Ready! Forwarding/);
    expect(lines[1]).toBe(`Your webhook signing secret is ${secret} (shown once; pass it with --secret to keep it across runs)`);
    expect(lines.filter((l) => / {2}session\./.test(l))).toEqual([
      expect.stringMatching(/ {2}session\.created +msg_one {2}--> 204 \[\d+ ms\]$/),
      expect.stringMatching(/ {2}session\.deleted +msg_two {2}--> 500 \[\d+ ms\]$/),
    ]);
  });

  it("stops at a refused token (401) with the server's message, and refuses a token over plain http to another machine", async () => {
    const api = await serve((_req, res) =>
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "unauthenticated", message: "revoked" })),
    );
    await expect(listen({ api, token: "prl_x", forwardTo: "http://localhost:1/hook", log: () => {} })).rejects.toThrow(
      /refused the listen token: revoked/,
    );
    expect(() => streamUrl("http://results.example.com")).toThrow(/https/);
    expect(streamUrl("https://results.example.com/").href).toBe("https://results.example.com/api/webhooks/listen");
    expect(streamUrl("http://localhost:3000").href).toBe("http://localhost:3000/api/webhooks/listen");
    await expect(listen({ api, token: "prl_x", forwardTo: "http://localhost:1/hook", secret: "whsec_short" })).rejects.toThrow(/--secret/);
  });
});
