import { describe, expect, it } from "vitest";
import { CURSOR_LIFETIME_MS, decodeCursor, encodeCursor, type CursorBinding } from "./cursor";

const secret = "test-secret-of-enough-length-000000";
const binding: CursorBinding = { path: "/api/v1/sessions", filters: { sort: "date", order: "desc" }, subject: 7, applicationId: 3 };
const now = Date.parse("2026-06-01T10:00:00Z");

describe("cursors", () => {
  it("round-trip the keyset position for the same list, subject and application", () => {
    const cursor = encodeCursor(secret, binding, ["2026-05-01T10:00:00.000Z", 42], now);
    expect(decodeCursor(secret, cursor, { ...binding, filters: { order: "desc", sort: "date" } }, now + 1000)).toEqual({
      ok: true,
      position: ["2026-05-01T10:00:00.000Z", 42],
    });
  });

  it("reject a tampered payload or signature", () => {
    const cursor = encodeCursor(secret, binding, [10, 42], now);
    const [body, signature] = cursor.split(".");
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, "base64url").toString()), k: [10, 1] })).toString(
      "base64url",
    );
    expect(decodeCursor(secret, `${forged}.${signature}`, binding, now)).toEqual({ ok: false, reason: "signature" });
    expect(decodeCursor(secret, `${body}.${signature.slice(0, -2)}xx`, binding, now)).toEqual({ ok: false, reason: "signature" });
    expect(decodeCursor("another-secret-0000000000000000000", cursor, binding, now)).toEqual({ ok: false, reason: "signature" });
    expect(decodeCursor(secret, "garbage", binding, now)).toEqual({ ok: false, reason: "malformed" });
  });

  it("are bound to the list, its filters, the application and the subject", () => {
    const cursor = encodeCursor(secret, binding, [1], now);
    expect(decodeCursor(secret, cursor, { ...binding, path: "/api/v1/trainings" }, now)).toEqual({ ok: false, reason: "other_list" });
    expect(decodeCursor(secret, cursor, { ...binding, filters: { sort: "distance", order: "desc" } }, now)).toEqual({
      ok: false,
      reason: "other_list",
    });
    expect(decodeCursor(secret, cursor, { ...binding, applicationId: 4 }, now)).toEqual({ ok: false, reason: "other_list" });
    expect(decodeCursor(secret, cursor, { ...binding, subject: 8 }, now)).toEqual({ ok: false, reason: "other_subject" });
  });

  it("expire after 24 hours", () => {
    const cursor = encodeCursor(secret, binding, [1], now);
    expect(decodeCursor(secret, cursor, binding, now + CURSOR_LIFETIME_MS - 1).ok).toBe(true);
    expect(decodeCursor(secret, cursor, binding, now + CURSOR_LIFETIME_MS)).toEqual({ ok: false, reason: "expired" });
  });
});
