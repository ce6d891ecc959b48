import type { Db } from "../db/client";
import { webhookAttempts, type HeaderPair } from "../db/schema";
import { describeFailure } from "./describe-error";
import type { SafePostResult } from "./safe-post";

/**
 * The delivery log (docs/webhooks.md "The delivery log"): every attempt is
 * kept with the request as sent and what came back. Whatever a receiver
 * answers is stored safely: the body is cut to 4 KiB, kept as text only when
 * it is valid UTF-8 without NUL (Postgres text cannot hold NUL) and as base64
 * otherwise; headers are bounded in number and size and cleaned of NUL.
 */
export const KEPT_BODY_BYTES = 4 * 1024;
const MAX_HEADERS = 100;
const MAX_HEADER_NAME = 256;
const MAX_HEADER_VALUE = 2048;
const MAX_HEADER_BYTES = 16 * 1024;

export interface SentRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Text safe for a Postgres text or jsonb string: no NUL, no unpaired surrogate. */
export function safeText(value: string, max = Infinity): string {
  const cleaned = value.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
  return cleaned.length > max ? `${cleaned.slice(0, max)}…` : cleaned;
}

/** Header pairs from Node's rawHeaders (name, value, name, value …), bounded and cleaned. */
export function safeHeaders(raw: string[]): HeaderPair[] {
  const pairs: HeaderPair[] = [];
  let bytes = 0;
  for (let i = 0; i + 1 < raw.length && pairs.length < MAX_HEADERS; i += 2) {
    const pair: HeaderPair = [safeText(raw[i], MAX_HEADER_NAME), safeText(raw[i + 1], MAX_HEADER_VALUE)];
    bytes += pair[0].length + pair[1].length;
    if (bytes > MAX_HEADER_BYTES) break;
    pairs.push(pair);
  }
  return pairs;
}

/** The kept body: text when the bytes are UTF-8 (a character cut at the 4 KiB edge is dropped) without NUL, else base64. */
export function safeBody(bytes: Buffer): { kind: "text" | "binary"; body: string } {
  const kept = bytes.subarray(0, KEPT_BODY_BYTES);
  try {
    // stream: an incomplete sequence at the end (a character the cut split) is held back, not an error.
    const text = new TextDecoder("utf-8", { fatal: true }).decode(kept, { stream: true });
    if (!text.includes("\u0000")) return { kind: "text", body: text };
  } catch {
    // not UTF-8
  }
  return { kind: "binary", body: kept.toString("base64") };
}

/** Records one attempt (in the caller's transaction: the delivery's outcome and its attempt commit together). */
export async function recordAttempt(
  tx: Db,
  input: { deliveryId: number; attemptNumber: number; startedAt: Date; request: SentRequest; result: SafePostResult },
): Promise<void> {
  const { request, result } = input;
  const response = result.response;
  const body = response ? safeBody(response.body) : null;
  const failure = result.ok ? null : describeFailure(result, request.url);
  await tx.insert(webhookAttempts).values({
    deliveryId: input.deliveryId,
    attemptNumber: input.attemptNumber,
    startedAt: input.startedAt,
    durationMs: Math.max(0, Math.round(result.latencyMs)),
    requestUrl: safeText(request.url, 2000),
    // As sent: safePost adds the content-length.
    requestHeaders: [
      ...Object.entries(request.headers).map(([name, value]): HeaderPair => [name, safeText(value, MAX_HEADER_VALUE)]),
      ["content-length", String(Buffer.byteLength(request.body))],
    ],
    requestBody: safeText(request.body),
    finalUrl: response && response.url !== request.url ? safeText(response.url, 2000) : null,
    responseStatus: result.status,
    responseHeaders: response ? safeHeaders(response.headers) : null,
    responseBody: body?.body ?? null,
    responseBodyKind: body?.kind ?? null,
    responseBodyTruncated: response?.truncated ?? false,
    errorCode: failure?.code ?? null,
    error: failure ? safeText(failure.words, 1000) : null,
    errorDetail: failure ? safeText(failure.detail, 1000) : null,
  });
}
