import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { athleteLinkStatus } from "@/server/athletes/athlete-links";
import { getAccessibleAthlete } from "@/server/athletes/athletes";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { loadOr404, parseId } from "@/app/_lib/params";
import { AthleteForm } from "../athlete-form";
import { AthleteLink } from "./athlete-link";

export const metadata: Metadata = { title: "Athlete" };

export default async function AthletePage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const id = parseId((await params).id) ?? notFound();
  const athlete = await loadOr404(() => getAccessibleAthlete(getDb(), user.id, id));
  const fullName = `${athlete.name} ${athlete.surname}`.trim();
  if (!athlete.editable) {
    return (
      <>
        <h1>{fullName}</h1>
        <dl className="card">
          <dt>Modality</dt>
          <dd>{athlete.modality || "—"}</dd>
          <dt>Date of birth</dt>
          <dd>{athlete.dateOfBirth ?? "—"}</dd>
        </dl>
        <p className="muted">This athlete is managed by another account.</p>
      </>
    );
  }
  const link = await athleteLinkStatus(getDb(), user.id, athlete.id);
  return (
    <>
      <h1>Edit {fullName}</h1>
      <AthleteForm athlete={athlete} />
      <AthleteLink
        athleteId={athlete.id}
        athleteName={fullName}
        linked={link.linked}
        pending={link.pending && { email: link.pending.email, expiresAt: link.pending.expiresAt.toISOString() }}
      />
    </>
  );
}
