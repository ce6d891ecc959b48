import type { Metadata } from "next";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listOwnTeamsForSharing } from "@/server/tracks/tracks";
import { TrackForm } from "../track-form";

export const metadata: Metadata = { title: "Add track" };

export default async function NewTrackPage() {
  const user = await requireUser();
  const teams = await listOwnTeamsForSharing(getDb(), user.id);
  return (
    <>
      <h1>Add track</h1>
      <TrackForm teams={teams} />
    </>
  );
}
