import type { Metadata } from "next";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { lactateTimeOf, listLactate, listWeights } from "@/server/health/health";
import { listRecentResults } from "@/server/results/list-recent-results";
import { DeleteHealthButton, LactateForm, WeightForm } from "./health-forms";

export const metadata: Metadata = { title: "Health" };

const PROVENANCE_LABEL = { manual: "entered by you", device: "sensor unit", external: "imported (never shared with apps)" } as const;

/** Manual rows say who typed them in: you, or the coach who manages your athlete record. */
const sourceOf = (
  row: { provenance: keyof typeof PROVENANCE_LABEL; enteredByUserId: number | null; enteredByName: string | null },
  userId: number,
) =>
  row.provenance === "manual" && row.enteredByUserId !== null && row.enteredByUserId !== userId
    ? `entered by ${row.enteredByName} (coach)`
    : PROVENANCE_LABEL[row.provenance];

export default async function HealthPage() {
  const user = await requireUser();
  const db = getDb();
  const [weights, lactate, sessions] = await Promise.all([
    listWeights(db, user.id, { shareableOnly: false }),
    listLactate(db, user.id, { shareableOnly: false }),
    listRecentResults(db, user.id, 100),
  ]);
  const sessionLabel = new Map(sessions.map((s) => [s.id, `${s.date} ${s.vesselType} ${s.distanceM} m`]));
  return (
    <>
      <h1>Health</h1>
      <p className="muted">
        Only you see these entries (and a coach who manages your athlete record sees the ones they entered). Applications you connect can
        read them only if you tick “health data” when you allow them.
      </p>
      <h2>Weight</h2>
      <WeightForm />
      {weights.length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col" className="num">
                Weight
              </th>
              <th scope="col">Source</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {weights.map((w) => (
              <tr key={w.id}>
                <td>{w.measuredOn}</td>
                <td className="num">{w.weightKg} kg</td>
                <td>{sourceOf(w, user.id)}</td>
                <td>
                  <DeleteHealthButton kind="weight" id={w.id} label={`weight of ${w.measuredOn}`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No weight entries yet.</p>
      )}
      <h2>Lactate</h2>
      {sessions.length ? (
        <LactateForm sessions={sessions.map((s) => ({ id: s.id, label: sessionLabel.get(s.id)!, measuredAt: lactateTimeOf(s) }))} />
      ) : (
        <p className="muted">Lactate readings belong to a session: upload one first.</p>
      )}
      {lactate.length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Session</th>
              <th scope="col" className="num">
                Lactate
              </th>
              <th scope="col">Note</th>
              <th scope="col">Source</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {lactate.map((l) => (
              <tr key={l.id}>
                <td>{l.measuredAt.toISOString().slice(0, 16).replace("T", " ")}</td>
                <td>{l.resultId ? (sessionLabel.get(l.resultId) ?? `#${l.resultId}`) : ""}</td>
                <td className="num">{l.lactateMmolL} mmol/L</td>
                <td>{l.note}</td>
                <td>{sourceOf(l, user.id)}</td>
                <td>
                  <DeleteHealthButton kind="lactate" id={l.id} label="lactate reading" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
