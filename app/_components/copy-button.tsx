"use client";

import { useState } from "react";

/** Copies `value` to the clipboard and says so, for links and secrets shown once. */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <>
      <button
        type="button"
        className="secondary copy-button"
        onClick={() =>
          navigator.clipboard.writeText(value).then(
            () => setState("copied"),
            () => setState("failed"),
          )
        }
      >
        {label}
      </button>
      <span role="status" className={state === "idle" ? "visually-hidden" : "muted"}>
        {state === "copied" ? " Copied." : state === "failed" ? " Copy failed: select the text and copy it by hand." : ""}
      </span>
    </>
  );
}
