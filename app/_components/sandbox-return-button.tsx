"use client";

import { useState } from "react";

/** Leaves the sandbox person's session for the owner's own (POST /api/sandbox/return). */
export function SandboxReturnButton() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <button
        type="button"
        disabled={pending}
        onClick={async () => {
          setPending(true);
          setError(null);
          const response = await fetch("/api/sandbox/return", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: "{}",
          });
          const body = (await response.json().catch(() => ({}))) as { location?: string; message?: string };
          if (response.ok && body.location) window.location.assign(body.location);
          else {
            setPending(false);
            setError(body.message ?? "Could not switch back. Sign out and sign in again.");
          }
        }}
      >
        Back to my account
      </button>
      {error ? <span className="field-error"> {error}</span> : null}
    </>
  );
}
