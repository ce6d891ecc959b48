import { describe, expect, it } from "vitest";
import { checkApplicationFields, checkEmbedOrigin, checkRedirectUri, checkScopes } from "./application-rules";
import { clientSecretMatches, hashClientSecret, newClientId, newClientSecret } from "./client-secrets";

describe("redirect URIs", () => {
  it("accepts HTTPS anywhere and HTTP only on loopback hosts, in canonical form", () => {
    expect(checkRedirectUri("https://app.example/cb")).toEqual({ ok: true, value: "https://app.example/cb" });
    expect(checkRedirectUri("https://App.Example")).toEqual({ ok: true, value: "https://app.example/" });
    expect(checkRedirectUri("http://localhost:8080/cb").ok).toBe(true);
    expect(checkRedirectUri("http://127.0.0.1/cb").ok).toBe(true);
    expect(checkRedirectUri("http://[::1]:3000/cb").ok).toBe(true);
    expect(checkRedirectUri("http://app.example/cb").ok).toBe(false);
    expect(checkRedirectUri("http://localhost.evil.example/cb").ok).toBe(false);
    expect(checkRedirectUri("com.example.app:/cb").ok).toBe(false);
    expect(checkRedirectUri("javascript:alert(1)").ok).toBe(false);
  });

  it("refuses fragments, credentials, wildcards and relative URLs", () => {
    expect(checkRedirectUri("https://app.example/cb#x").ok).toBe(false);
    expect(checkRedirectUri("https://user:pw@app.example/cb").ok).toBe(false);
    expect(checkRedirectUri("https://*.app.example/cb").ok).toBe(false);
    expect(checkRedirectUri("/callback").ok).toBe(false);
  });

  it("wants every redirect URI on one host (the pairwise sector)", () => {
    const result = checkApplicationFields(
      { name: "x", redirectUris: ["https://a.example/cb", "https://b.example/cb"], embedOrigins: [], scopes: ["openid"] },
      "data",
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.fieldErrors.redirectUris).toEqual(["All redirect URIs must be on the same host (and port)"]);
  });
});

describe("embed origins", () => {
  it("accepts exact HTTPS origins only", () => {
    expect(checkEmbedOrigin("https://club.example")).toEqual({ ok: true, value: "https://club.example" });
    expect(checkEmbedOrigin("https://club.example/")).toEqual({ ok: true, value: "https://club.example" });
    expect(checkEmbedOrigin("https://club.example:8443").ok).toBe(true);
    expect(checkEmbedOrigin("http://club.example").ok).toBe(false);
    expect(checkEmbedOrigin("https://club.example/page").ok).toBe(false);
    expect(checkEmbedOrigin("https://*.club.example").ok).toBe(false);
  });

  it("are not available to session applications", () => {
    const result = checkApplicationFields(
      { name: "x", redirectUris: ["https://a.example/cb"], embedOrigins: ["https://club.example"], scopes: ["openid"] },
      "session",
    );
    expect(!result.ok && result.fieldErrors.embedOrigins).toEqual(["Session applications cannot embed replays"]);
  });
});

describe("scopes", () => {
  it("allows device scopes on the data surface only and embeds on data and partner", () => {
    expect(checkScopes(["devices:read"], "data").ok).toBe(true);
    expect(checkScopes(["devices:read"], "partner").ok).toBe(false);
    expect(checkScopes(["devices:files"], "session").ok).toBe(false);
    expect(checkScopes(["svcsim:embed"], "partner").ok).toBe(true);
    expect(checkScopes(["svcsim:embed"], "session").ok).toBe(false);
  });

  it("refuses unknown scopes, an empty list, and offline_access without openid", () => {
    expect(checkScopes(["admin"], "data").ok).toBe(false);
    expect(checkScopes([], "data").ok).toBe(false);
    expect(checkScopes(["offline_access"], "data").ok).toBe(false);
  });

  it("returns them de-duplicated in canonical order", () => {
    expect(checkScopes(["health:read", "openid", "openid"], "data")).toEqual({ ok: true, value: ["openid", "health:read"] });
  });
});

describe("client credentials", () => {
  it("have recognisable prefixes and are stored as a SHA-256 hash", () => {
    expect(newClientId()).toMatch(/^svcapp_[0-9A-Za-z]{24}$/);
    const { secret, hash, start } = newClientSecret();
    expect(secret).toMatch(/^svcas_[0-9A-Za-z]{43}$/);
    expect(hash).toBe(hashClientSecret(secret));
    expect(hash).not.toContain(secret.slice(6));
    expect(secret.startsWith(start)).toBe(true);
  });

  it("match only the exact secret", () => {
    const { secret, hash } = newClientSecret();
    expect(clientSecretMatches(hash, secret)).toBe(true);
    expect(clientSecretMatches(hash, secret + "x")).toBe(false);
    expect(clientSecretMatches(hash, hash)).toBe(false);
    expect(clientSecretMatches(hash, "")).toBe(false);
    expect(clientSecretMatches(null, secret)).toBe(false);
  });
});
