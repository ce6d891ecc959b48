import { PrivateNotes } from "@/app/_components/comments/private-notes";
import { privateNotesFor } from "@/server/comments/private-notes";
import type { Db } from "@/server/db/client";

/** The athlete's coaches' private notes: rendered for their coaches only, nothing at all for anyone else (the athlete included). */
export async function AthletePrivateNotes({ db, userId, athleteId }: { db: Db; userId: number; athleteId: number }) {
  const notes = await privateNotesFor(db, userId, { kind: "athlete", id: athleteId });
  return notes ? <PrivateNotes target={{ kind: "athlete", id: athleteId }} notes={notes} /> : null;
}
