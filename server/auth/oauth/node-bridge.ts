import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable, Writable } from "node:stream";

/**
 * oidc-provider is a Koa application: it wants Node's (req, res). App Router
 * route handlers get a web Request. This bridge hands the provider a real
 * readable stream of the raw body (it parses the body itself: a pre-parsed
 * body would make it warn and skip its own checks), the path inside the
 * mount with `originalUrl` carrying the mount so its URLs resolve, and a Host
 * and protocol taken from APP_URL, never from the client.
 */
export interface NodeRequestInit {
  method: string;
  /** Path and query as the provider's router sees them, e.g. "/oauth/token". */
  url: string;
  /** The same with the mount in front, e.g. "/api/oauth/token". */
  originalUrl: string;
  headers: Headers;
  body: Buffer | null;
  /** Public origin (APP_URL): its host becomes the Host header, its scheme the connection's. */
  publicOrigin: string;
  /** Client address, when known (a trusted proxy); otherwise undefined. */
  remoteAddress?: string;
}

/** Hop-by-hop and forwarding headers are not passed on: the public origin is configuration. */
const DROPPED_REQUEST_HEADERS = new Set([
  "host",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "x-real-ip",
  "connection",
  "keep-alive",
  "transfer-encoding",
]);

export function toNodeRequest(init: NodeRequestInit): IncomingMessage {
  const origin = new URL(init.publicOrigin);
  const headers: Record<string, string> = {};
  init.headers.forEach((value, name) => {
    if (!DROPPED_REQUEST_HEADERS.has(name)) headers[name] = value;
  });
  headers.host = origin.host;
  if (init.body) headers["content-length"] = String(init.body.length);
  else delete headers["content-length"];
  const stream = Readable.from(init.body ? [init.body] : [], { objectMode: false });
  const socket = { remoteAddress: init.remoteAddress, encrypted: origin.protocol === "https:", writable: true };
  return Object.assign(stream, {
    method: init.method,
    url: init.url,
    originalUrl: init.originalUrl,
    headers,
    rawHeaders: Object.entries(headers).flat(),
    httpVersion: "1.1",
    httpVersionMajor: 1,
    httpVersionMinor: 1,
    socket,
    connection: socket,
  }) as unknown as IncomingMessage;
}

/** Collects what the provider writes: status, headers (every Set-Cookie kept) and body. */
export class CollectingResponse extends Writable {
  statusCode = 200;
  statusMessage = "";
  private readonly headerMap = new Map<string, string | string[]>();
  private readonly chunks: Buffer[] = [];
  private wroteHead = false;
  readonly done: Promise<void>;

  constructor() {
    super();
    this.done = new Promise((resolve, reject) => {
      this.once("finish", () => resolve());
      this.once("error", reject);
    });
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.wroteHead = true;
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
    callback();
  }

  override end(...args: unknown[]): this {
    this.wroteHead = true;
    return super.end(...(args as Parameters<Writable["end"]>));
  }

  get headersSent(): boolean {
    return this.wroteHead;
  }

  setHeader(name: string, value: number | string | readonly string[]): this {
    this.headerMap.set(name.toLowerCase(), Array.isArray(value) ? [...value] : String(value));
    return this;
  }

  appendHeader(name: string, value: string | readonly string[]): this {
    const key = name.toLowerCase();
    const existing = this.headerMap.get(key);
    const added = Array.isArray(value) ? [...value] : [String(value)];
    this.headerMap.set(
      key,
      existing === undefined ? (added.length === 1 ? added[0] : added) : [...(Array.isArray(existing) ? existing : [existing]), ...added],
    );
    return this;
  }

  getHeader(name: string): string | string[] | undefined {
    return this.headerMap.get(name.toLowerCase());
  }

  getHeaders(): Record<string, string | string[]> {
    return Object.fromEntries(this.headerMap);
  }

  getHeaderNames(): string[] {
    return [...this.headerMap.keys()];
  }

  hasHeader(name: string): boolean {
    return this.headerMap.has(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.headerMap.delete(name.toLowerCase());
  }

  writeHead(statusCode: number, ...rest: unknown[]): this {
    this.statusCode = statusCode;
    const headers = rest.find((r) => r && typeof r === "object") as Record<string, string | string[]> | undefined;
    for (const [name, value] of Object.entries(headers ?? {})) this.setHeader(name, value);
    this.wroteHead = true;
    return this;
  }

  flushHeaders(): void {
    this.wroteHead = true;
  }

  /** The collected response as a web Response (status, every header, every Set-Cookie, body). */
  toResponse(method: string): Response {
    const headers = new Headers();
    for (const [name, value] of this.headerMap) {
      // Lengths and framing are the runtime's business once the body is a Buffer.
      if (name === "content-length" || name === "transfer-encoding" || name === "connection") continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
    const noBody = method === "HEAD" || this.statusCode === 204 || this.statusCode === 304;
    const body = noBody ? null : Buffer.concat(this.chunks);
    return new Response(body, { status: this.statusCode, statusText: this.statusMessage || undefined, headers });
  }
}

export function asNodeResponse(response: CollectingResponse): ServerResponse {
  return response as unknown as ServerResponse;
}
