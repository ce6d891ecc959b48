"use client";

import { useId, useState } from "react";
import { FormError, useSubmit } from "@/app/_components/form";
import type { Moment } from "@/server/comments/moments";
import { parseReplayTime, type MomentChoices } from "./moment";

/** The choice of the "Points at" list as a string: "", "split:3", "set:2" or "time". */
const choiceOf = (moment: Moment | null) =>
  !moment ? "" : moment.kind === "split" ? `split:${moment.index}:${moment.count}` : moment.kind === "set" ? `set:${moment.work}` : "time";

/** A comment's text and the moment it points at; used to write one and to edit one's own. */
export function CommentForm({
  choices,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  choices: MomentChoices;
  initial?: { body: string; moment: Moment | null };
  submitLabel: string;
  onSubmit: (value: { body: string; moment: Moment | null }) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [body, setBody] = useState(initial?.body ?? "");
  const [choice, setChoice] = useState(choiceOf(initial?.moment ?? null));
  const [time, setTime] = useState(initial?.moment?.kind === "time" ? String(initial.moment.seconds) : "");
  const momentOf = (): Moment | null => {
    if (choice === "time") return { kind: "time", seconds: parseReplayTime(time) ?? -1 };
    const [kind, a, b] = choice.split(":");
    if (kind === "split") return { kind: "split", index: Number(a), count: Number(b) };
    if (kind === "set") return { kind: "set", work: Number(a) };
    return null;
  };
  const send = useSubmit(
    () => onSubmit({ body, moment: momentOf() }),
    () => {
      if (!initial) {
        setBody("");
        setChoice("");
        setTime("");
      }
    },
  );
  const splits = choices.splitCount ?? 0;
  const current = initial?.moment?.kind === "split" && initial.moment.count !== splits ? initial.moment : null;
  const hasMoments = splits > 0 || choices.replayDurationS !== undefined || (choices.workSets?.length ?? 0) > 0;
  return (
    <form className="comment-form stack" onSubmit={send.submit}>
      <FormError message={send.errors.form} />
      <div className="field">
        <label htmlFor={`${id}-body`}>{initial ? "Edit comment" : "Comment"}</label>
        <textarea
          id={`${id}-body`}
          value={body}
          rows={3}
          maxLength={2000}
          aria-invalid={send.errors.fields.body ? true : undefined}
          onChange={(e) => setBody(e.target.value)}
        />
        {send.errors.fields.body ? <p className="field-error">{send.errors.fields.body.join(" ")}</p> : null}
      </div>
      {hasMoments ? (
        <div className="row">
          <div className="field">
            <label htmlFor={`${id}-moment`}>Points at</label>
            <select id={`${id}-moment`} value={choice} onChange={(e) => setChoice(e.target.value)}>
              <option value="">Nothing in particular</option>
              {current ? <option value={choiceOf(current)}>{`Split ${current.index} of ${current.count}`}</option> : null}
              {Array.from({ length: splits }, (_, k) => (
                <option key={k} value={`split:${k + 1}:${splits}`}>{`Split ${k + 1} of ${splits}`}</option>
              ))}
              {(choices.workSets ?? []).map((n) => (
                <option key={n} value={`set:${n}`}>{`Work ${n}`}</option>
              ))}
              {choices.replayDurationS !== undefined ? <option value="time">A time in the replay</option> : null}
            </select>
          </div>
          {choice === "time" ? (
            <div className="field">
              <label htmlFor={`${id}-time`}>Replay time (m:ss or seconds)</label>
              <input id={`${id}-time`} inputMode="decimal" value={time} onChange={(e) => setTime(e.target.value)} placeholder="1:23.4" />
            </div>
          ) : null}
        </div>
      ) : null}
      {send.errors.fields.moment ? <p className="field-error">{send.errors.fields.moment.join(" ")}</p> : null}
      <div className="row">
        <button type="submit" disabled={send.pending}>
          {submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
