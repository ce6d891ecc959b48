import { CommentThread } from "@/app/_components/comments/comment-thread";
import { PrivateNotes } from "@/app/_components/comments/private-notes";
import { listComments } from "@/server/comments/comments";
import { privateNotesFor } from "@/server/comments/private-notes";
import { getDb } from "@/server/db/client";
import type { TrainingView } from "@/server/trainings/training-view";

/** The training's comments (a moment: a work set), and its coaches' private notes for the coaches only. */
export async function TrainingComments({ view, userId }: { view: TrainingView; userId: number }) {
  const db = getDb();
  const thread = { kind: "training" as const, id: view.id };
  const [comments, notes] = [await listComments(db, userId, thread), await privateNotesFor(db, userId, thread)];
  const workSets = view.sets.filter((s) => s.kind === "work").map((s) => s.workNumber!);
  return (
    <>
      <CommentThread thread={thread} comments={comments} choices={{ workSets }} />
      {notes ? <PrivateNotes target={thread} notes={notes} /> : null}
    </>
  );
}
