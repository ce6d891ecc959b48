import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listRecentResults } from "@/server/results/list-recent-results";
import { formatDuration } from "@/app/_lib/format";

export const metadata: Metadata = { title: "Sessions" };

export default async function HomePage() {
  const user = await requireUser();
  const sessions = await listRecentResults(getDb(), user.id);
  return (
    <>
      <div className="page-header">
        <h1>Sessions</h1>
      </div>
      {sessions.length === 0 ? (
        <div className="card empty">
          <h2>No sessions yet</h2>
          <p>
            Sessions appear here once a <code>.svc</code> file from your sensor unit has been uploaded, through the web upload or
            the results API with a key pair from the <Link href="/developer">developer portal</Link>.
          </p>
          <p className="muted">
            An upload needs a <Link href="/tracks/new">track</Link> and the crew&apos;s <Link href="/athletes/new">athletes</Link>: set
            them up first.
          </p>
        </div>
      ) : (
        <table>
          <caption className="muted" style={{ captionSide: "bottom", textAlign: "left", padding: "0.5rem" }}>
            Newest first.
          </caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Boat</th>
              <th scope="col">Crew</th>
              <th scope="col">Track</th>
              <th scope="col" className="num">
                Distance
              </th>
              <th scope="col" className="num">
                Time
              </th>
              <th scope="col">Notes</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link href={`/sessions/${s.id}`}>{s.date}</Link> <span className="muted">{s.timeOfDay.slice(0, 5)}</span>
                </td>
                <td>{s.vesselType}</td>
                <td>{s.crew.join(", ")}</td>
                <td>{s.trackName}</td>
                <td className="num">{s.distanceM} m</td>
                <td className="num">{formatDuration(s.durationMs)}</td>
                <td>
                  {s.important ? <span className="badge warn">Review</span> : null} {s.competition || s.description}
                  {s.status !== "processed" ? <span className="badge">{s.status}</span> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
