"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import type { TrainingCorrecting, TrainingSetView } from "@/server/trainings/training-view";

type Action = "merge" | "split" | "move-start" | "move-end" | "mark";

/** m:ss.s on the training's clock (from the first set's start). */
const clock = (s: number) => {
  const tenths = Math.max(0, Math.round(s * 10));
  return `${Math.floor(tenths / 600)}:${String(Math.floor((tenths % 600) / 10)).padStart(2, "0")}.${tenths % 10}`;
};
const nameOf = (s: TrainingSetView) => (s.kind === "work" ? `Work ${s.workNumber}` : "Rest");
/** How far around a boundary its strokes are offered (s). */
const MOVE_WINDOW_S = 40;
const OP_WORDS: Record<string, string> = { merge: "merge", split: "split", move: "boundary move", mark: "mark as rest or work" };

/**
 * The owner's and the paddler's corrections of the sets (docs/trainings.md
 * "Corrected sets"): choose a set and what to do with it; the page shows the
 * sets measured again at once, and the last correction can be undone.
 */
export function SetCorrections({
  trainingId,
  sets,
  correcting,
  needsReview,
}: {
  trainingId: number;
  sets: TrainingSetView[];
  correcting: TrainingCorrecting;
  needsReview: boolean;
}) {
  const router = useRouter();
  const [setId, setSetId] = useState(String(sets[0]?.id ?? ""));
  const [action, setAction] = useState<Action>("merge");
  const [splitAt, setSplitAt] = useState("");
  const [stroke, setStroke] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const origin = sets[0]?.startS ?? 0;
  // A set a correction took away (merged, or an undo of a split) falls back to the first.
  const found = sets.findIndex((s) => String(s.id) === setId);
  const k = found >= 0 ? found : 0;
  const set = sets[k];
  // Merge partner: the next set of the same kind (a rest between is taken in), else the next set.
  const partner = set ? (sets.slice(k + 1).find((s) => s.kind === set.kind) ?? sets[k + 1]) : undefined;
  const edge = action === "move-start" ? set?.startS : set?.endS;
  const lower = action === "move-start" ? (sets[k - 1]?.startS ?? -Infinity) : (set?.startS ?? 0);
  const upper = action === "move-start" ? (set?.endS ?? 0) : (sets[k + 1]?.endS ?? Infinity);
  const strokes =
    set && (action === "move-start" || action === "move-end")
      ? correcting.strokeCatches.filter(
          (c) => c > lower + 1 && c < upper - 1 && Math.abs(c - edge!) <= MOVE_WINDOW_S && Math.abs(c - edge!) >= 0.0015,
        )
      : [];

  const operation = () => {
    if (!set) throw new Error("Choose a set.");
    switch (action) {
      case "merge":
        return { op: "merge" as const, set_id: set.id, with_set_id: partner?.id ?? set.id };
      case "split":
        return { op: "split" as const, set_id: set.id, at_s: Number(splitAt) };
      case "move-start":
      case "move-end":
        return {
          op: "move" as const,
          set_id: set.id,
          edge: action === "move-start" ? ("start" as const) : ("end" as const),
          to_s: Number(stroke),
        };
      case "mark":
        return { op: "mark" as const, set_id: set.id, kind: set.kind === "work" ? ("rest" as const) : ("work" as const) };
    }
  };
  const describe = () => {
    if (!set) return "";
    if (action === "merge") return `Merged ${nameOf(set).toLowerCase()} with ${partner ? nameOf(partner).toLowerCase() : "the next set"}.`;
    if (action === "split") return `Split ${nameOf(set).toLowerCase()} at ${splitAt} s.`;
    if (action === "mark") return `Marked ${nameOf(set).toLowerCase()} as ${set.kind === "work" ? "rest" : "work"}.`;
    return `Moved the ${action === "move-start" ? "start" : "end"} of ${nameOf(set).toLowerCase()} to the stroke at ${clock(Number(stroke) - origin)}.`;
  };

  const apply = useSubmit(
    () => trpc.trainings.correctSets.mutate({ trainingId, operation: operation() }),
    (outcome) => {
      setDone(`${describe()} ${outcome.workSetCount} work set${outcome.workSetCount === 1 ? "" : "s"} now.`);
      setSplitAt("");
      setStroke("");
      router.refresh();
    },
  );
  const undo = useSubmit(
    () => trpc.trainings.undoCorrection.mutate({ trainingId }),
    (outcome) => {
      setDone(`Undone. ${outcome.workSetCount} work set${outcome.workSetCount === 1 ? "" : "s"} now.`);
      router.refresh();
    },
  );
  const reviewed = useSubmit(
    () => trpc.trainings.markReviewed.mutate({ trainingId }),
    () => {
      setDone("Marked as reviewed: the sets stand as they are.");
      router.refresh();
    },
  );
  const pending = apply.pending || undo.pending || reviewed.pending;
  const canApply =
    !!set &&
    (action !== "merge" || !!partner) &&
    (action !== "split" || splitAt.trim() !== "") &&
    (!action.startsWith("move") || stroke !== "");

  return (
    <section className="card" aria-labelledby="correct-heading" data-testid="set-corrections">
      <h2 id="correct-heading">Correct the sets</h2>
      {needsReview ? (
        <div className="review-notice" role="note" data-testid="needs-review">
          <p>
            <strong>Needs review.</strong> This training was processed again with a newer core, and your corrections no longer fit what it
            found, so your corrected sets were kept as they were. Check them, correct again, or keep them.
          </p>
          <button type="button" className="secondary" disabled={pending} onClick={() => void reviewed.submit()}>
            Keep these sets
          </button>
        </div>
      ) : null}
      <p className="hint">
        Merge two pieces that were run together, split one at a time into it, move a start or an end to a stroke, or mark a set as rest or
        work. The sets, strokes, splits and figures are measured again from the recording.
      </p>
      <form
        className="correction-form"
        // The server checks the split time and says why in words; the browser's own bubble would say less.
        noValidate
        onSubmit={(event) => {
          setDone(null);
          void apply.submit(event);
        }}
      >
        <div className="field">
          <label htmlFor="correct-set">Set</label>
          <select id="correct-set" value={String(sets[k]?.id ?? "")} onChange={(e) => setSetId(e.target.value)}>
            {sets.map((s) => (
              <option key={s.id} value={s.id}>
                {nameOf(s)} ({clock(s.startS - origin)} to {clock(s.endS - origin)})
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="correct-action">Correction</label>
          <select id="correct-action" value={action} onChange={(e) => setAction(e.target.value as Action)}>
            <option value="merge">{partner ? `Merge with ${nameOf(partner).toLowerCase()}` : "Merge with the next set"}</option>
            <option value="split">Split at a time into the set</option>
            <option value="move-start">Move its start to a stroke</option>
            <option value="move-end">Move its end to a stroke</option>
            <option value="mark">{set?.kind === "rest" ? "Mark as work" : "Mark as rest"}</option>
          </select>
        </div>
        {action === "split" ? (
          <div className="field">
            <label htmlFor="correct-split">Split at (seconds into the set)</label>
            <input
              id="correct-split"
              type="number"
              inputMode="decimal"
              min={1}
              step={0.1}
              value={splitAt}
              onChange={(e) => setSplitAt(e.target.value)}
              aria-describedby="correct-split-hint"
            />
            <p className="hint" id="correct-split-hint">
              The set lasts {set ? (set.endS - set.startS) | 0 : 0} s; each part keeps at least 1 s.
            </p>
          </div>
        ) : null}
        {action === "move-start" || action === "move-end" ? (
          <div className="field">
            <label htmlFor="correct-stroke">Stroke</label>
            <select id="correct-stroke" value={stroke} onChange={(e) => setStroke(e.target.value)}>
              <option value="">{strokes.length ? "Choose a stroke" : "No stroke near this boundary"}</option>
              {strokes.map((c) => (
                <option key={c} value={c}>
                  {clock(c - origin)} ({c > edge! ? "+" : "−"}
                  {Math.abs(c - edge!).toFixed(1)} s)
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <button type="submit" disabled={pending || !canApply}>
          {apply.pending ? "Measuring…" : "Apply"}
        </button>
      </form>
      <FormError message={apply.errors.form ?? undo.errors.form ?? reviewed.errors.form} />
      <p role="status" data-testid="correction-status">
        {done}
      </p>
      {correcting.last ? (
        <p className="correction-last">
          <span className="muted">
            {correcting.activeCount} correction{correcting.activeCount === 1 ? "" : "s"} in force; the last, a{" "}
            {OP_WORDS[correcting.last.op] ?? correcting.last.op}, by {correcting.last.by ?? "a former account"} on{" "}
            {correcting.last.at.slice(0, 16).replace("T", " ")} UTC.
          </span>{" "}
          <button
            type="button"
            className="secondary"
            disabled={pending}
            onClick={() => {
              setDone(null);
              void undo.submit();
            }}
          >
            Undo
          </button>
        </p>
      ) : null}
    </section>
  );
}
