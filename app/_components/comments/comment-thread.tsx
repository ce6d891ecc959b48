"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { trpc } from "@/app/_lib/trpc";
import type { CommentView } from "@/server/comments/comments";
import type { Thread } from "@/server/comments/threads";
import { CommentForm } from "./comment-form";
import { momentHref, momentLabel, type MomentChoices } from "./moment";

/**
 * The comments of a session or a training (docs/comments.md): everyone who may see it reads and writes; each
 * person edits and deletes their own. A comment's moment is a link to that place on the page. Opening the
 * page marks the thread read for the person (the home page's unread list).
 */
export function CommentThread({ thread, comments, choices }: { thread: Thread; comments: CommentView[]; choices: MomentChoices }) {
  const router = useRouter();
  const [editing, setEditing] = useState<number | null>(null);
  const unreadCount = comments.length;
  useEffect(() => {
    if (unreadCount) void trpc.comments.markRead.mutate(thread).catch(() => {});
  }, [thread, unreadCount]);
  return (
    <section aria-labelledby="comments-heading" className="comments" data-testid="comments">
      <h2 id="comments-heading">Comments</h2>
      {comments.length ? (
        <ol className="comment-list">
          {comments.map((c) => (
            <li key={c.id} className="card comment" data-testid="comment">
              <p className="comment-meta">
                <strong>{c.authorName}</strong>{" "}
                <time className="muted" dateTime={c.createdAt}>
                  {c.createdAt.slice(0, 16).replace("T", " ")} UTC
                </time>
                {c.edited ? <span className="muted"> · edited</span> : null}
                {c.moment ? (
                  <>
                    {" · "}
                    <a className="moment-link" href={momentHref(c.moment, choices.splitCount ?? null)}>
                      {momentLabel(c.moment)}
                    </a>
                  </>
                ) : null}
              </p>
              {editing === c.id ? (
                <CommentForm
                  choices={choices}
                  initial={{ body: c.body, moment: c.moment }}
                  submitLabel="Save"
                  onCancel={() => setEditing(null)}
                  onSubmit={async (value) => {
                    await trpc.comments.edit.mutate({ id: c.id, ...value });
                    setEditing(null);
                    router.refresh();
                  }}
                />
              ) : (
                <p className="pre-line comment-body">{c.body}</p>
              )}
              {c.mine && editing !== c.id ? (
                <div className="row">
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => setEditing(c.id)}
                    aria-label={`Edit your comment of ${c.createdAt.slice(0, 16).replace("T", " ")}`}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    label="Delete"
                    ariaLabel={`Delete your comment of ${c.createdAt.slice(0, 16).replace("T", " ")}`}
                    title="Delete this comment?"
                    statement="Your comment is deleted for everyone who reads this page."
                    confirmLabel="Delete comment"
                    action={() => trpc.comments.delete.mutate({ id: c.id })}
                    onDone={() => router.refresh()}
                  />
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">No comments yet.</p>
      )}
      <CommentForm
        choices={choices}
        submitLabel="Post comment"
        onSubmit={async (value) => {
          await trpc.comments.add.mutate({ thread, ...value });
          router.refresh();
        }}
      />
    </section>
  );
}
