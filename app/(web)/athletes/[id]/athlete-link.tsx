"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Field, FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

interface Props {
  athleteId: number;
  athleteName: string;
  linked: boolean;
  pending: { email: string; expiresAt: string } | null;
}

/**
 * The manager's side of linking a record to the athlete's own account: an
 * invitation link to copy and hand over (no email is sent yet), shown once;
 * or, once linked, unlinking.
 */
export function AthleteLink({ athleteId, athleteName, linked, pending }: Props) {
  const router = useRouter();
  const [email, setEmail] = useState("");
  const [created, setCreated] = useState<{ link: string; email: string; expiresAt: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const invite = useSubmit(
    () => trpc.athleteLinks.invite.mutate({ athleteId, email }),
    (result) => {
      setCreated(result);
      setCopied(false);
      router.refresh();
    },
  );
  const unlink = useSubmit(
    () => trpc.athleteLinks.unlink.mutate({ athleteId }),
    () => router.refresh(),
  );
  const withdraw = useSubmit(
    () => trpc.athleteLinks.withdraw.mutate({ athleteId }),
    () => {
      setCreated(null);
      router.refresh();
    },
  );

  if (linked) {
    return (
      <section className="card stack" aria-labelledby="athlete-link-heading">
        <h2 id="athlete-link-heading">Athlete&apos;s account</h2>
        <p>{athleteName} is linked to their own account: they see the sessions they paddled in, and their own heart rate.</p>
        <FormError message={unlink.errors.form} />
        <div className="row">
          <button type="button" className="secondary" disabled={unlink.pending} onClick={() => unlink.submit()}>
            Unlink from their account
          </button>
        </div>
      </section>
    );
  }

  return (
    <section className="card stack" aria-labelledby="athlete-link-heading">
      <h2 id="athlete-link-heading">Athlete&apos;s account</h2>
      <p>
        Invite {athleteName} to link this record to their own account. They open the link, sign in or create an account with this email
        address, and accept.
      </p>
      {created ? (
        <div className="notice" role="status" aria-label="Invitation link">
          <p>
            Send this link to <strong>{created.email}</strong> yourself: it is shown only once, works once, and expires on{" "}
            {new Date(created.expiresAt).toLocaleDateString()}. This service does not send email yet.
          </p>
          <code data-testid="invitation-link">{created.link}</code>
          <div className="row">
            <button
              type="button"
              onClick={async () => {
                await navigator.clipboard.writeText(created.link);
                setCopied(true);
              }}
            >
              Copy link
            </button>
            {copied ? <span className="muted">Copied</span> : null}
          </div>
        </div>
      ) : pending ? (
        <p className="muted">
          An invitation for {pending.email} is open until {new Date(pending.expiresAt).toLocaleDateString()}. A new invitation replaces it.
        </p>
      ) : null}
      <form className="stack" onSubmit={invite.submit} noValidate aria-label="Invite the athlete">
        <FormError message={invite.errors.form} />
        <Field
          label="Athlete's email"
          name="email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          errors={invite.errors.fields.email}
        />
        <div className="row">
          <button type="submit" disabled={invite.pending}>
            Create invitation link
          </button>
          {pending || created ? (
            <button type="button" className="secondary" disabled={withdraw.pending} onClick={() => withdraw.submit()}>
              Withdraw invitation
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
