/**
 * `paddle-results listen` (docs/webhooks.md "Local development"): streams an
 * application's webhook events from the server (Server-Sent Events at
 * `/api/webhooks/listen`, authenticated with a listen token) and posts each
 * one to a local URL, signed as a real delivery is (Standard Webhooks:
 * `webhook-id`, `webhook-timestamp`, `webhook-signature`) with a secret this
 * run prints once. Outbound connections only: nothing has to reach the
 * developer's machine. Node only (node:crypto, fetch); no dependency.
 */
import { createHmac, randomBytes } from "node:crypto";

export interface ListenOptions {
  /** The server's origin, e.g. https://results.example.com. */
  api: string;
  /** A listen token (`prl_…`) made on the application's portal page. */
  token: string;
  /** Where each event is posted, e.g. http://localhost:8790/hook. */
  forwardTo: string;
  /** The signing secret (`whsec_…`); a new one per run when absent. */
  secret?: string;
  /** Only these event types are forwarded (all when absent). */
  events?: string[];
  /** Timeout of one local POST (default 15 s, as a real delivery). */
  timeoutMs?: number;
  /** Where lines go (default: stdout / stderr). */
  log?: (line: string) => void;
  error?: (line: string) => void;
  /** Stops the loop (Ctrl+C). */
  signal?: AbortSignal;
}

export class ListenError extends Error {
  override readonly name = "ListenError";
}

export interface ForwardedEvent {
  id: string;
  type: string;
  status: number | null;
  ms: number;
  error?: string;
}

const SECRET_PREFIX = "whsec_";

export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`, keyed with the secret's bytes. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
}

function checkSecret(secret: string): string {
  const bytes = secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), "base64") : null;
  if (!bytes || bytes.length < 16 || !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret))
    throw new ListenError("--secret must be whsec_ followed by the base64 of at least 16 bytes");
  return secret;
}

const isLoopbackHost = (host: string) => host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The stream's URL; the token travels over HTTPS, or plain HTTP to this machine only. */
export function streamUrl(api: string): URL {
  const origin = URL.parse(api);
  if (!origin || (origin.protocol !== "https:" && origin.protocol !== "http:"))
    throw new ListenError(`--api must be the server's origin, such as https://results.example.com (got ${api})`);
  if (origin.protocol === "http:" && !isLoopbackHost(origin.hostname))
    throw new ListenError(
      "--api must use https:// (plain http:// only to a server on this machine): the listen token must not travel in clear",
    );
  return new URL("/api/webhooks/listen", origin);
}

/** Posts one event to the local URL, signed; never throws (a refused connection is a line, not a crash). */
export async function forwardEvent(
  options: Pick<ListenOptions, "forwardTo" | "timeoutMs">,
  secret: string,
  event: { id: string; type: string; body: string },
): Promise<ForwardedEvent> {
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  try {
    const response = await fetch(options.forwardTo, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "PaddleResults-Webhooks/1 (listen)",
        "webhook-id": event.id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signature(secret, event.id, timestamp, event.body),
      },
      body: event.body,
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
    });
    await response.arrayBuffer().catch(() => undefined);
    return { id: event.id, type: event.type, status: response.status, ms: Math.round(performance.now() - started) };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = (error as Error).name === "TimeoutError" ? "timed out" : (cause?.code ?? cause?.message ?? (error as Error).message);
    return { id: event.id, type: event.type, status: null, ms: Math.round(performance.now() - started), error: reason };
  }
}

/** One line per event: time, type, id, the local answer and how long it took. */
export function eventLine(result: ForwardedEvent, at = new Date()): string {
  const time = at.toISOString().replace("T", " ").slice(0, 19);
  const answer = result.status === null ? `error: ${result.error}` : String(result.status);
  return `${time}  ${result.type.padEnd(22)} ${result.id}  --> ${answer} [${result.ms} ms]`;
}

interface SseEvent {
  id: string;
  event: string;
  data: string;
}

/** Server-Sent Events from a byte stream (the WHATWG parsing rules, minus what this server never sends). */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let current = { id: "", event: "", data: [] as string[] };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith("\r\n", newline) ? 2 : 1));
      if (line === "") {
        if (current.data.length || current.event)
          yield { id: current.id, event: current.event || "message", data: current.data.join("\n") };
        current = { id: "", event: "", data: [] };
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id") current.id = value;
      else if (field === "event") current.event = value;
      else if (field === "data") current.data.push(value);
    }
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Connects, forwards, reconnects (1 s doubling to 30 s, with the last event's
 * id as `Last-Event-ID` so nothing is missed or repeated) until `signal`
 * aborts. A refused token (401) or a revoked one ends it with a ListenError.
 */
export async function listen(options: ListenOptions): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  const error = options.error ?? ((line: string) => console.error(line));
  const url = streamUrl(options.api);
  const forwardTo = URL.parse(options.forwardTo);
  if (!forwardTo || (forwardTo.protocol !== "http:" && forwardTo.protocol !== "https:"))
    throw new ListenError(`--forward-to must be an http(s) URL such as http://localhost:8790/hook (got ${options.forwardTo})`);
  if (!options.token.startsWith("prl_")) throw new ListenError("--token must be a listen token (prl_…) from the application's portal page");
  const secret = options.secret ? checkSecret(options.secret) : newSigningSecret();
  const only = options.events?.length ? new Set(options.events) : null;

  let lastEventId: string | undefined;
  let backoffMs = 1_000;
  let announced = false;
  while (!options.signal?.aborted) {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: {
          accept: "text/event-stream",
          authorization: `Bearer ${options.token}`,
          ...(lastEventId ? { "last-event-id": lastEventId } : {}),
        },
        signal: options.signal,
      });
    } catch (e) {
      if (options.signal?.aborted) return;
      error(
        `Cannot reach ${url.origin} (${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message}); retrying in ${backoffMs / 1000} s`,
      );
      await sleep(backoffMs, options.signal);
      backoffMs = Math.min(backoffMs * 2, 30_000);
      continue;
    }
    if (response.status === 401) {
      const body = (await response.json().catch(() => null)) as { message?: string } | null;
      throw new ListenError(
        `The server refused the listen token: ${body?.message ?? "401"}. Make a new one on the application's portal page.`,
      );
    }
    if (!response.ok || !response.body) {
      error(`The server answered ${response.status}; retrying in ${backoffMs / 1000} s`);
      await response.body?.cancel().catch(() => undefined);
      await sleep(backoffMs, options.signal);
      backoffMs = Math.min(backoffMs * 2, 30_000);
      continue;
    }
    backoffMs = 1_000;
    if (!announced) {
      log(`Ready! Forwarding the application's events from ${url.origin} to ${forwardTo.href}`);
      log(`Your webhook signing secret is ${secret} (shown once; pass it with --secret to keep it across runs)`);
      announced = true;
    } else log(`Reconnected to ${url.origin}`);
    try {
      for await (const event of readEvents(response.body)) {
        if (event.event === "revoked") throw new ListenError("The listen token was revoked on the portal; the stream has ended.");
        if (!event.id) continue;
        lastEventId = event.id;
        if (only && !only.has(event.event)) continue;
        const result = await forwardEvent(options, secret, { id: event.id, type: event.event, body: event.data });
        log(eventLine(result));
      }
    } catch (e) {
      if (e instanceof ListenError) throw e;
      if (options.signal?.aborted) return;
    }
    if (options.signal?.aborted) return;
    error(`The connection to ${url.origin} ended; reconnecting`);
    await sleep(250, options.signal);
  }
}
