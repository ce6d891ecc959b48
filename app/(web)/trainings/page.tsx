import type { Metadata } from "next";
import Link from "next/link";
import { formatDuration } from "@/app/_lib/format";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listTrainings } from "@/server/trainings/training-view";
import { TrainingStatusBadge } from "./training-status";

export const metadata: Metadata = { title: "Trainings" };

/** The owner's trainings, newest first (by recording time; by upload time until processed), 25 a page. */
export default async function TrainingsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser();
  const after = (await searchParams).after;
  const cursor = typeof after === "string" ? after : undefined;
  const { items, nextCursor } = await listTrainings(getDb(), user.id, cursor);
  return (
    <>
      <div className="page-header">
        <h1>Trainings</h1>
        {user.canCreateSessions ? (
          <Link className="button" href="/upload?kind=training">
            Upload a training
          </Link>
        ) : null}
      </div>
      <p className="muted">A training is one recording of an interval practice: its work sets and the rests between them.</p>
      {items.length === 0 ? (
        <p className="card empty">
          {cursor ? "No older trainings." : "No trainings yet. Upload a recording and choose “This is a training”."}
        </p>
      ) : (
        <div className="table-scroll table-card">
          <table aria-label="Trainings" data-testid="trainings-list">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Training</th>
                <th scope="col">Status</th>
                <th scope="col">Work sets</th>
                <th scope="col" className="wide-only">
                  Distance
                </th>
                <th scope="col" className="wide-only">
                  Time
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((t) => (
                <tr key={t.id}>
                  <td>
                    {t.date ? (
                      `${t.date} ${t.timeOfDay?.slice(0, 5) ?? ""}`
                    ) : (
                      <span className="muted">uploaded {t.uploadedAt.slice(0, 10)}</span>
                    )}
                  </td>
                  <td>
                    <Link href={`/trainings/${t.id}`}>{t.title || `Training ${t.id}`}</Link>
                    <span className="muted">
                      {" "}
                      · {t.vesselType}
                      {t.templateName ? ` · ${t.templateName}` : ""}
                    </span>
                  </td>
                  <td>
                    <TrainingStatusBadge status={t.status} />
                  </td>
                  <td>{t.workSetCount ?? "—"}</td>
                  <td className="wide-only">{t.distanceM !== null ? `${t.distanceM} m` : "—"}</td>
                  <td className="wide-only">{t.durationMs !== null ? formatDuration(t.durationMs) : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label="Training pages" className="row pager">
        {cursor ? <Link href="/trainings">Newest trainings</Link> : null}
        {nextCursor ? <Link href={`/trainings?after=${encodeURIComponent(nextCursor)}`}>Older trainings</Link> : null}
      </nav>
    </>
  );
}
