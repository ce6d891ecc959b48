import { execFileSync } from "node:child_process";
import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { codeSamples } from "./code-samples";
import { pkcePair } from "./test-token";

/** The "Try it" code samples and the test token's PKCE pair (app/_lib). */
describe("code samples", () => {
  it("a key-pair GET: the pair from the environment in all three languages, never a literal credential", () => {
    const s = codeSamples({ method: "GET", url: "https://svc.example/api/v1/results?per_page=5", credential: "keyPair", headers: [] });
    expect(s.curl).toBe(
      `curl 'https://svc.example/api/v1/results?per_page=5' \\\n  -H "Authorization: Bearer $SVC_PUBLIC_KEY.$SVC_SECRET_KEY"`,
    );
    expect(s.javascript).toContain("Authorization: `Bearer ${process.env.SVC_PUBLIC_KEY}.${process.env.SVC_SECRET_KEY}`");
    expect(s.python).toContain(`"Authorization": f"Bearer {os.environ['SVC_PUBLIC_KEY']}.{os.environ['SVC_SECRET_KEY']}"`);
    expect(s.python).toContain(`requests.request("GET", "https://svc.example/api/v1/results?per_page=5"`);
  });

  it("a token, the public key alone, and no credential", () => {
    expect(codeSamples({ method: "GET", url: "https://x/api/v1/me", credential: "token", headers: [] }).curl).toContain(
      '"Authorization: Bearer $SVC_ACCESS_TOKEN"',
    );
    expect(codeSamples({ method: "GET", url: "https://x/api/v1/vessels", credential: "publicKey", headers: [] }).curl).toContain(
      '"Authorization: Bearer $SVC_PUBLIC_KEY"',
    );
    const none = codeSamples({ method: "GET", url: "https://x/api/v1/health", credential: "none", headers: [] });
    expect(none.curl).not.toContain("Authorization");
    expect(none.python).not.toContain("import os");
  });

  it("shell quoting survives a quote in a value; JSON and multipart bodies", () => {
    const s = codeSamples({
      method: "POST",
      url: "https://x/api/v1/exports",
      credential: "token",
      headers: [["Idempotency-Key", "it's-1"]],
      jsonBody: '{"format":"csv"}',
    });
    expect(s.curl).toContain(`-X POST`);
    expect(s.curl).toContain(`-H 'Idempotency-Key: it'\\''s-1'`);
    expect(s.curl).toContain(`--data '{"format":"csv"}'`);
    expect(s.javascript).toContain(`body: JSON.stringify({"format":"csv"})`);
    expect(s.python).toContain(`json=json.loads("{\\"format\\":\\"csv\\"}")`);
    const upload = codeSamples({
      method: "POST",
      url: "https://x/api/v1/results",
      credential: "keyPair",
      headers: [],
      multipart: { fileField: "file", fileName: "session.svc", textFields: [["metadata", '{"distance":500}']] },
    });
    expect(upload.curl).toContain(`-F 'file=@session.svc'`);
    expect(upload.curl).toContain(`-F 'metadata={"distance":500}'`);
    expect(upload.javascript).toContain(`form.append("file", new Blob([await readFile("session.svc")]), "session.svc");`);
    expect(upload.python).toContain(`files={"file": open("session.svc", "rb")}`);
  });

  it("the curl sample is one valid shell command (bash -n)", () => {
    const s = codeSamples({
      method: "GET",
      url: "https://x/api/v1/results?competition=O'Brien&page=2",
      credential: "keyPair",
      headers: [["X-A", "b 'c'"]],
    });
    expect(() => execFileSync("bash", ["-n", "-c", s.curl])).not.toThrow();
  });

  it("the JavaScript sample parses as a module", async () => {
    const s = codeSamples({ method: "GET", url: "https://x/api/v1/me", credential: "token", headers: [] });
    // Top-level await: check it as the body of an async function.
    expect(() => new Function(`return (async () => { ${s.javascript} })`)).not.toThrow();
  });
});

describe("PKCE pair (WebCrypto)", () => {
  it("the challenge is base64url(SHA-256(verifier)) without padding, the verifier 43 characters", async () => {
    const { verifier, challenge } = await pkcePair(webcrypto as unknown as Crypto);
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expected = Buffer.from(await webcrypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))).toString("base64url");
    expect(challenge).toBe(expected);
    expect((await pkcePair(webcrypto as unknown as Crypto)).verifier).not.toBe(verifier);
  });
});
