/**
 * Verifying a webhook delivery, per the Standard Webhooks specification
 * (https://www.standardwebhooks.com): the signature is
 * `v1,` + base64(HMAC-SHA256(secret, `${webhook-id}.${webhook-timestamp}.${body}`)),
 * the secret `whsec_` + base64 of its bytes. `webhook-signature` may hold
 * several space-separated signatures (while a secret is rotated both sign);
 * one match is enough. Written on WebCrypto so it runs unchanged in Node,
 * Deno, Bun, edge runtimes and browsers, and `crypto.subtle.verify` compares
 * in constant time.
 */

/** The Standard Webhooks payload shape: `{type, timestamp, data}`. */
export interface WebhookEvent<Data = Record<string, unknown>> {
  type: string;
  timestamp: string;
  data: Data;
}

export type WebhookFailure =
  | "missing_headers"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "invalid_secret"
  | "no_matching_signature"
  | "invalid_payload";

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  constructor(
    readonly reason: WebhookFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface VerifyWebhookOptions {
  /** The endpoint's signing secret (`whsec_…`); several while you roll over to a new one. */
  secret: string | string[];
  /** The request's headers: a `Headers`, or a plain object as Node's `req.headers` gives. */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The raw body, exactly as received: verify before parsing (re-serialized JSON does not match). */
  body: string | Uint8Array | ArrayBuffer;
  /** How far the timestamp may be from now, either way (default 300 s: replays older than that are refused). */
  toleranceSeconds?: number;
  /** For tests: the current time in milliseconds. */
  now?: () => number;
}

export interface VerifiedWebhook<T> {
  /** `webhook-id`: the same on every retry of one event; deduplicate on it. */
  id: string;
  timestamp: Date;
  /** The parsed body. */
  event: T;
}

const SECRET_PREFIX = "whsec_";

function header(headers: VerifyWebhookOptions["headers"], name: string): string | null {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(" ") : (value ?? null);
}

function base64ToBytes(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 === 1) return null;
  const binary = atob(value);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function secretKey(secret: string): Promise<CryptoKey> {
  const bytes = base64ToBytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!bytes || bytes.length === 0)
    throw new WebhookVerificationError("invalid_secret", "The signing secret is not whsec_ followed by base64");
  return crypto.subtle.importKey("raw", bytes as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
}

function bodyBytes(body: VerifyWebhookOptions["body"]): Uint8Array {
  if (typeof body === "string") return new TextEncoder().encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

/**
 * Checks a delivery's signature and timestamp and returns its parsed event;
 * throws a `WebhookVerificationError` (answer 400, or 401, and do not act on
 * it) when anything is wrong:
 *
 *     const { id, event } = await verifyWebhook({ secret: process.env.WEBHOOK_SECRET!, headers: request.headers, body: await request.text() });
 */
export async function verifyWebhook<T = WebhookEvent>(options: VerifyWebhookOptions): Promise<VerifiedWebhook<T>> {
  const id = header(options.headers, "webhook-id");
  const timestamp = header(options.headers, "webhook-timestamp");
  const signatures = header(options.headers, "webhook-signature");
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError("missing_headers", "webhook-id, webhook-timestamp and webhook-signature are required");
  if (!/^\d{1,12}$/.test(timestamp))
    throw new WebhookVerificationError("invalid_timestamp", "webhook-timestamp is not a number of seconds");
  const sentAt = Number(timestamp);
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (sentAt < nowSeconds - tolerance)
    throw new WebhookVerificationError("timestamp_too_old", "The delivery's timestamp is too old (a replay, or a clock far off)");
  if (sentAt > nowSeconds + tolerance) throw new WebhookVerificationError("timestamp_too_new", "The delivery's timestamp is in the future");

  const body = bodyBytes(options.body);
  const prefix = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);

  const candidates = signatures
    .split(" ")
    .filter((s) => s.startsWith("v1,"))
    .map((s) => base64ToBytes(s.slice(3)))
    .filter((s): s is Uint8Array => s !== null);
  let matched = false;
  for (const secret of Array.isArray(options.secret) ? options.secret : [options.secret]) {
    const key = await secretKey(secret);
    for (const signature of candidates) {
      if (await crypto.subtle.verify("HMAC", key, signature as BufferSource, signed as BufferSource)) matched = true;
    }
  }
  if (!matched) throw new WebhookVerificationError("no_matching_signature", "No v1 signature matches the body with this secret");

  let event: T;
  try {
    event = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body)) as T;
  } catch {
    throw new WebhookVerificationError("invalid_payload", "The signed body is not JSON");
  }
  return { id, timestamp: new Date(sentAt * 1000), event };
}
