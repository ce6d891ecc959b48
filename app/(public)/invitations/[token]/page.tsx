import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { findInvitation } from "@/server/athletes/athlete-links";
import { getCurrentUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { AcceptInvitation } from "./accept-invitation";

// The token is in the path: no referrer may carry it to another site.
export const metadata: Metadata = { title: "Invitation", referrer: "no-referrer" };
export const dynamic = "force-dynamic";

/** An athlete invitation link (docs/access.md "Linking an athlete record to an account"). */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = (await findInvitation(getDb(), token)) ?? notFound();
  const user = await getCurrentUser();
  const here = `/invitations/${token}`;
  return (
    <main className="page narrow">
      <h1>Link your athlete profile</h1>
      <div className="card stack">
        <p>
          <strong>{invitation.invitedByName}</strong> invites you to link the athlete record <strong>{invitation.athleteName}</strong> to
          your account. Once linked, the sessions you paddled in are yours to see, with your own heart rate, and applications you authorize
          can read them.
        </p>
        {invitation.status !== "pending" ? (
          <p className="form-error" role="alert">
            {invitation.status === "used"
              ? "This invitation has already been used."
              : invitation.status === "expired"
                ? "This invitation has expired. Ask for a new one."
                : "This invitation was withdrawn. Ask for a new one."}
          </p>
        ) : user ? (
          <AcceptInvitation token={token} signedInAs={user.email} invitedEmail={invitation.email} />
        ) : (
          <>
            <p>It is for {invitation.email}. Sign in with that address, or create an account with it, then accept.</p>
            <div className="row">
              <Link className="button" href={`/signin?callbackUrl=${encodeURIComponent(here)}`}>
                Sign in
              </Link>
              <Link className="button secondary" href={`/signup?callbackUrl=${encodeURIComponent(here)}`}>
                Create an account
              </Link>
            </div>
          </>
        )}
      </div>
    </main>
  );
}
