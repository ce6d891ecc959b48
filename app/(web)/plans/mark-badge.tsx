import type { RepMark } from "@/server/plans/compliance";

const WORDS: Record<RepMark, string> = { within: "within plan", near: "near plan", off: "off plan", missed: "missed", extra: "extra" };

/** A compliance mark in words (docs/plans.md "Compliance bands"); colour only repeats the word. */
export function MarkBadge({ mark }: { mark: RepMark | null }) {
  if (!mark) return <span className="badge">not due yet</span>;
  return (
    <span className={`badge mark-${mark}`} data-testid="plan-mark">
      {WORDS[mark]}
    </span>
  );
}
