import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/**
 * A webhook consumer on loopback for tests: records every request and
 * answers what `respond` says (a status, or "hang" to never answer).
 */
export async function startReceiver(
  respond: (request: ReceivedWebhook, index: number) => number | "hang" | { redirect: string } = () => 204,
) {
  const received: ReceivedWebhook[] = [];
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(request);
      waiters.splice(0).forEach((w) => w());
      const answer = respond(request, received.length - 1);
      if (answer === "hang") return;
      if (typeof answer === "object") {
        res.writeHead(302, { location: answer.redirect }).end();
        return;
      }
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Resolves once `count` requests have arrived. */
    async waitFor(count: number, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${received.length} of ${count} webhooks arrived`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
