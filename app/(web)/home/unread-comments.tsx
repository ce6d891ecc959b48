import Link from "next/link";
import { readUnreadComments } from "@/server/comments/unread";
import { getDb } from "@/server/db/client";
import { MarkAllReadButton } from "./mark-all-read";

/**
 * Comments others wrote on the person's sessions and trainings that they have not read yet (docs/comments.md
 * "Unread"): the newest threads first, each with its count and newest comment. Nothing when all is read.
 */
export async function UnreadComments({ userId }: { userId: number }) {
  const unread = await readUnreadComments(getDb(), userId);
  if (!unread.total) return null;
  return (
    <section aria-labelledby="unread-heading" className="stack" data-testid="unread-comments">
      <div className="page-header">
        <h2 id="unread-heading">
          Unread comments <span className="badge">{unread.total}</span>
        </h2>
        <MarkAllReadButton />
      </div>
      <ul className="card plain-list">
        {unread.threads.map((t) => (
          <li key={`${t.kind}${t.id}`} className="unread-thread">
            <Link href={`/${t.kind === "session" ? "sessions" : "trainings"}/${t.id}#comments-heading`}>{t.label}</Link>{" "}
            <span className="muted">
              ({t.unread} new) · {t.latest.authorName}:
            </span>{" "}
            <span className="comment-excerpt">{t.latest.excerpt}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
