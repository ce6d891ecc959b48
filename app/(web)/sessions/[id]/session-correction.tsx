import { listAccessibleAthletes } from "@/server/athletes/athletes";
import { getDb } from "@/server/db/client";
import { listReferenceData } from "@/server/reference/reference";
import { listAccessibleTracks } from "@/server/tracks/tracks";
import type { SessionView } from "./load-session-view";
import { SessionCorrectionForm } from "./session-correction-form";

/** Corrections after upload: the owner only, folded away until asked for. */
export async function SessionCorrection({ view }: { view: SessionView }) {
  if (!view.owner) return null;
  const db = getDb();
  const [reference, tracks, athletes] = await Promise.all([
    listReferenceData(db),
    listAccessibleTracks(db, view.user.id),
    listAccessibleAthletes(db, view.user.id),
  ]);
  const s = view.detail.summary;
  return (
    <details className="corrections">
      <summary>
        <h2 id="correct-heading">Correct this session</h2>
      </summary>
      <SessionCorrectionForm
        resultId={view.resultId}
        boats={reference.vessels.filter((v) => v.supported).map((v) => ({ id: v.id, label: v.type, npeople: v.npeople }))}
        tracks={tracks.map((t) => ({ id: t.id, label: t.name }))}
        categories={reference.categories.map((c) => ({ id: c.id, label: c.name }))}
        paces={reference.paces.map((p) => ({ id: p.id, label: p.name }))}
        athletes={athletes.map((a) => ({ id: a.id, label: `${a.name} ${a.surname}`.trim() }))}
        current={{
          vesselId: s.vesselId,
          trackId: s.trackId,
          categoryId: s.categoryId,
          paceId: s.paceId,
          competition: s.competition,
          description: s.description,
          important: s.important,
          crew: view.detail.crew.map((c) =>
            c.athleteId !== null
              ? { athleteId: c.athleteId }
              : { name: c.externalName ?? "", surname: c.externalSurname ?? "", weightKg: view.typedWeights?.[c.seat] ?? null },
          ),
        }}
      />
    </details>
  );
}
