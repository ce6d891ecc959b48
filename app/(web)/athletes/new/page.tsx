import type { Metadata } from "next";
import { requireUser } from "@/server/auth/current-user";
import { managesClub } from "@/server/users/navigation";
import { AthleteForm } from "../athlete-form";

export const metadata: Metadata = { title: "Add athlete" };

/** Adding athletes is club administration: a coach's (docs/web-app.md "A new coach's defects"). */
export default async function NewAthletePage() {
  const user = await requireUser();
  return (
    <>
      <h1>Add athlete</h1>
      {managesClub(user) ? <AthleteForm /> : <p className="card empty">Adding athletes is for a club&apos;s coaches.</p>}
    </>
  );
}
