// What an OAuth client sends to /api/oauth/authorize, shared by the in-process tests (test/oauth) and the
// Playwright specs (e2e/oauth-helpers.ts). No test framework here, so both runners can import it.
import { createHash, randomBytes } from "node:crypto";

export const randomValue = () => randomBytes(12).toString("base64url");

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function basicAuth(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  scope?: string;
  state?: string | null;
  nonce?: string | null;
  codeChallenge?: string | null;
  codeChallengeMethod?: string | null;
  prompt?: string;
  resource?: string;
  extra?: [string, string][];
}

/** The authorization request URL at `origin`; every member left undefined gets a sound default (S256 PKCE, random state and nonce). */
export function authorizeUrlAt(origin: string, p: AuthorizeParams): string {
  const url = new URL(`${origin}/api/oauth/authorize`);
  const set = (name: string, value: string | null | undefined) => {
    if (value !== null && value !== undefined) url.searchParams.append(name, value);
  };
  set("response_type", "code");
  set("client_id", p.clientId);
  set("redirect_uri", p.redirectUri);
  set("scope", p.scope ?? "openid profile");
  set("state", p.state === undefined ? randomValue() : p.state);
  set("nonce", p.nonce === undefined ? randomValue() : p.nonce);
  set("code_challenge", p.codeChallenge === undefined ? pkcePair().challenge : p.codeChallenge);
  set("code_challenge_method", p.codeChallengeMethod === undefined ? "S256" : p.codeChallengeMethod);
  set("prompt", p.prompt);
  set("resource", p.resource);
  for (const [name, value] of p.extra ?? []) url.searchParams.append(name, value);
  return url.toString();
}
