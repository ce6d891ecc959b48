import type { Metadata } from "next";
import Link from "next/link";
import { formatDuration } from "@/app/_lib/format";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { sessionOfSubject } from "@/server/access/access";
import { listRecordHistory } from "@/server/records/performance-records";

export const metadata: Metadata = { title: "Records" };

export default async function RecordsPage() {
  const user = await requireUser();
  const history = await listRecordHistory(getDb(), sessionOfSubject(user.id));
  const current = history.filter((r) => r.current);
  return (
    <>
      <h1>Records</h1>
      <p className="muted">Your best time for each boat and distance, from distance efforts you paddled or uploaded, and how each record improved.</p>
      {current.length === 0 ? (
        <div className="card empty">
          <p>No records yet: they appear with your first distance effort.</p>
        </div>
      ) : (
        <table aria-label="Current records">
          <thead>
            <tr>
              <th scope="col">Boat</th>
              <th scope="col" className="num">Distance</th>
              <th scope="col" className="num">Best time</th>
              <th scope="col">Set on</th>
              <th scope="col">History</th>
            </tr>
          </thead>
          <tbody>
            {current.map((record) => (
              <tr key={`${record.vesselType}-${record.distanceM}`}>
                <td>{record.vesselType}</td>
                <td className="num">{record.distanceM} m</td>
                <td className="num">
                  <Link href={`/sessions/${record.resultId}`}>{formatDuration(record.durationMs)}</Link>
                </td>
                <td>{record.date}</td>
                <td>
                  {history
                    .filter((h) => h.vesselType === record.vesselType && h.distanceM === record.distanceM)
                    .map((h) => `${formatDuration(h.durationMs)} (${h.date})`)
                    .join(" → ")}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
