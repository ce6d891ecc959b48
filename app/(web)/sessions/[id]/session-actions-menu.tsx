"use client";

import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";

/**
 * The session's actions (export, report, correction, deletion) behind one
 * button, so the page leads with the result (docs/web-app.md "Session page").
 * A disclosure, not an ARIA menu: the panel holds forms. The button says
 * whether it is open (aria-expanded); Escape closes the panel and gives the
 * button its focus back (an open confirmation dialog handles its own Escape).
 */
export function SessionActionsMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || (event.target as HTMLElement).closest("dialog")) return;
    setOpen(false);
    button.current?.focus();
  };
  return (
    <div className="session-actions-menu" onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        className="secondary"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
      >
        Actions <span aria-hidden="true">{open ? "▴" : "▾"}</span>
      </button>
      <div id={panelId} className="session-actions-panel stack" role="region" aria-label="Session actions" hidden={!open}>
        {children}
      </div>
    </div>
  );
}
