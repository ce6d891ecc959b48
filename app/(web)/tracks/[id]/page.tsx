import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { loadOr404, parseId } from "@/app/_lib/params";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { DeleteEntityButton } from "@/app/_components/delete-entity";
import { trackDeletion } from "@/server/tracks/delete-track";
import { getAccessibleTrack, listOwnTeamsForSharing } from "@/server/tracks/tracks";
import { TrackForm } from "../track-form";

export const metadata: Metadata = { title: "Track" };

export default async function TrackPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const id = parseId((await params).id) ?? notFound();
  const db = getDb();
  const track = await loadOr404(() => getAccessibleTrack(db, user.id, id));
  if (!track.editable) {
    return (
      <>
        <h1>{track.name}</h1>
        <p className="card">{track.location || "No location given."}</p>
        <p className="muted">{track.isPublic ? "A public track." : "Shared with you by one of your teams."}</p>
      </>
    );
  }
  const [teams, deletion] = await Promise.all([listOwnTeamsForSharing(db, user.id), trackDeletion(db, user.id, track.id)]);
  return (
    <>
      <h1>Edit {track.name}</h1>
      <TrackForm track={track} teams={teams} />
      <section aria-labelledby="delete-track-heading" className="card stack">
        <h2 id="delete-track-heading">Delete track</h2>
        <p className="muted">{deletion.refusal ?? deletion.statement}</p>
        <div>
          <DeleteEntityButton
            kind="track"
            id={track.id}
            name={track.name}
            statement={deletion.statement}
            refusal={deletion.refusal}
            redirectTo="/tracks"
          />
        </div>
      </section>
    </>
  );
}
