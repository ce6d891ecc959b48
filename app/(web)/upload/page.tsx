import type { Metadata } from "next";
import { listAccessibleAthletes } from "@/server/athletes/athletes";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listReferenceData } from "@/server/reference/reference";
import { listAccessibleTracks } from "@/server/tracks/tracks";
import { listTemplateChoices } from "@/server/trainings/training-view";
import { UploadForm } from "./upload-form";

export const metadata: Metadata = { title: "Upload a session" };

export default async function UploadPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const initialKind = (await searchParams).kind === "training" ? "training" : "session";
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
  const [reference, tracks, athletes, templates] = await Promise.all([
    listReferenceData(db),
    listAccessibleTracks(db, user.id),
    listAccessibleAthletes(db, user.id),
    listTemplateChoices(db, user.id),
  ]);
  const today = new Date().toISOString().slice(0, 10);
  return (
    <>
      <h1>Upload a session or a training</h1>
      {
        <UploadForm
          vessels={reference.vessels.filter((v) => v.supported).map((v) => ({ id: v.id, type: v.type, npeople: v.npeople }))}
          categories={reference.categories}
          paces={reference.paces}
          tracks={tracks.map((t) => ({ id: t.id, name: t.name }))}
          athletes={athletes.map((a) => ({
            id: a.id,
            name: `${a.name} ${a.surname}`.trim(),
            active: a.subscriptionActiveUntil !== null && a.subscriptionActiveUntil >= today,
            until: a.subscriptionActiveUntil,
            editable: a.editable,
          }))}
          templates={templates}
          initialKind={initialKind}
        />
      }
    </>
  );
}
