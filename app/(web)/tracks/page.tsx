import type { Metadata } from "next";
import { EntityList } from "@/app/_components/entity-list";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listAccessibleTracks } from "@/server/tracks/tracks";

export const metadata: Metadata = { title: "Tracks" };

type Track = Awaited<ReturnType<typeof listAccessibleTracks>>[number];

function visibility(t: Track): string {
  if (t.isPublic) return "Public";
  if (!t.editable) return "Shared with you";
  return t.sharedTeamIds.length ? `Shared with ${t.sharedTeamIds.length} team(s)` : "Private";
}

export default async function TracksPage() {
  const user = await requireUser();
  const tracks = await listAccessibleTracks(getDb(), user.id);
  return (
    <EntityList
      title="Tracks"
      action={{ href: "/tracks/new", label: "Add track" }}
      empty="No tracks yet. A track is the course where a session is paddled; every upload names one."
      rows={tracks}
      name={{ header: "Name", hrefBase: "/tracks", text: (t) => t.name }}
      columns={[
        { header: "Location", cell: (t) => t.location },
        { header: "Visibility", cell: visibility },
      ]}
    />
  );
}
