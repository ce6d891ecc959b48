import type { Metadata } from "next";
import { EntityList } from "@/app/_components/entity-list";
import { listAccessibleAthletes } from "@/server/athletes/athletes";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { managesClub } from "@/server/users/navigation";

export const metadata: Metadata = { title: "Athletes" };

export default async function AthletesPage() {
  const user = await requireUser();
  const athletes = await listAccessibleAthletes(getDb(), user.id);
  return (
    <EntityList
      title="Athletes"
      action={managesClub(user) ? { href: "/athletes/new", label: "Add athlete" } : null}
      empty="No athletes yet. Add the paddlers whose sessions you upload; each seat of a crew names one."
      rows={athletes}
      name={{ header: "Name", hrefBase: "/athletes", text: (a) => `${a.name} ${a.surname}`.trim() }}
      columns={[
        { header: "Modality", cell: (a) => a.modality },
        { header: "Date of birth", cell: (a) => a.dateOfBirth ?? "" },
        { header: "Weight", numeric: true, cell: (a) => (a.weightKg !== null ? `${a.weightKg} kg` : "") },
        {
          header: "Subscription",
          cell: (a) => (a.subscriptionActiveUntil ? `until ${a.subscriptionActiveUntil}` : <span className="muted">none</span>),
        },
      ]}
    />
  );
}
