import type { Metadata } from "next";
import { requireUser } from "@/server/auth/current-user";
import { managesClub } from "@/server/users/navigation";
import { TeamNameForm } from "../team-forms";

export const metadata: Metadata = { title: "Create team" };

/** Creating teams is club administration: a coach's (docs/web-app.md "A new coach's defects"). */
export default async function NewTeamPage() {
  const user = await requireUser();
  return (
    <>
      <h1>Create team</h1>
      {managesClub(user) ? <TeamNameForm /> : <p className="card empty">Creating teams is for a club&apos;s coaches.</p>}
    </>
  );
}
