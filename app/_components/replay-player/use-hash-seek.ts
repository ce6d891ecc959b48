"use client";

import { useEffect, useRef, type RefObject } from "react";

/** `#t=83.4` in the page's address: a time in the replay, in seconds (docs/comments.md "Moments"). */
export function replayTimeOfHash(hash: string): number | null {
  const m = /^#t=(\d+(?:\.\d+)?)$/.exec(hash);
  return m ? Number(m[1]) : null;
}

/**
 * Seeks the player to the time in the address (`#t=…`, as a comment's replay moment links), on load and on every
 * change of the hash: the player is brought into view (which starts its loading) and seeks once its data is there.
 */
export function useHashSeek(containerRef: RefObject<HTMLElement | null>, ready: boolean, seek: (timeS: number) => void) {
  const pending = useRef<number | null>(null);
  useEffect(() => {
    const read = () => {
      const time = replayTimeOfHash(window.location.hash);
      if (time === null) return;
      containerRef.current?.scrollIntoView({ block: "center" });
      containerRef.current?.focus({ preventScroll: true });
      // Before the data is there the seek is clamped to 0; the pending time is applied once it is ready.
      seek(time);
      pending.current = time;
    };
    read();
    window.addEventListener("hashchange", read);
    return () => window.removeEventListener("hashchange", read);
  }, [containerRef, seek]);
  useEffect(() => {
    if (ready && pending.current !== null) {
      seek(pending.current);
      pending.current = null;
    }
  }, [ready, seek]);
}
