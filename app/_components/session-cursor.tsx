"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import { distanceAtTime, timeAtDistance, type SessionTimeline } from "@/server/results/session-timeline";

/**
 * The session page's one cursor (docs/replay.md "One cursor through the
 * session page"). The replay publishes its time as it plays; the charts, the
 * course map and the splits follow it; a click on any of them asks the replay
 * to seek. Listeners are called outside React's render (a chart moves its
 * marker by setting a style), so 60 updates a second re-render nothing.
 */
export class SessionCursor {
  timeS = 0;
  /** True while the replay plays: a hover then only shows, it does not scrub. */
  playing = false;
  private listeners = new Set<(timeS: number) => void>();
  private seekers = new Set<(timeS: number) => void>();

  constructor(readonly timeline: SessionTimeline) {}

  distanceM(): number {
    return distanceAtTime(this.timeline, this.timeS);
  }

  /** Follow the cursor; called at once with the current time. Returns the unsubscribe. */
  subscribe(listener: (timeS: number) => void): () => void {
    this.listeners.add(listener);
    listener(this.timeS);
    return () => this.listeners.delete(listener);
  }

  /** The replay publishes where it is. */
  publish(timeS: number): void {
    if (Math.abs(timeS - this.timeS) < 1e-4) return;
    this.timeS = timeS;
    for (const listener of this.listeners) listener(timeS);
  }

  /** The replay takes seek requests (registered by the player once it is there). */
  onSeek(seeker: (timeS: number) => void): () => void {
    this.seekers.add(seeker);
    return () => this.seekers.delete(seeker);
  }

  /** A chart, the map or a split row asks to go to `distanceM`: the replay seeks, and everything follows. */
  seekDistance(distanceM: number): void {
    this.seekTime(timeAtDistance(this.timeline, distanceM));
  }

  seekTime(timeS: number): void {
    for (const seeker of this.seekers) seeker(timeS);
    // Without a player yet (still loading, or below the fold), the cursor moves by itself; the player starts there.
    this.publish(timeS);
  }
}

const CursorContext = createContext<SessionCursor | null>(null);

export function SessionCursorProvider({ timeline, children }: { timeline: SessionTimeline | null; children: ReactNode }) {
  const cursor = useMemo(() => (timeline ? new SessionCursor(timeline) : null), [timeline]);
  return <CursorContext.Provider value={cursor}>{children}</CursorContext.Provider>;
}

/** The page's cursor, or null outside a session page (an embed, the compare view). */
export function useSessionCursor(): SessionCursor | null {
  return useContext(CursorContext);
}
