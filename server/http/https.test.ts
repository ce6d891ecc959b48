import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { isHttpsRequest, uploadTransportAllowed } from "./https";
import { isLoopbackAddress, isLoopbackOrigin } from "../net/loopback";
import { installPeerAddressStamp, PEER_ADDRESS_HEADER } from "../net/peer-address";

/** The results API's upload rule (issue 21): HTTPS, or ALLOW_HTTP_LOOPBACK=1 and a loopback peer. */
const upload = (headers: Record<string, string>, url = "http://localhost:3000/api/v1/results") =>
  new Request(url, { method: "POST", headers });
const local = { TRUST_PROXY: false, ALLOW_HTTP_LOOPBACK: true };

describe("uploadTransportAllowed", () => {
  it("accepts plain HTTP from a loopback connection only with ALLOW_HTTP_LOOPBACK", () => {
    for (const peer of ["127.0.0.1", "::1", "::ffff:127.0.0.1", "127.9.8.7"]) {
      expect(uploadTransportAllowed(upload({ [PEER_ADDRESS_HEADER]: peer }), local), peer).toBe(true);
      expect(uploadTransportAllowed(upload({ [PEER_ADDRESS_HEADER]: peer }), { ...local, ALLOW_HTTP_LOOPBACK: false }), peer).toBe(false);
    }
  });

  it("keeps the 403 for any other address, and for an address the client merely claims", () => {
    for (const peer of ["192.168.1.20", "10.0.0.1", "::ffff:10.0.0.1", "fe80::1", "", "128.0.0.1", "127.0.0.256"]) {
      expect(uploadTransportAllowed(upload({ [PEER_ADDRESS_HEADER]: peer }), local), peer).toBe(false);
    }
    // Next.js keeps a client's own X-Forwarded-For: without the trusted proxy it proves nothing.
    expect(uploadTransportAllowed(upload({ "x-forwarded-for": "127.0.0.1", "x-forwarded-proto": "https" }), local)).toBe(false);
  });

  it("behind the trusted proxy, believes the address the proxy appended", () => {
    const proxied = { TRUST_PROXY: true, ALLOW_HTTP_LOOPBACK: true };
    expect(uploadTransportAllowed(upload({ "x-forwarded-for": "203.0.113.9, 127.0.0.1", "x-forwarded-proto": "http" }), proxied)).toBe(
      true,
    );
    expect(
      uploadTransportAllowed(
        upload({ "x-forwarded-for": "127.0.0.1, 203.0.113.9", "x-forwarded-proto": "http", [PEER_ADDRESS_HEADER]: "127.0.0.1" }),
        proxied,
      ),
    ).toBe(false);
    expect(uploadTransportAllowed(upload({ "x-forwarded-for": "203.0.113.9", "x-forwarded-proto": "https" }), proxied)).toBe(true);
  });
});

describe("the peer-address stamp", () => {
  it("replaces whatever the client sent with the socket's own address", async () => {
    installPeerAddressStamp();
    const server = createServer((req, res) => res.end(String(req.headers[PEER_ADDRESS_HEADER])));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
        headers: { [PEER_ADDRESS_HEADER]: "203.0.113.9" },
      });
      const seen = await response.text();
      expect(seen).not.toBe("203.0.113.9");
      expect(isLoopbackAddress(seen)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("loopback origins", () => {
  it("are localhost, 127.0.0.0/8 and [::1]", () => {
    for (const url of ["http://localhost:3000", "http://127.0.0.1:3000", "http://[::1]:3000", "https://localhost"])
      expect(isLoopbackOrigin(url), url).toBe(true);
    for (const url of [
      "https://results.example.com",
      "http://192.168.1.2:3000",
      "http://localhost.example.com",
      "http://0.0.0.0:3000",
      "ftp://localhost",
    ])
      expect(isLoopbackOrigin(url), url).toBe(false);
  });
});

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
