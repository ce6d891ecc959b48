import { describe, expect, it } from "vitest";
import { clientIp } from "./client-ip";

/**
 * One trusted proxy (TRUST_PROXY=1): only the value it appended, the last of
 * the X-Forwarded-For list, is believed (issue 14, defect 9).
 */
describe("clientIp", () => {
  it("is the address the trusted proxy appended, the last X-Forwarded-For entry", () => {
    expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.9" }), true)).toBe("203.0.113.9");
    expect(clientIp(new Headers({ "x-forwarded-for": "198.51.100.1, 203.0.113.9" }), true)).toBe("203.0.113.9");
    expect(clientIp(new Headers({ "x-forwarded-for": "198.51.100.1,203.0.113.9 ," }), true)).toBe("203.0.113.9");
  });

  it("is unknown without a trusted proxy, without the header, or when the value is absurdly long", () => {
    expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.9" }), false)).toBeUndefined();
    expect(clientIp(new Headers({}), true)).toBeUndefined();
    expect(clientIp(new Headers({ "x-forwarded-for": "a".repeat(65) }), true)).toBeUndefined();
  });
});
