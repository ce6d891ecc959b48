import { z } from "zod";
import { AppError } from "../errors";
import { INT4_MAX } from "../contract/values";

/**
 * The pure part of set corrections (docs/trainings.md "Corrected sets"): a
 * training's sets as a layout of contiguous spans on the recording clock,
 * and the four operations a person may apply to it. Database and core are
 * in set-corrections.ts.
 */
export interface LayoutSet {
  /** The set's id; null for a set a correction adds (it gets one when stored). */
  id: number | null;
  kind: "work" | "rest";
  start_s: number;
  end_s: number;
  step_index: number | null;
}

/** The shortest set a correction may leave (s): shorter is a slip of the hand, not a set. */
export const MIN_SET_S = 1;
/** How far a re-detected boundary may lie from the one a correction was made on (s) and still count as the same. */
export const REAPPLY_TOLERANCE_S = 2;

const ZSetId = z.number().int().positive().max(INT4_MAX);
export const ZSetOperation = z.discriminatedUnion("op", [
  z.object({ op: z.literal("merge"), set_id: ZSetId, with_set_id: ZSetId }).strict(),
  z
    .object({
      op: z.literal("split"),
      set_id: ZSetId,
      at_s: z.number().finite().positive().max(86_400).describe("seconds from the set's start"),
    })
    .strict(),
  z
    .object({
      op: z.literal("move"),
      set_id: ZSetId,
      edge: z.enum(["start", "end"]),
      to_s: z.number().finite().min(0).max(86_400).describe("a stroke's catch, recording clock"),
    })
    .strict(),
  z.object({ op: z.literal("mark"), set_id: ZSetId, kind: z.enum(["work", "rest"]) }).strict(),
]);
export type SetOperation = z.output<typeof ZSetOperation>;

const invalid = (message: string) => new AppError("invalid", message);
const r3 = (v: number) => Math.round(v * 1000) / 1000;

function indexOf(layout: LayoutSet[], id: number): number {
  const k = layout.findIndex((s) => s.id === id);
  if (k < 0) throw invalid(`Set ${id} is not a set of this training.`);
  return k;
}

/**
 * The layout after one operation, normalized: rests next to each other
 * become one (the first keeps its id), a rest before the first or after the
 * last work set goes (a training runs from its first work set's start to its
 * last one's end), and at least one work set stays. Throws `invalid` with
 * the reason in people's words; the input layout is never changed.
 */
export function applySetOperation(layout: LayoutSet[], op: SetOperation): LayoutSet[] {
  const sets = layout.map((s) => ({ ...s }));
  const k = indexOf(sets, op.set_id);
  const set = sets[k];
  switch (op.op) {
    case "merge": {
      const j = indexOf(sets, op.with_set_id);
      if (j === k) throw invalid("A set cannot be merged with itself.");
      const [a, b] = j > k ? [k, j] : [j, k];
      const between = sets.slice(a + 1, b);
      const adjacent = b === a + 1 || (sets[a].kind === sets[b].kind && between.every((s) => s.kind !== sets[a].kind));
      if (!adjacent)
        throw invalid("Only neighbouring sets can be merged: two sets next to each other, or two work sets with only a rest between them.");
      const kind = sets[a].kind === "work" || sets[b].kind === "work" ? "work" : "rest";
      const first = sets[a];
      const merged: LayoutSet = {
        id: first.id,
        kind,
        start_s: first.start_s,
        end_s: sets[b].end_s,
        step_index: kind === "work" ? (first.kind === "work" ? first.step_index : sets[b].step_index) : null,
      };
      sets.splice(a, b - a + 1, merged);
      break;
    }
    case "split": {
      const at = r3(set.start_s + op.at_s);
      if (at - set.start_s < MIN_SET_S || set.end_s - at < MIN_SET_S)
        throw invalid(
          `A split must leave at least ${MIN_SET_S} s on each side: choose a time from ${MIN_SET_S} s to ${formatS(set.end_s - set.start_s - MIN_SET_S)} into the set.`,
        );
      sets.splice(k, 1, { ...set, end_s: at }, { id: null, kind: set.kind, start_s: at, end_s: set.end_s, step_index: null });
      break;
    }
    case "move": {
      const to = r3(op.to_s);
      if (op.edge === "start") {
        const prev = sets[k - 1];
        if (set.end_s - to < MIN_SET_S) throw invalid(`The start must stay at least ${MIN_SET_S} s before the set's end.`);
        if (prev && to - prev.start_s < MIN_SET_S)
          throw invalid(`The start cannot move past the set before: that set must keep at least ${MIN_SET_S} s.`);
        if (prev) prev.end_s = to;
        set.start_s = to;
      } else {
        const next = sets[k + 1];
        if (to - set.start_s < MIN_SET_S) throw invalid(`The end must stay at least ${MIN_SET_S} s after the set's start.`);
        if (next && next.end_s - to < MIN_SET_S)
          throw invalid(`The end cannot move past the set after: that set must keep at least ${MIN_SET_S} s.`);
        if (next) next.start_s = to;
        set.end_s = to;
      }
      break;
    }
    case "mark": {
      if (set.kind === op.kind) throw invalid(`The set is already a ${op.kind === "work" ? "work set" : "rest"}.`);
      sets[k] = { ...set, kind: op.kind, step_index: null };
      break;
    }
  }
  return normalize(sets);
}

function normalize(sets: LayoutSet[]): LayoutSet[] {
  const out: LayoutSet[] = [];
  for (const s of sets) {
    const last = out[out.length - 1];
    if (last && last.kind === "rest" && s.kind === "rest") last.end_s = s.end_s;
    else out.push(s);
  }
  while (out.length && out[0].kind === "rest") out.shift();
  while (out.length && out[out.length - 1].kind === "rest") out.pop();
  if (out.length === 0) throw invalid("A training keeps at least one work set.");
  return out;
}

/** True when a set of `layout` has the same kind and bounds (to the millisecond) as one that detection found. */
export function isDetected(
  set: Pick<LayoutSet, "kind" | "start_s" | "end_s">,
  detected: Pick<LayoutSet, "kind" | "start_s" | "end_s">[],
): boolean {
  return detected.some((d) => d.kind === set.kind && Math.abs(d.start_s - set.start_s) < 0.0015 && Math.abs(d.end_s - set.end_s) < 0.0015);
}

/**
 * Re-applies a training's corrections, in order, to a new detection
 * (reprocessing with a new core). Each operation names sets by id; each such
 * set is found in the new layout as the one of the same kind whose both
 * bounds lie within REAPPLY_TOLERANCE_S of the bounds it had when the
 * correction was made. Returns null when any correction does not re-apply
 * (the caller keeps the corrected sets and asks for a review): the
 * corrections build on each other, so they are re-applied together or kept together.
 */
export function reapplyCorrections(
  detected: LayoutSet[],
  corrections: { operation: SetOperation; before: LayoutSet[] }[],
): LayoutSet[] | null {
  // Temporary negative ids name the new detection's sets until they are matched to stored ones.
  let layout: LayoutSet[] = detected.map((s, k) => ({ ...s, id: -(k + 1) }));
  let fresh = -1_000_000;
  for (const c of corrections) {
    const mapId = (id: number): number | null => {
      const was = c.before.find((s) => s.id === id);
      if (!was) return null;
      const now = layout.find(
        (s) =>
          s.kind === was.kind &&
          Math.abs(s.start_s - was.start_s) <= REAPPLY_TOLERANCE_S &&
          Math.abs(s.end_s - was.end_s) <= REAPPLY_TOLERANCE_S,
      );
      return now?.id ?? null;
    };
    const setId = mapId(c.operation.set_id);
    const withId = c.operation.op === "merge" ? mapId(c.operation.with_set_id) : 0;
    if (setId === null || withId === null) return null;
    const op = { ...c.operation, set_id: setId, ...(c.operation.op === "merge" ? { with_set_id: withId } : {}) } as SetOperation;
    try {
      layout = applySetOperation(layout, op).map((s) => (s.id === null ? { ...s, id: fresh-- } : s));
    } catch (error) {
      if (error instanceof AppError) return null;
      throw error;
    }
  }
  return layout.map((s) => ({ ...s, id: null }));
}

/** Ids for a re-derived layout: each set takes the id of the stored set of its kind it overlaps most (each id once), else none. */
export function inheritIds(layout: LayoutSet[], stored: LayoutSet[]): LayoutSet[] {
  const taken = new Set<number>();
  return layout.map((s) => {
    let best: { id: number; overlap: number } | null = null;
    for (const o of stored) {
      if (o.id === null || o.kind !== s.kind || taken.has(o.id)) continue;
      const overlap = Math.min(o.end_s, s.end_s) - Math.max(o.start_s, s.start_s);
      if (overlap > 0 && (!best || overlap > best.overlap)) best = { id: o.id, overlap };
    }
    if (best) taken.add(best.id);
    return { ...s, id: best?.id ?? null };
  });
}

function formatS(s: number): string {
  return `${Math.max(0, Math.floor(s * 10) / 10)}`;
}
