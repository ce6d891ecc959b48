"use client";

import { useEffect, useRef } from "react";
import { formatPace500, formatRate, formatSpeed } from "@/app/_lib/format";
import { liveFigures } from "@/server/results/session-timeline";
import type { SessionCursor } from "../session-cursor";
import styles from "./replay-player.module.css";

/**
 * What the boat is doing at the replay's time, under the player on the
 * session page (docs/replay.md "Live figures"): speed, pace per 500 m, the
 * rate of the stroke under way, the distance and the split. Written into the
 * page as the cursor moves, not rendered again, and formatted by the page's
 * own figure functions (app/_lib/format.ts).
 */
export function LiveFigures({ cursor }: { cursor: SessionCursor }) {
  const speed = useRef<HTMLElement>(null);
  const pace = useRef<HTMLElement>(null);
  const rate = useRef<HTMLElement>(null);
  const distance = useRef<HTMLElement>(null);
  const split = useRef<HTMLElement>(null);
  useEffect(() => {
    const set = (ref: React.RefObject<HTMLElement | null>, text: string) => {
      if (ref.current && ref.current.textContent !== text) ref.current.textContent = text;
    };
    return cursor.subscribe((timeS) => {
      const f = liveFigures(cursor.timeline, timeS);
      set(pace, `${formatPace500(f.speedMS)} /500 m`);
      set(speed, `${formatSpeed(f.speedMS)} m/s`);
      set(rate, f.rateSpm === null ? "—" : `${formatRate(f.rateSpm)} spm`);
      set(distance, `${Math.round(f.distanceM)} m`);
      set(split, f.split ? `${f.split.number} of ${f.split.of}` : "—");
    });
  }, [cursor]);
  return (
    <dl className={styles.live} aria-label="At the replay's position">
      <div>
        <dt>Pace</dt>
        <dd ref={pace} data-testid="live-pace" />
      </div>
      <div>
        <dt>Speed</dt>
        <dd ref={speed} data-testid="live-speed" />
      </div>
      <div>
        <dt>Rate</dt>
        <dd ref={rate} data-testid="live-rate" />
      </div>
      <div>
        <dt>Distance</dt>
        <dd ref={distance} data-testid="live-distance" />
      </div>
      <div>
        <dt>Split</dt>
        <dd ref={split} data-testid="live-split" />
      </div>
    </dl>
  );
}
