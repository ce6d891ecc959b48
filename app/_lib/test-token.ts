/**
 * The developer portal's "Get a test token" (docs/oauth.md "Test tokens"):
 * the authorization code + PKCE flow runs in a pop-up that ends on this
 * portal page, which hands the code back to the reference page that opened it.
 */
export const TEST_TOKEN_CALLBACK_PATH = "/developer/test-token/callback";
/** The message the callback page posts to its opener (same origin only). */
export const TEST_TOKEN_MESSAGE = "svc-test-token-callback";

export interface TestTokenCallback {
  type: typeof TEST_TOKEN_MESSAGE;
  code: string | null;
  state: string | null;
  iss: string | null;
  error: string | null;
  errorDescription: string | null;
}

/** base64url without padding (RFC 7636 §4.1–4.2). */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A PKCE pair from WebCrypto: 32 random bytes as the verifier, S256 of it as the challenge. */
export async function pkcePair(crypto: Crypto = globalThis.crypto): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

export const randomState = (crypto: Crypto = globalThis.crypto) => base64url(crypto.getRandomValues(new Uint8Array(16)));
