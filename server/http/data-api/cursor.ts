import { createHash, createHmac, timingSafeEqual } from "node:crypto";

/**
 * Opaque, tamper-proof list cursors (Data API "Pagination parameters"):
 * base64url(JSON payload) + "." + HMAC-SHA256. The payload binds the cursor to
 * the list (path and filters, as a hash), the subject and the application,
 * and expires after 24 hours. Anything else answers 400 invalid_request.
 */
export const CURSOR_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface CursorBinding {
  /** Request path, e.g. "/api/v1/sessions". */
  path: string;
  /** Every query parameter except cursor and limit, so a cursor cannot be replayed on another filter. */
  filters: Record<string, string>;
  subject: number;
  applicationId: number;
}

interface CursorPayload {
  /** list hash */
  l: string;
  /** subject */
  s: number;
  /** expiry, ms since epoch */
  e: number;
  /** keyset position: the sort values of the last item returned */
  k: (string | number | null)[];
}

export type CursorResult =
  | { ok: true; position: (string | number | null)[] }
  | { ok: false; reason: "malformed" | "signature" | "expired" | "other_list" | "other_subject" };

function listHash(binding: CursorBinding): string {
  const filters = Object.entries(binding.filters).sort(([a], [b]) => a.localeCompare(b));
  return createHash("sha256")
    .update(JSON.stringify([binding.path, filters, binding.applicationId]))
    .digest("base64url")
    .slice(0, 22);
}

const sign = (secret: string, body: string) => createHmac("sha256", secret).update(body).digest("base64url");

export function encodeCursor(secret: string, binding: CursorBinding, position: (string | number | null)[], now = Date.now()): string {
  const payload: CursorPayload = { l: listHash(binding), s: binding.subject, e: now + CURSOR_LIFETIME_MS, k: position };
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${sign(secret, body)}`;
}

export function decodeCursor(secret: string, cursor: string, binding: CursorBinding, now = Date.now()): CursorResult {
  const [body, signature, ...rest] = cursor.split(".");
  if (!body || !signature || rest.length || cursor.length > 2048) return { ok: false, reason: "malformed" };
  const expected = Buffer.from(sign(secret, body));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: "signature" };
  let payload: CursorPayload;
  try {
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (!Array.isArray(payload.k) || typeof payload.e !== "number") return { ok: false, reason: "malformed" };
  if (payload.e <= now) return { ok: false, reason: "expired" };
  if (payload.s !== binding.subject) return { ok: false, reason: "other_subject" };
  if (payload.l !== listHash(binding)) return { ok: false, reason: "other_list" };
  return { ok: true, position: payload.k };
}
