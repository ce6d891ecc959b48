import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listAccessibleTracks } from "@/server/tracks/tracks";

export const metadata: Metadata = { title: "Tracks" };

export default async function TracksPage() {
  const user = await requireUser();
  const tracks = await listAccessibleTracks(getDb(), user.id);
  return (
    <>
      <div className="page-header">
        <h1>Tracks</h1>
        <Link className="button" href="/tracks/new">
          Add track
        </Link>
      </div>
      {tracks.length === 0 ? (
        <div className="card empty">
          <p>No tracks yet. A track is the course where a session is paddled; every upload names one.</p>
        </div>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Location</th>
              <th scope="col">Visibility</th>
            </tr>
          </thead>
          <tbody>
            {tracks.map((t) => (
              <tr key={t.id}>
                <td>
                  <Link href={`/tracks/${t.id}`}>{t.name}</Link>
                </td>
                <td>{t.location}</td>
                <td>
                  {t.isPublic
                    ? "Public"
                    : t.editable
                      ? t.sharedTeamIds.length
                        ? `Shared with ${t.sharedTeamIds.length} team(s)`
                        : "Private"
                      : "Shared with you"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
