import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BestsTable } from "@/app/_components/bests-table";
import { SessionLog } from "@/app/_components/session-log";
import { listPersonalBests, listProgression } from "@/server/athletes/athlete-bests";
import { athleteLinkStatus } from "@/server/athletes/athlete-links";
import { getAccessibleAthlete } from "@/server/athletes/athletes";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { parseLogQuery } from "@/server/sessions/session-log";
import { loadOr404, parseId } from "@/app/_lib/params";
import { AthleteForm } from "../athlete-form";
import { DeleteEntityButton } from "@/app/_components/delete-entity";
import { athleteDeletion } from "@/server/athletes/delete-athlete";
import { AthleteHealth } from "./athlete-health";
import { AthleteLink } from "./athlete-link";
import { AthletePrivateNotes } from "./athlete-private-notes";
import { ProgressionChart } from "./progression-chart";

export const metadata: Metadata = { title: "Athlete" };

/** An athlete: profile, personal bests per boat class and distance, and their sessions (the log, pre-filtered). */
export default async function AthletePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireUser();
  const id = parseId((await params).id) ?? notFound();
  const db = getDb();
  const athlete = await loadOr404(() => getAccessibleAthlete(db, user.id, id));
  const [bests, query] = [await listPersonalBests(db, id), parseLogQuery(await searchParams)];
  const fullName = `${athlete.name} ${athlete.surname}`.trim();
  // The season's progression of the boat class and distance they paddle most.
  const main = [...bests].sort((a, b) => b.sessions - a.sessions)[0];
  const progression = main ? await listProgression(db, id, main.boatClass, main.distanceM) : [];
  // Who may link this record to an account: the one who manages it (docs/access.md "Linking").
  const link = athlete.editable ? await athleteLinkStatus(db, user.id, athlete.id) : null;
  const deletion = athlete.editable ? await athleteDeletion(db, user.id, athlete.id) : null;
  return (
    <>
      <h1>{fullName}</h1>
      <p>
        <Link href={`/athletes/${id}/load`} data-testid="athlete-load-link">
          Training load, fitness and form
        </Link>
      </p>
      {athlete.editable && link ? (
        <>
          <details className="corrections">
            <summary>
              <h2>Edit profile</h2>
            </summary>
            <AthleteForm athlete={athlete} />
          </details>
          <AthleteLink
            athleteId={athlete.id}
            athleteName={fullName}
            linked={link.linked}
            pending={link.pending && { email: link.pending.email, expiresAt: link.pending.expiresAt.toISOString() }}
          />
          <AthleteHealth db={db} coachId={user.id} athleteId={athlete.id} name={fullName} linked={link.linked} />
        </>
      ) : (
        <>
          <dl className="card facts">
            <div>
              <dt>Modality</dt>
              <dd>{athlete.modality || "—"}</dd>
            </div>
            <div>
              <dt>Date of birth</dt>
              <dd>{athlete.dateOfBirth ?? "—"}</dd>
            </div>
          </dl>
          <p className="muted">This athlete is managed by another account.</p>
        </>
      )}

      <AthletePrivateNotes db={db} userId={user.id} athleteId={athlete.id} />
      <h2 id="bests-heading">Personal bests</h2>
      {bests.length ? (
        <BestsTable bests={bests} labelledBy="bests-heading" testId="personal-bests" />
      ) : (
        <p className="muted">No distance efforts yet.</p>
      )}

      {main && progression.length > 1 ? (
        <>
          <h2>Progression</h2>
          <ProgressionChart
            title={`${main.boatClass} ${main.distanceM} m: times over the season (line: best so far)`}
            points={progression}
          />
        </>
      ) : null}

      <h2>Sessions</h2>
      <SessionLog userId={user.id} query={query} basePath={`/athletes/${id}`} fixed={{ athlete: id }} />
      {deletion ? (
        <section aria-labelledby="delete-athlete-heading" className="card stack">
          <h2 id="delete-athlete-heading">Delete athlete</h2>
          <p className="muted">{deletion.statement}</p>
          <div>
            <DeleteEntityButton kind="athlete" id={athlete.id} name={fullName} statement={deletion.statement} redirectTo="/athletes" />
          </div>
        </section>
      ) : null}
    </>
  );
}
