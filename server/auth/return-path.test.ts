import { describe, expect, it } from "vitest";
import { sameOriginReturnPath } from "./return-path";

/** Open-redirect probes (issue 14, defect 10): only paths of the site's own origin come out. */
const SITE = "https://results.example";
const resolve = (value: unknown) => sameOriginReturnPath(value, SITE);

describe("sameOriginReturnPath", () => {
  it("keeps same-origin paths with their query and fragment, and same-origin absolute URLs as paths", () => {
    expect(resolve("/athletes")).toBe("/athletes");
    expect(resolve("/sessions/12?tab=splits#chart")).toBe("/sessions/12?tab=splits#chart");
    expect(resolve("/%2F%5Cevil.example/x")).toBe("/%2F%5Cevil.example/x");
    expect(resolve("https://results.example/records")).toBe("/records");
    expect(resolve("/a/../b")).toBe("/b");
  });

  it.each([
    ["a backslash after the slash", "/\\evil.example/x"],
    ["backslashes only", "\\\\evil.example"],
    ["a slash and a backslash", "\\/evil.example"],
    ["a backslash inside", "/ok\\..\\\\evil.example"],
    ["a protocol-relative host", "//evil.example/x"],
    ["three slashes", "///evil.example"],
    ["a tab between the slashes (%09 decoded)", "/\t/evil.example"],
    ["a newline between the slashes", "/\n/evil.example"],
    ["a carriage return", "/\r/evil.example"],
    ["a NUL", "/\u0000/evil.example"],
    ["DEL", "/\u007f/evil.example"],
    ["dot segments collapsing into //", "/.//evil.example"],
    ["another origin", "https://evil.example/x"],
    ["the same host on another scheme", "http://results.example/x"],
    ["the same host on another port", "https://results.example:8443/x"],
    ["credentials before the host", "https://results.example@evil.example/x"],
    ["credentials on our own host", "https://user:pw@results.example/x"],
    ["a scheme without slashes", "https:evil.example"],
    ["javascript:", "javascript:alert(document.cookie)"],
    ["JavaScript: with a leading space", " javascript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["a bare host", "evil.example"],
    ["an empty value", ""],
    ["a list (repeated parameter)", ["/ok", "//evil.example"]],
    ["undefined", undefined],
    ["a very long value", `/${"a".repeat(3000)}`],
  ])("refuses %s", (_label, value) => {
    expect(resolve(value)).toBe("/");
  });

  it("refuses the decoded forms of encoded probes (%2F%5C, %09) as a query parameter delivers them", () => {
    for (const encoded of [
      "%2F%5Cevil.example%2Fx",
      "%2F%09%2Fevil.example",
      "%2F%2Fevil.example",
      "https%3Aevil.example",
      "javascript%3Aalert(1)",
    ]) {
      expect(resolve(new URLSearchParams(`callbackUrl=${encoded}`).get("callbackUrl")), encoded).toBe("/");
    }
  });
});
