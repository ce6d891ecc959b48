import type { Metadata } from "next";
import Link from "next/link";
import { listAccessibleAthletes } from "@/server/athletes/athletes";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listReferenceData } from "@/server/reference/reference";
import { listAccessibleTracks } from "@/server/tracks/tracks";
import { UploadForm } from "./upload-form";

export const metadata: Metadata = { title: "Upload a session" };

export default async function UploadPage() {
  const user = await requireUser();
  if (!user.canCreateSessions) {
    return (
      <>
        <h1>Upload a session</h1>
        <p className="card">Your role ({user.role}) does not allow creating sessions. Ask your club&apos;s coach or an operator.</p>
      </>
    );
  }
  const db = getDb();
  const [reference, tracks, athletes] = await Promise.all([listReferenceData(db), listAccessibleTracks(db, user.id), listAccessibleAthletes(db, user.id)]);
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <h1>Upload a session</h1>
      {tracks.length === 0 ? (
        <p className="card">
          An upload names a track: <Link href="/tracks/new">add one first</Link>.
        </p>
      ) : (
        <UploadForm
          vessels={reference.vessels.filter((v) => v.supported).map((v) => ({ id: v.id, type: v.type, npeople: v.npeople }))}
          categories={reference.categories}
          paces={reference.paces}
          tracks={tracks.map((t) => ({ id: t.id, name: t.name }))}
          athletes={athletes.map((a) => ({
            id: a.id,
            name: `${a.name} ${a.surname}`.trim(),
            active: a.subscriptionActiveUntil !== null && a.subscriptionActiveUntil >= today,
          }))}
        />
      )}
    </>
  );
}
