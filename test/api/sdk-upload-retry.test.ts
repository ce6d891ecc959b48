import http from "node:http";
import type { AddressInfo } from "node:net";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatedSvc } from "@/e2e/svc-files";
import { results } from "@/server/db/schema";
import { createResultsApiClient, isPaddleApiError, uploadResult } from "@/packages/sdk/src/index";
import { apiHarness } from "./harness";
import { personWithKey, send, type Person } from "./results-client";

/** A database of the file's own (test/api/harness). */
const harness = apiHarness();

/**
 * The SDK's upload retries (docs/sdk.md "Uploads retry with one key")
 * against a real local HTTP server in front of the real POST /results route:
 * the server can lose an answer after the upload committed (the connection
 * is destroyed), answer 503 with Retry-After before reaching the route, or
 * refuse outright. Waits are recorded, not slept.
 */
type Fault = "lose-answer" | "busy" | "bad-request" | "pass";
let faults: Fault[] = [];
const seen: { key: string | null; fault: Fault }[] = [];
let server: http.Server;
let baseUrl: string;
let coach: Person;
let trackId: number;
let athleteId: number;

beforeAll(async () => {
  coach = await personWithKey("sdk-retry");
  trackId = await coach.track("Retry basin");
  athleteId = await coach.athlete({ name: "Ana", subscriptionActiveUntil: "2099-12-31" });
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const fault = faults.shift() ?? "pass";
      seen.push({ key: (req.headers["idempotency-key"] as string | undefined) ?? null, fault });
      if (fault === "busy") {
        res.writeHead(503, { "content-type": "application/json", "retry-after": "2" });
        return res.end(JSON.stringify({ error: "service_unavailable", message: "Try again shortly." }));
      }
      if (fault === "bad-request") {
        res.writeHead(400, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: "invalid", message: "metadata: not JSON" }));
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      headers.set("x-forwarded-proto", "https");
      const answer = await send(
        new Request(`http://localhost:3000${req.url}`, { method: req.method, headers, body: new Uint8Array(Buffer.concat(chunks)) }),
      );
      // The upload committed; its answer never reaches the client.
      if (fault === "lose-answer") return req.socket.destroy();
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const client = () => createResultsApiClient({ baseUrl, publicKey: coach.key.publicKey, secretKey: coach.key.secretKey });
const metadata = () => ({ distance: 200, vessel_id: 1, track_id: trackId, category_id: 1, pace_id: 1, athletes: [athleteId] });
const stored = async () => (await harness.db.select({ n: count() }).from(results).where(eq(results.ownerUserId, coach.userId)))[0].n;
let seed = 9400;

describe("SDK uploadResult: one key, bounded retries", () => {
  it("a lost answer and a 503 are retried with the same key: the file is stored once and its result returned", async () => {
    faults = ["lose-answer", "busy", "pass"];
    seen.length = 0;
    const waits: number[] = [];
    const before = await stored();
    const uploaded = await uploadResult(client(), {
      file: simulatedSvc({ vessel: "K1", distanceM: 200, seed: ++seed }),
      filename: "k1.svc",
      metadata: metadata(),
      retry: { sleep: async (ms) => void waits.push(ms), random: () => 1 },
    });
    expect(seen.map((s) => s.fault)).toEqual(["lose-answer", "busy", "pass"]);
    const keys = new Set(seen.map((s) => s.key));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f]{32}$/);
    expect(await stored()).toBe(before + 1);
    const [row] = await harness.db.select({ id: results.id }).from(results).where(eq(results.ownerUserId, coach.userId));
    expect(uploaded.data.id).toBe(row.id);
    // Exponential backoff (500 ms, then 1 s), never less than the 503's Retry-After (2 s).
    expect(waits).toEqual([500, 2000]);
  });

  it("the caller's key is the one sent; a 4xx is thrown at once, never retried", async () => {
    faults = ["bad-request"];
    seen.length = 0;
    const error = await uploadResult(client(), {
      file: simulatedSvc({ vessel: "K1", distanceM: 200, seed: ++seed }),
      metadata: metadata(),
      idempotencyKey: "my-key-1",
      retry: { sleep: async () => {} },
    }).catch((e: unknown) => e);
    expect(isPaddleApiError(error, "invalid")).toBe(true);
    expect(seen).toEqual([{ key: "my-key-1", fault: "bad-request" }]);
  });

  it("gives up after maxRetries, or before the total wait would pass its cap, with the last error", async () => {
    faults = ["busy", "busy", "busy", "busy", "busy"];
    seen.length = 0;
    const waits: number[] = [];
    const error = await uploadResult(client(), {
      file: simulatedSvc({ vessel: "K1", distanceM: 200, seed: ++seed }),
      metadata: metadata(),
      retry: { maxRetries: 3, sleep: async (ms) => void waits.push(ms), random: () => 0 },
    }).catch((e: unknown) => e);
    expect(isPaddleApiError(error) && error.status === 503 && error.retryAfterSeconds === 2).toBe(true);
    expect(seen).toHaveLength(4);
    expect(waits).toEqual([2000, 2000, 2000]);

    faults = ["busy", "busy", "busy", "busy"];
    seen.length = 0;
    await uploadResult(client(), {
      file: simulatedSvc({ vessel: "K1", distanceM: 200, seed: ++seed }),
      metadata: metadata(),
      retry: { maxTotalWaitMs: 5_000, sleep: async () => {} },
    }).catch((e: unknown) => e);
    // 2 s + 2 s waited; a third 2 s would pass 5 s.
    expect(seen).toHaveLength(3);
    faults = [];
  });
});
