import type { Moment } from "@/server/comments/moments";

/** What a comment points at, in words: "Split 3 of 4", "Work 2", "Replay 1:23.4". */
export function momentLabel(moment: Moment): string {
  if (moment.kind === "split") return `Split ${moment.index} of ${moment.count}`;
  if (moment.kind === "set") return `Work ${moment.work}`;
  const minutes = Math.floor(moment.seconds / 60);
  const seconds = (moment.seconds - minutes * 60).toFixed(1).padStart(4, "0");
  return `Replay ${minutes}:${seconds}`;
}

/**
 * Where the moment is on its page: the split row (`#split-N`, with `?splits=` when the page shows another number
 * of splits, so the row is the same split), the work set row (`#work-N`), or the replay (`#t=83.4`, which the
 * player reads and seeks to).
 */
export function momentHref(moment: Moment, shownSplitCount: number | null): string {
  if (moment.kind === "split") return `${moment.count === shownSplitCount ? "" : `?splits=${moment.count}`}#split-${moment.index}`;
  if (moment.kind === "set") return `#work-${moment.work}`;
  return `#t=${moment.seconds}`;
}

/** The choices of the comment form's "Points at" list for a page. */
export interface MomentChoices {
  /** A session page: the splits it shows now, and whether its replay can be pointed at (its duration in seconds). */
  splitCount?: number;
  replayDurationS?: number;
  /** A training page: its work sets' numbers. */
  workSets?: number[];
}

/** Parses "83.4", "1:23.4" or "1:23" into seconds; null when it is neither. */
export function parseReplayTime(text: string): number | null {
  const m = /^\s*(?:(\d+):)?(\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return null;
  const seconds = (m[1] ? Number(m[1]) * 60 : 0) + Number(m[2]);
  return Number.isFinite(seconds) ? seconds : null;
}
