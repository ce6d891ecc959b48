"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { useSessionCursor } from "@/app/_components/session-cursor";
import { SPLIT_EDGE_M } from "@/server/results/session-timeline";

/**
 * The splits table on the session page's cursor (docs/replay.md "One cursor
 * through the session page"): the row the replay is in is marked, and a
 * split's number button plays the replay from that split's start.
 */
export function SplitsCursor({ children }: { children: ReactNode }) {
  const cursor = useSessionCursor();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!cursor || !ref.current) return;
    const rows = [...ref.current.querySelectorAll<HTMLTableRowElement>("tr[data-to-m]")];
    let current: HTMLTableRowElement | null = null;
    return cursor.subscribe(() => {
      const d = cursor.distanceM();
      const row = rows.find((r) => d < Number(r.dataset.toM) - SPLIT_EDGE_M) ?? rows[rows.length - 1] ?? null;
      if (row === current) return;
      current?.classList.remove("split-current");
      current?.removeAttribute("aria-current");
      row?.classList.add("split-current");
      row?.setAttribute("aria-current", "true");
      current = row;
    });
  }, [cursor]);
  return (
    <div
      ref={ref}
      onClick={(event) => {
        const button = (event.target as HTMLElement).closest<HTMLElement>("[data-seek-m]");
        if (cursor && button) cursor.seekDistance(Number(button.dataset.seekM));
      }}
    >
      {children}
    </div>
  );
}
