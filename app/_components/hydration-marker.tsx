"use client";

import { useEffect } from "react";

/**
 * Marks the document once React has hydrated. Browser tests wait for it
 * before typing, because input typed before hydration is reset by React.
 */
export function HydrationMarker() {
  useEffect(() => {
    document.body.dataset.hydrated = "true";
  }, []);
  return null;
}
