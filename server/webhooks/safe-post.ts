import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * POSTs a webhook to an address the owner typed in, without letting that
 * address reach inside our network (SSRF). The host name is resolved first
 * and every address checked; the connection then goes to the checked
 * address itself (no second lookup a rebinding DNS could answer
 * differently). Redirects are followed by hand, a few at most, each target
 * checked the same way. Only public unicast addresses pass; loopback passes
 * only when the setting allows it (a local run). The response is read up to a
 * small bound and the whole exchange has a deadline.
 */

/** Resolves a host name to its addresses (injected in tests). */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

export interface SafePostOptions {
  resolver?: Resolver;
  allowLoopback: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
  maxRedirects?: number;
}

/** What came back, for the delivery log: the raw headers (name, value pairs) and the first bytes of the body. */
export interface CapturedResponse {
  url: string;
  headers: string[];
  body: Buffer;
  /** The body went on past `maxResponseBytes` (or was still arriving at the deadline). */
  truncated: boolean;
}

export type SafePostResult =
  | { ok: true; status: number; latencyMs: number; response?: CapturedResponse }
  | {
      ok: false;
      status: number | null;
      latencyMs: number;
      error: string;
      blocked?: boolean;
      response?: CapturedResponse;
      /** The error behind a missing response (for server/webhooks/describe-error.ts). */
      cause?: unknown;
    };

const DEFAULTS = { timeoutMs: 15_000, maxResponseBytes: 4 * 1024, maxRedirects: 3 };
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class Blocked extends Error {}

/** No answer in time; `connected` says whether the TCP (and TLS) connection was made. */
export class PostTimeout extends Error {
  constructor(
    readonly timeoutMs: number,
    readonly connected: boolean,
  ) {
    super(`no answer within ${Math.round(timeoutMs / 1000)} s`);
  }
}

/** Why an address may not be called, or null when it may. */
export function addressProblem(address: string, allowLoopback: boolean): string | null {
  if (!ipaddr.isValid(address)) return `not an IP address: ${address}`;
  const range = ipaddr.process(address).range();
  if (range === "unicast") return null;
  if (range === "loopback" && allowLoopback) return null;
  return `${address} is a ${range} address`;
}

/** Checks a URL's scheme and every address its host resolves to; returns the address to connect to. */
export async function checkTarget(
  url: URL,
  options: Pick<SafePostOptions, "resolver" | "allowLoopback">,
): Promise<{ address: string; family: 4 | 6 }> {
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Blocked(`scheme ${url.protocol} is not allowed`);
  if (url.username || url.password) throw new Blocked("credentials in the URL are not allowed");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = ipaddr.isValid(host) ? [host] : await (options.resolver ?? systemResolver)(host);
  if (!addresses.length) throw new Blocked(`${host} has no address`);
  for (const address of addresses) {
    const problem = addressProblem(address, options.allowLoopback);
    if (problem) throw new Blocked(`${host}: ${problem}`);
  }
  const loopbackOnly = addresses.every((a) => ipaddr.process(a).range() === "loopback");
  if (url.protocol === "http:" && !(options.allowLoopback && loopbackOnly))
    throw new Blocked("plain http is allowed to loopback addresses only, in a local run");
  const address = addresses[0];
  return { address, family: ipaddr.process(address).kind() === "ipv6" ? 6 : 4 };
}

export async function safePost(
  rawUrl: string,
  request: { headers: Record<string, string>; body: string },
  options: SafePostOptions,
): Promise<SafePostResult> {
  const settings = {
    ...options,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
    maxRedirects: options.maxRedirects ?? DEFAULTS.maxRedirects,
  };
  const started = performance.now();
  const deadline = Date.now() + settings.timeoutMs;
  const elapsed = () => Math.round(performance.now() - started);
  let url = new URL(rawUrl);
  try {
    for (let hop = 0; ; hop++) {
      const target = await checkTarget(url, settings);
      const status = await postOnce(url, target, request, {
        deadline,
        timeoutMs: settings.timeoutMs,
        maxResponseBytes: settings.maxResponseBytes,
      });
      const response = status.response;
      if (!REDIRECTS.has(status.status) || !status.location) {
        const ok = status.status >= 200 && status.status < 300;
        return ok
          ? { ok, status: status.status, latencyMs: elapsed(), response }
          : { ok, status: status.status, latencyMs: elapsed(), error: `HTTP ${status.status}`, response };
      }
      if (hop >= settings.maxRedirects)
        return { ok: false, status: status.status, latencyMs: elapsed(), error: "too many redirects", response };
      url = new URL(status.location, url);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      status: null,
      latencyMs: elapsed(),
      error: error instanceof Blocked ? `blocked: ${message}` : message,
      blocked: error instanceof Blocked,
      cause: error,
    };
  }
}

function postOnce(
  url: URL,
  target: { address: string; family: 4 | 6 },
  request: { headers: Record<string, string>; body: string },
  limits: { deadline: number; timeoutMs: number; maxResponseBytes: number },
): Promise<{ status: number; location?: string; response: CapturedResponse }> {
  // Connect to the checked address; the Host header and TLS name stay the URL's.
  const lookup: LookupFunction = (_hostname, opts, callback) => {
    if ((opts as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const timeoutMs = Math.max(1, limits.deadline - Date.now());
    const req = client.request(url, {
      method: "POST",
      headers: { ...request.headers, "content-length": Buffer.byteLength(request.body) },
      lookup,
      agent: false,
      timeout: timeoutMs,
    });
    let connected = false;
    req.on("socket", (socket) => socket.once(url.protocol === "https:" ? "secureConnect" : "connect", () => (connected = true)));
    const timedOut = () => req.destroy(new PostTimeout(limits.timeoutMs, connected));
    const timer = setTimeout(timedOut, timeoutMs);
    req.on("timeout", timedOut);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let read = 0;
      let truncated = false;
      let ended = false;
      const done = () => {
        clearTimeout(timer);
        const response = { url: url.toString(), headers: res.rawHeaders, body: Buffer.concat(chunks), truncated: truncated || !ended };
        resolve({
          status: res.statusCode ?? 0,
          location: typeof res.headers.location === "string" ? res.headers.location : undefined,
          response,
        });
      };
      // Keep the first bytes for the delivery log, then stop reading: a huge or endless body costs nothing.
      res.on("data", (chunk: Buffer) => {
        const room = limits.maxResponseBytes - read;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        read += chunk.length;
        if (read > limits.maxResponseBytes) {
          truncated = true;
          res.destroy();
          done();
        }
      });
      res.on("end", () => (ended = true));
      res.on("end", done);
      res.on("error", done);
      res.on("close", done);
    });
    req.end(request.body);
  });
}
