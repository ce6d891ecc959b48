import { describe, expect, it } from "vitest";
import { safeBody, safeHeaders, safeText } from "./attempt-log";
import { describeFailure } from "./describe-error";
import { PostTimeout, type SafePostResult } from "./safe-post";

type Failure = Extract<SafePostResult, { ok: false }>;
const nodeError = (message: string, code: string) => Object.assign(new Error(message), { code });
const noResponse = (cause: unknown, extra: Partial<Failure> = {}): Failure => ({
  ok: false,
  status: null,
  latencyMs: 12,
  error: cause instanceof Error ? cause.message : String(cause),
  cause,
  ...extra,
});
const URL_ = "https://hooks.example.com:8443/in";

describe("a failed attempt in words", () => {
  it("names the host DNS could not find, and keeps the runtime's message as the detail", () => {
    const failure = describeFailure(noResponse(nodeError("getaddrinfo ENOTFOUND hooks.example.com", "ENOTFOUND")), URL_);
    expect(failure).toEqual({
      code: "dns_not_found",
      words: expect.stringMatching(/^The host hooks\.example\.com could not be found \(DNS: ENOTFOUND\)/),
      detail: "getaddrinfo ENOTFOUND hooks.example.com",
    });
    // An injected resolver's plain error naming the code reads the same.
    expect(describeFailure(noResponse(new Error("ENOTFOUND hooks.example.com")), URL_).code).toBe("dns_not_found");
    expect(describeFailure(noResponse(nodeError("getaddrinfo EAI_AGAIN x", "EAI_AGAIN")), URL_).words).toMatch(/temporary DNS failure/);
  });

  it("refused, reset and unreachable connections", () => {
    expect(describeFailure(noResponse(nodeError("connect ECONNREFUSED 1.2.3.4:8443", "ECONNREFUSED")), URL_).words).toBe(
      "The connection to hooks.example.com:8443 was refused: nothing accepts connections on that port (ECONNREFUSED)",
    );
    expect(describeFailure(noResponse(nodeError("socket hang up", "ECONNRESET")), URL_)).toMatchObject({
      code: "connection_reset",
      words: expect.stringMatching(/closed by the other side before a response arrived \(ECONNRESET\)/),
    });
    expect(describeFailure(noResponse(nodeError("connect EHOSTUNREACH", "EHOSTUNREACH")), URL_).code).toBe("unreachable");
  });

  it("timeouts say which limit and whether the connection was made", () => {
    expect(describeFailure(noResponse(new PostTimeout(15_000, true)), URL_).words).toBe(
      "The endpoint accepted the connection but sent no response within 15 s (the time limit for an attempt).",
    );
    expect(describeFailure(noResponse(new PostTimeout(2_500, false)), URL_).words).toBe(
      "Could not connect to hooks.example.com:8443 within 2.5 s.",
    );
  });

  it("TLS certificate problems", () => {
    for (const [code, words] of [
      ["CERT_HAS_EXPIRED", "has expired"],
      ["DEPTH_ZERO_SELF_SIGNED_CERT", "is self-signed"],
      ["ERR_TLS_CERT_ALTNAME_INVALID", "is for another host name"],
      ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "intermediate certificates are missing"],
      ["ERR_SSL_SOMETHING_NEW", "secure connection to hooks.example.com failed"],
    ]) {
      const failure = describeFailure(noResponse(nodeError(code, code)), URL_);
      expect(failure.code, code).toBe("tls");
      expect(failure.words, code).toContain(words);
      expect(failure.words, code).toContain(`(${code})`);
    }
  });

  it("SSRF refusals say why; answers that are not 2xx give their status; unknown errors keep their message", () => {
    expect(
      describeFailure(
        noResponse(new Error("internal.example: 10.0.0.1 is a private address"), {
          blocked: true,
          error: "blocked: internal.example: 10.0.0.1 is a private address",
        }),
        URL_,
      ).words,
    ).toBe(
      "Not sent: internal.example: 10.0.0.1 is a private address. Webhooks go only to public addresses (protection against requests into private networks).",
    );
    expect(describeFailure({ ok: false, status: 503, latencyMs: 3, error: "HTTP 503" }, URL_)).toEqual({
      code: "http_status",
      words: "The endpoint answered 503 Service Unavailable; only a 2xx status counts as delivered.",
      detail: "HTTP 503",
    });
    expect(describeFailure({ ok: false, status: 302, latencyMs: 3, error: "too many redirects" }, URL_).code).toBe("too_many_redirects");
    expect(describeFailure(noResponse(nodeError("Parse Error: Header overflow", "HPE_HEADER_OVERFLOW")), URL_).words).toMatch(
      /headers were larger than 16 KB/,
    );
    expect(describeFailure(noResponse(new Error("something odd")), URL_)).toEqual({
      code: "no_response",
      words: "No response: something odd",
      detail: "something odd",
    });
  });
});

describe("hostile responses are stored safely", () => {
  it("a body is text only when it is UTF-8 without NUL, else base64; a character cut at the 4 KiB edge is dropped", () => {
    expect(safeBody(Buffer.from('{"ok":true}'))).toEqual({ kind: "text", body: '{"ok":true}' });
    expect(safeBody(Buffer.from("a\u0000b"))).toEqual({ kind: "binary", body: Buffer.from("a\u0000b").toString("base64") });
    expect(safeBody(Buffer.from([0xc3, 0x28, 0x41]))).toMatchObject({ kind: "binary" });
    const edge = Buffer.concat([Buffer.alloc(4095, "x"), Buffer.from("é")]); // 4,097 bytes: é is cut in two
    expect(safeBody(edge)).toEqual({ kind: "text", body: "x".repeat(4095) });
    expect(safeBody(Buffer.alloc(10_000, "y")).body).toHaveLength(4096);
  });

  it("headers lose NUL and unpaired surrogates and are bounded in number and size", () => {
    expect(safeText("a\u0000b\uD800c")).toBe("a\uFFFDb\uFFFDc");
    expect(safeHeaders(["X-A", "1", "X-B", "v\u0000"])).toEqual([
      ["X-A", "1"],
      ["X-B", "v\uFFFD"],
    ]);
    const many = Array.from({ length: 500 }, (_, i) => [`x-${i}`, "v"]).flat();
    expect(safeHeaders(many)).toHaveLength(100);
    const huge = safeHeaders(["x-big", "z".repeat(100_000)]);
    expect(huge[0][1].length).toBeLessThanOrEqual(2049);
  });
});
