"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { TEST_TOKEN_MESSAGE, type TestTokenCallback } from "@/app/_lib/test-token";

/**
 * Hands the authorization response to the reference page that opened this
 * pop-up (same origin only), removes it from the address bar and closes.
 * The code is useless without the verifier, which never left that page.
 */
export function TestTokenCallbackRelay() {
  const [outcome, setOutcome] = useState<"relaying" | "sent" | "orphan">("relaying");
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const message: TestTokenCallback = {
      type: TEST_TOKEN_MESSAGE,
      code: params.get("code"),
      state: params.get("state"),
      iss: params.get("iss"),
      error: params.get("error"),
      errorDescription: params.get("error_description"),
    };
    window.history.replaceState(null, "", window.location.pathname);
    const opener = window.opener as Window | null;
    const orphan = !opener || opener.closed;
    if (!orphan) opener.postMessage(message, window.location.origin);
    // The outcome shows after this effect (a pop-up that closes never shows it).
    queueMicrotask(() => setOutcome(orphan ? "orphan" : "sent"));
    if (!orphan) window.close();
  }, []);
  if (outcome === "orphan") {
    return (
      <p className="form-error" role="alert">
        This page finishes “Get a test token” on the <Link href="/developer/docs/data-api/identity#test-token">Data API reference</Link>,
        which opens it in a pop-up. Start there.
      </p>
    );
  }
  return <p role="status">{outcome === "sent" ? "Done: back to the Data API reference." : "Finishing…"}</p>;
}
