import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { errorFromResponse } from "./errors";

/**
 * What a PaddleApiError's `message` is (issue 30 §5): one line for logs,
 * `<status> <code>: <text> (request <id>)`, not the body's message alone, as
 * the README once said. The README states the format; these tests hold both.
 */
const REQUEST_ID = "req_0123456789abcdefghijkl";
const answer = (status: number, body: object, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

describe("PaddleApiError.message", () => {
  it("results API: status, code, the body's message and its request id", () => {
    const body = { error: "not_found", message: "Result not found", request_id: REQUEST_ID };
    const error = errorFromResponse(answer(404, body), body);
    expect(error.message).toBe(`404 not_found: Result not found (request ${REQUEST_ID})`);
    expect((error.body as typeof body).message).toBe("Result not found");
  });

  it("Data API: the body's error_description takes the message's place", () => {
    const body = {
      error: "insufficient_scope",
      error_description: "This operation needs sessions:read",
      scope: "sessions:read",
      request_id: REQUEST_ID,
    };
    expect(errorFromResponse(answer(403, body), body).message).toBe(
      `403 insufficient_scope: This operation needs sessions:read (request ${REQUEST_ID})`,
    );
  });

  it("without a request id in the body, the X-Request-Id header's; with neither, no suffix", () => {
    const body = { error: "conflict", message: "Already revoked" };
    expect(errorFromResponse(answer(409, body, { "x-request-id": REQUEST_ID }), body).message).toBe(
      `409 conflict: Already revoked (request ${REQUEST_ID})`,
    );
    expect(errorFromResponse(answer(409, body), body).message).toBe("409 conflict: Already revoked");
  });

  it("the README documents that format, not the body's message alone", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const row = readme.split("\n").find((line) => line.startsWith("| `message` |"));
    expect(row).toContain("`<status> <code>: <text> (request <request id>)`");
    expect(row).toContain("`404 not_found: Session not found (request req_…)`");
  });
});
