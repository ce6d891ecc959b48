"use client";

import { useState, type ReactNode } from "react";

/**
 * The log's filters behind a "Filter" button on a phone, so the sessions come
 * first; the button says how many filters are active. On wide screens the
 * button is hidden and the form always shows (CSS: .filter-toggle).
 */
export function FilterToggle({ active, children }: { active: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <div className={open ? "filter-toggle open" : "filter-toggle"}>
      <button
        type="button"
        className="secondary filter-button"
        aria-expanded={open}
        aria-controls="log-filters"
        onClick={() => setOpen(!open)}
      >
        Filter{" "}
        {active > 0 ? (
          <span className="badge" data-testid="active-filters">
            {active} active
          </span>
        ) : null}
      </button>
      <div id="log-filters" className="filter-panel">
        {children}
      </div>
    </div>
  );
}
