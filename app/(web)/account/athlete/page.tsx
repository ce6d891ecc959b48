import type { Metadata } from "next";
import { getLinkedAthleteProfile } from "@/server/athletes/athlete-links";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { OwnAthleteProfile } from "./own-athlete-profile";

export const metadata: Metadata = { title: "Athlete profile" };

/** The account's own athlete profile: the record linked to it, or a form to create one. */
export default async function AthleteProfilePage() {
  const user = await requireUser();
  const profile = await getLinkedAthleteProfile(getDb(), user.id);
  return (
    <>
      <h1>Athlete profile</h1>
      <OwnAthleteProfile
        profile={
          profile && {
            id: profile.id,
            fullName: `${profile.name} ${profile.surname}`.trim(),
            modality: profile.modality,
            managedBy: profile.managedBy.self ? null : profile.managedBy.name,
          }
        }
      />
    </>
  );
}
