import { LactateForm, WeightForm, DeleteHealthButton } from "@/app/(web)/health/health-forms";
import type { Db } from "@/server/db/client";
import { lactateTimeOf, listAthleteSessionsForHealth, listEnteredForAthlete } from "@/server/health/health";

/**
 * The managing coach records weight and lactate for a linked athlete; the rows
 * go to the athlete's account (docs/web-app.md "Health entered by a coach").
 * The coach sees only what they entered, never the athlete's own entries.
 */
export async function AthleteHealth({
  db,
  coachId,
  athleteId,
  name,
  linked,
}: {
  db: Db;
  coachId: number;
  athleteId: number;
  name: string;
  linked: boolean;
}) {
  if (!linked) {
    return (
      <section aria-labelledby="athlete-health-heading">
        <h2 id="athlete-health-heading">Health</h2>
        <p className="muted">
          Weight and lactate belong to the athlete&apos;s own account: link {name} to an account (above) to record them.
        </p>
      </section>
    );
  }
  const [entered, sessions] = await Promise.all([
    listEnteredForAthlete(db, coachId, athleteId),
    listAthleteSessionsForHealth(db, coachId, athleteId),
  ]);
  const label = new Map(sessions.map((s) => [s.id, `${s.date} ${s.vesselType} ${s.distanceM} m`]));
  return (
    <section aria-labelledby="athlete-health-heading" className="stack">
      <h2 id="athlete-health-heading">Health</h2>
      <p className="muted">
        What you enter here is stored on {name}&apos;s account as entered by you: {name} sees it on their health page, and applications see
        it only if {name} allows health data.
      </p>
      <h3>Weight</h3>
      <WeightForm athleteId={athleteId} />
      {entered.weights.length ? (
        <div className="table-card">
          <table aria-label={`Weights you entered for ${name}`}>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col" className="num">
                  Weight
                </th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {entered.weights.map((w) => (
                <tr key={w.id}>
                  <td>{w.measuredOn}</td>
                  <td className="num">{w.weightKg} kg</td>
                  <td>
                    <DeleteHealthButton kind="weight" id={w.id} label={`weight of ${w.measuredOn}`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <h3>Lactate</h3>
      {sessions.length ? (
        <LactateForm
          athleteId={athleteId}
          sessions={sessions.map((s) => ({ id: s.id, label: label.get(s.id)!, measuredAt: lactateTimeOf(s) }))}
        />
      ) : (
        <p className="muted">Lactate readings belong to a session {name} paddled in.</p>
      )}
      {entered.lactate.length ? (
        <div className="table-card">
          <table aria-label={`Lactate readings you entered for ${name}`}>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Session</th>
                <th scope="col" className="num">
                  Lactate
                </th>
                <th scope="col">Note</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {entered.lactate.map((l) => (
                <tr key={l.id}>
                  <td>{l.measuredAt.toISOString().slice(0, 16).replace("T", " ")}</td>
                  <td>{l.resultId ? (label.get(l.resultId) ?? `#${l.resultId}`) : ""}</td>
                  <td className="num">{l.lactateMmolL} mmol/L</td>
                  <td>{l.note}</td>
                  <td>
                    <DeleteHealthButton kind="lactate" id={l.id} label="lactate reading" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
