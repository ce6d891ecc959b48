import type { Metadata } from "next";
import { EntityList } from "@/app/_components/entity-list";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { managesClub } from "@/server/users/navigation";
import { listAccessibleTeams } from "@/server/teams/teams";

export const metadata: Metadata = { title: "Teams" };

export default async function TeamsPage() {
  const user = await requireUser();
  const teams = await listAccessibleTeams(getDb(), user.id);
  return (
    <EntityList
      title="Teams"
      action={managesClub(user) ? { href: "/teams/new", label: "Create team" } : null}
      empty="No teams yet. A team gives its coaches access to its athletes' sessions and lets you share tracks."
      rows={teams}
      name={{ header: "Team", hrefBase: "/teams", text: (t) => t.name }}
      columns={[
        { header: "Coaches", numeric: true, cell: (t) => t.coachCount },
        { header: "Athletes", numeric: true, cell: (t) => t.athleteCount },
      ]}
    />
  );
}
