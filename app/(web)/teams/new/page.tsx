import type { Metadata } from "next";
import { TeamNameForm } from "../team-forms";

export const metadata: Metadata = { title: "Create team" };

export default function NewTeamPage() {
  return (
    <>
      <h1>Create team</h1>
      <TeamNameForm />
    </>
  );
}
