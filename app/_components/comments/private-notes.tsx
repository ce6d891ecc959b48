"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";
import type { NoteTarget, PrivateNoteView } from "@/server/comments/private-notes";

/**
 * A coach's private notes on a session, a training or an athlete (docs/comments.md "Private notes"). The page
 * renders this only for the athletes' coaches; the athletes never receive it, not even an empty section.
 */
export function PrivateNotes({ target, notes }: { target: NoteTarget; notes: PrivateNoteView[] }) {
  const router = useRouter();
  const [editing, setEditing] = useState<number | null>(null);
  return (
    <section aria-labelledby="private-notes-heading" className="private-notes card" data-testid="private-notes">
      <h2 id="private-notes-heading">Private notes</h2>
      <p className="hint">
        Seen by the coaches of {target.kind === "athlete" ? "this athlete" : "its athletes"} only: never by an athlete, in an export, a
        share link or the API.
      </p>
      {notes.length ? (
        <ul className="plain-list stack">
          {notes.map((n) => (
            <li key={n.id} data-testid="private-note">
              <p className="comment-meta">
                <strong>{n.authorName}</strong>{" "}
                <time className="muted" dateTime={n.createdAt}>
                  {n.createdAt.slice(0, 10)}
                </time>
                {n.edited ? <span className="muted"> · edited</span> : null}
              </p>
              {editing === n.id ? (
                <NoteForm
                  initial={n.body}
                  submitLabel="Save note"
                  onCancel={() => setEditing(null)}
                  onSubmit={async (body) => {
                    await trpc.comments.editNote.mutate({ id: n.id, body });
                    setEditing(null);
                    router.refresh();
                  }}
                />
              ) : (
                <p className="pre-line">{n.body}</p>
              )}
              {n.mine && editing !== n.id ? (
                <div className="row">
                  <button type="button" className="secondary" onClick={() => setEditing(n.id)}>
                    Edit note
                  </button>
                  <ConfirmButton
                    label="Delete note"
                    title="Delete this private note?"
                    statement="The note is deleted for every coach."
                    confirmLabel="Delete note"
                    action={() => trpc.comments.deleteNote.mutate({ id: n.id })}
                    onDone={() => router.refresh()}
                  />
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <NoteForm
        submitLabel="Add private note"
        onSubmit={async (body) => {
          await trpc.comments.addNote.mutate({ target, body });
          router.refresh();
        }}
      />
    </section>
  );
}

function NoteForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: string;
  submitLabel: string;
  onSubmit: (body: string) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [body, setBody] = useState(initial ?? "");
  const send = useSubmit(
    () => onSubmit(body),
    () => {
      if (initial === undefined) setBody("");
    },
  );
  return (
    <form className="stack" onSubmit={send.submit}>
      <FormError message={send.errors.form} />
      <div className="field">
        <label htmlFor={`${id}-note`}>{initial === undefined ? "New private note" : "Edit private note"}</label>
        <textarea id={`${id}-note`} rows={2} maxLength={2000} value={body} onChange={(e) => setBody(e.target.value)} />
        {send.errors.fields.body ? <p className="field-error">{send.errors.fields.body.join(" ")}</p> : null}
      </div>
      <div className="row">
        <button type="submit" className="secondary" disabled={send.pending}>
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
