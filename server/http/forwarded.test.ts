import { describe, expect, it } from "vitest";
import { clientIp } from "../net/client-ip";
import { isHttpsRequest } from "./https";

/**
 * One trusted proxy (TRUST_PROXY=1): only the value it appended, the last of
 * each X-Forwarded-* list, is believed (issue 14, defect 9).
 */
const request = (url: string, headers: Record<string, string>) => new Request(url, { headers });

describe("isHttpsRequest", () => {
  it("believes the last X-Forwarded-Proto value behind the trusted proxy", () => {
    expect(isHttpsRequest(request("http://app.internal/api/v1/results", { "x-forwarded-proto": "https" }), true)).toBe(true);
    expect(isHttpsRequest(request("http://app.internal/api/v1/results", { "x-forwarded-proto": "http, https" }), true)).toBe(true);
    expect(isHttpsRequest(request("http://app.internal/api/v1/results", { "x-forwarded-proto": "HTTPS" }), true)).toBe(true);
  });

  it("takes `https, http` as http: the client wrote the first value, the proxy the second", () => {
    expect(isHttpsRequest(request("http://app.internal/api/v1/results", { "x-forwarded-proto": "https, http" }), true)).toBe(false);
    expect(isHttpsRequest(request("http://app.internal/api/v1/results", { "x-forwarded-proto": "https,http" }), true)).toBe(false);
    expect(isHttpsRequest(request("http://app.internal/api/v1/results", { "x-forwarded-proto": "https, " }), true)).toBe(true);
    expect(isHttpsRequest(request("http://app.internal/api/v1/results", { "x-forwarded-proto": "" }), true)).toBe(false);
  });

  it("ignores the header without a trusted proxy, and trusts a direct TLS connection without it", () => {
    expect(isHttpsRequest(request("http://app.internal/api/v1/results", { "x-forwarded-proto": "https" }), false)).toBe(false);
    expect(isHttpsRequest(request("https://results.example/api/v1/results", {}), false)).toBe(true);
  });
});

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
