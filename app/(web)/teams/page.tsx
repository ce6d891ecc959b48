import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listAccessibleTeams } from "@/server/teams/teams";

export const metadata: Metadata = { title: "Teams" };

export default async function TeamsPage() {
  const user = await requireUser();
  const teams = await listAccessibleTeams(getDb(), user.id);
  return (
    <>
      <div className="page-header">
        <h1>Teams</h1>
        <Link className="button" href="/teams/new">
          Create team
        </Link>
      </div>
      {teams.length === 0 ? (
        <div className="card empty">
          <p>No teams yet. A team gives its coaches access to its athletes&apos; sessions and lets you share tracks.</p>
        </div>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Team</th>
              <th scope="col" className="num">
                Coaches
              </th>
              <th scope="col" className="num">
                Athletes
              </th>
            </tr>
          </thead>
          <tbody>
            {teams.map((t) => (
              <tr key={t.id}>
                <td>
                  <Link href={`/teams/${t.id}`}>{t.name}</Link>
                </td>
                <td className="num">{t.coachCount}</td>
                <td className="num">{t.athleteCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
