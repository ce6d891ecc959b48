"use client";

import { useRouter } from "next/navigation";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export function AcceptInvitation({ token, signedInAs, invitedEmail }: { token: string; signedInAs: string; invitedEmail: string }) {
  const router = useRouter();
  const accept = useSubmit(
    () => trpc.athleteLinks.accept.mutate({ token }),
    () => {
      router.push("/account/athlete");
      router.refresh();
    },
  );
  return (
    <div className="stack">
      <p>
        Signed in as {signedInAs}.{" "}
        {signedInAs.toLowerCase() === invitedEmail ? null : (
          <>The invitation is for {invitedEmail}: sign in with that address to accept it.</>
        )}
      </p>
      <FormError message={accept.errors.form} />
      <div className="row">
        <button type="button" disabled={accept.pending} onClick={() => accept.submit()}>
          Accept and link
        </button>
      </div>
    </div>
  );
}
