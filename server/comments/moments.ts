import { z } from "zod";
import { AppError } from "../errors";

/**
 * A moment a comment points at (docs/comments.md "Moments"): a split of a
 * session (its number among `count` equal-distance splits, as the session
 * page shows them), a work set of a training (its work number), or a time in
 * a session's replay (seconds from the start).
 */
export const ZMoment = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("split"), index: z.number().int().min(1), count: z.number().int().min(1).max(20) }),
  z.object({ kind: z.literal("set"), work: z.number().int().min(1) }),
  z.object({ kind: z.literal("time"), seconds: z.number().finite().min(0) }),
]);
export type Moment = z.infer<typeof ZMoment>;

/** What a moment is checked against: a session's time, or a training's work sets. */
export type MomentTarget = { kind: "session"; durationMs: number } | { kind: "training"; workSetCount: number | null };

const invalid = (message: string) => new AppError("invalid", message, { moment: [message] });

/** The moment as stored: checked against its session or training, times to a tenth of a second. Throws `invalid`. */
export function checkMoment(moment: Moment | null | undefined, target: MomentTarget): Moment | null {
  if (!moment) return null;
  if (target.kind === "session") {
    if (moment.kind === "set") throw invalid("A session has splits, not work sets.");
    if (moment.kind === "split") {
      if (moment.index > moment.count) throw invalid(`There are only ${moment.count} splits.`);
      return moment;
    }
    const seconds = Math.round(moment.seconds * 10) / 10;
    if (seconds > target.durationMs / 1000) throw invalid("That time is after the end of the session.");
    return { kind: "time", seconds };
  }
  if (moment.kind !== "set") throw invalid("A training's comments point at a work set.");
  if (!target.workSetCount || moment.work > target.workSetCount) throw invalid("This training has no such work set.");
  return moment;
}

/** A stored moment read back (null when the row holds none or something unreadable). */
export function readMoment(value: unknown): Moment | null {
  const parsed = ZMoment.safeParse(value);
  return parsed.success ? parsed.data : null;
}
