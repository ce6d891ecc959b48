import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { safePost, type Resolver } from "./safe-post";
import { startReceiver } from "../../test/support/webhook-receiver";

/**
 * SSRF: nothing reaches loopback, private or link-local addresses in a
 * deployment, checked after resolution and on every redirect. The resolver
 * is injected, so "a name that resolves to 10.0.0.1" needs no DNS.
 */
const resolver: Resolver = async (host) => {
  const table: Record<string, string[]> = {
    "internal.example": ["10.0.0.1"],
    "mixed.example": ["93.184.216.34", "192.168.1.5"],
    "metadata.example": ["169.254.169.254"],
    "v6-local.example": ["fe80::1"],
    "loop.example": ["127.0.0.1"],
  };
  if (!table[host]) throw new Error(`ENOTFOUND ${host}`);
  return table[host];
};
const post = (url: string, allowLoopback = false) =>
  safePost(url, { headers: { "content-type": "application/json" }, body: "{}" }, { resolver, allowLoopback, timeoutMs: 3000 });

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver((request) => {
    const target = new URL(request.headers["x-test-redirect"] ?? "http://none.invalid/");
    return request.headers["x-test-redirect"] ? { redirect: target.toString() } : 204;
  });
});
afterAll(() => receiver.close());

describe("safePost", () => {
  it("refuses loopback in a deployment, and link-local and private addresses always", async () => {
    for (const [url, range] of [
      ["https://127.0.0.1/hook", "loopback"],
      ["https://[::1]/hook", "loopback"],
      ["http://169.254.169.254/latest/meta-data", "linkLocal"],
      ["https://internal.example/hook", "private"],
      ["https://mixed.example/hook", "private"],
      ["https://metadata.example/hook", "linkLocal"],
      ["https://v6-local.example/hook", "linkLocal"],
      ["https://loop.example/hook", "loopback"],
      ["https://0.0.0.0/hook", "unspecified"],
    ] as const) {
      const result = await post(url);
      expect(result, url).toMatchObject({ ok: false, blocked: true, status: null });
      expect(!result.ok && result.error, url).toContain(range);
    }
    // Even where loopback is allowed, private and link-local are not.
    expect(await post("https://internal.example/hook", true)).toMatchObject({ ok: false, blocked: true });
    expect(await post("http://169.254.169.254/", true)).toMatchObject({ ok: false, blocked: true });
  });

  it("delivers to loopback only when a local run allows it", async () => {
    expect(await post(receiver.url, true)).toMatchObject({ ok: true, status: 204 });
    expect(await post(receiver.url, false)).toMatchObject({ ok: false, blocked: true });
  });

  it("checks every redirect: a 302 to a private, link-local or loopback-by-name target is refused", async () => {
    const before = receiver.received.length;
    for (const target of ["http://169.254.169.254/latest/meta-data", "https://internal.example/hook", "http://10.0.0.1/"]) {
      const result = await safePost(
        receiver.url,
        { headers: { "x-test-redirect": target }, body: "{}" },
        { resolver, allowLoopback: true, timeoutMs: 3000 },
      );
      expect(result, target).toMatchObject({ ok: false, blocked: true });
    }
    expect(receiver.received.length - before).toBe(3); // the first hop only, each time
  });

  it("gives up on an endpoint that never answers, and reads a huge response only up to a bound", async () => {
    const slow = await startReceiver(() => "hang");
    try {
      const started = Date.now();
      const result = await safePost(slow.url, { headers: {}, body: "{}" }, { allowLoopback: true, timeoutMs: 500 });
      expect(result).toMatchObject({ ok: false, status: null });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await slow.close();
    }
    const http = await import("node:http");
    const server = http.createServer((_req, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (res.write(chunk));
        res.once("drain", pump);
      };
      pump(); // an endless body
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      expect(
        await safePost(`http://127.0.0.1:${port}/`, { headers: {}, body: "{}" }, { allowLoopback: true, timeoutMs: 5000 }),
      ).toMatchObject({ ok: true, status: 200 });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
