import type { Metadata } from "next";
import { TestTokenCallbackRelay } from "./relay";

export const metadata: Metadata = { title: "Test token", referrer: "no-referrer" };

/**
 * The redirect URI of "Get a test token" (docs/oauth.md "Test tokens"). An
 * application registers `${APP_URL}/developer/test-token/callback` to use it.
 */
export default function TestTokenCallbackPage() {
  return (
    <>
      <h1>Test token</h1>
      <TestTokenCallbackRelay />
    </>
  );
}
