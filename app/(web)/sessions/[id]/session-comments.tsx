import { CommentThread } from "@/app/_components/comments/comment-thread";
import { PrivateNotes } from "@/app/_components/comments/private-notes";
import { listComments } from "@/server/comments/comments";
import { privateNotesFor } from "@/server/comments/private-notes";
import { getDb } from "@/server/db/client";
import type { SessionView } from "./load-session-view";

/** The session's comments (a moment: a split as shown, or a replay time), and its coaches' private notes for the coaches only. */
export async function SessionComments({ view }: { view: SessionView }) {
  const db = getDb();
  const thread = { kind: "session" as const, id: view.resultId };
  const [comments, notes] = [await listComments(db, view.user.id, thread), await privateNotesFor(db, view.user.id, thread)];
  const hasSplits = view.analysis !== null && view.detail.strokes.length > 0;
  return (
    <>
      <CommentThread
        thread={thread}
        comments={comments}
        choices={{ splitCount: hasSplits ? view.splitCount : 0, replayDurationS: view.detail.summary.durationMs / 1000 }}
      />
      {notes ? <PrivateNotes target={thread} notes={notes} /> : null}
    </>
  );
}
