import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { loadOr404, parseId } from "@/app/_lib/params";
import { listAccessibleAthletes } from "@/server/athletes/athletes";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { DeleteEntityButton } from "@/app/_components/delete-entity";
import { teamDeletion } from "@/server/teams/delete-team";
import { getAccessibleTeam } from "@/server/teams/teams";
import { AddAthleteForm, AddCoachForm, RemoveMemberButton, TeamNameForm } from "../team-forms";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage({ params }: { params: Promise<{ id: string }> }) {
  const user = await requireUser();
  const id = parseId((await params).id) ?? notFound();
  const db = getDb();
  const team = await loadOr404(() => getAccessibleTeam(db, user.id, id));
  const memberAthleteIds = new Set(team.members.map((m) => m.athleteId).filter((x) => x !== null));
  const candidates = team.editable
    ? (await listAccessibleAthletes(db, user.id))
        .filter((a) => !memberAthleteIds.has(a.id))
        .map((a) => ({ id: a.id, name: `${a.name} ${a.surname}`.trim() }))
    : [];
  const deletion = team.editable ? await teamDeletion(db, user.id, team.id) : null;
  return (
    <>
      <h1>{team.name}</h1>
      <h2>Members</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            {team.editable ? <th scope="col">Action</th> : null}
          </tr>
        </thead>
        <tbody>
          {team.members.map((m) => (
            <tr key={m.membershipId}>
              <td>{m.displayName}</td>
              <td>{m.role === "coach" ? "Coach" : "Athlete"}</td>
              {team.editable ? (
                <td>
                  <RemoveMemberButton
                    teamId={team.id}
                    membershipId={m.membershipId}
                    label={m.displayName}
                    role={m.role}
                    lastCoach={m.role === "coach" && team.coachCount === 1}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {team.editable ? (
        <>
          <h2>Add members</h2>
          <div className="card">
            <AddAthleteForm teamId={team.id} athletes={candidates} />
          </div>
          <div className="card">
            <AddCoachForm teamId={team.id} />
          </div>
          <h2>Rename</h2>
          <TeamNameForm team={team} />
          {deletion ? (
            <section aria-labelledby="delete-team-heading" className="card stack">
              <h2 id="delete-team-heading">Delete team</h2>
              <p className="muted">{deletion.statement}</p>
              <div>
                <DeleteEntityButton kind="team" id={team.id} name={team.name} statement={deletion.statement} redirectTo="/teams" />
              </div>
            </section>
          ) : null}
        </>
      ) : null}
    </>
  );
}
