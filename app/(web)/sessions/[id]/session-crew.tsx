import { crewMemberName, type SessionView } from "./load-session-view";

/**
 * Crew boats: who sat where. The unit measures the boat, not each seat (the
 * .svc file has one IMU, one GNSS and one heart-rate strap: docs/svc-format.md),
 * so speed, rate and distance per stroke are the crew's together; the page
 * says so rather than inventing per-seat numbers (docs/web-app.md "Session page").
 */
export function SessionCrew({ view }: { view: SessionView }) {
  const crew = view.detail.crew;
  if (crew.length < 2) return null;
  return (
    <section aria-labelledby="crew-heading" className="card">
      <h2 id="crew-heading">Crew by seat</h2>
      <p className="muted" data-testid="crew-measures-boat">
        The unit measures the boat: speed, stroke rate and distance per stroke on this page are the whole crew&apos;s. The file has no
        per-seat sensors; the heart-rate strap, when worn, is in seat 1.
      </p>
      <table aria-label="Crew by seat">
        <thead>
          <tr>
            <th scope="col">Seat</th>
            <th scope="col">Paddler</th>
            <th scope="col">Notes</th>
          </tr>
        </thead>
        <tbody>
          {crew.map((c) => (
            <tr key={c.seat}>
              <td>{c.seat}</td>
              <td>{crewMemberName(c)}</td>
              <td>
                {[
                  c.seat === 1 ? "stroke seat (sets the rate; wears the heart-rate strap)" : null,
                  c.athleteId === null && typeof view.typedWeights?.[c.seat] === "number"
                    ? `${view.typedWeights[c.seat]} kg as typed`
                    : null,
                ]
                  .filter(Boolean)
                  .join(" · ") || "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
