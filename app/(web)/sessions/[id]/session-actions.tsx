"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmButton } from "@/app/_components/confirm-dialog";
import { CopyButton } from "@/app/_components/copy-button";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export function SessionActions({ resultId, canDelete }: { resultId: number; canDelete: boolean }) {
  const router = useRouter();
  if (!canDelete) return null;
  // Last in the Actions menu and not red: the red button is the dialog's confirmation.
  return (
    <div className="session-delete">
      <ConfirmButton
        label="Delete session"
        buttonClassName="secondary"
        title="Delete this session?"
        statement="The session, its results, its share links and its stored files are deleted for good. This cannot be undone."
        confirmLabel="Delete session"
        action={() => trpc.sessions.delete.mutate({ resultId })}
        onDone={() => {
          router.push("/");
          router.refresh();
        }}
      />
    </div>
  );
}

export function ShareLinks({
  resultId,
  links,
}: {
  resultId: number;
  links: { id: number; origin: string; createdAt: string; revoked: boolean }[];
}) {
  const router = useRouter();
  const [created, setCreated] = useState<{ url: string; qrSvg: string } | null>(null);
  const create = useSubmit(
    () => trpc.sessions.createShareLink.mutate({ resultId }),
    (link) => {
      setCreated({ url: link.url, qrSvg: link.qrSvg });
      router.refresh();
    },
  );
  return (
    <div className="card stack">
      <p className="muted">
        A share link opens a read-only view of this session (no names, no device data) for anyone who has it, until you revoke it.
      </p>
      {created ? (
        // The QR code shows at once, so a coach on the dock can hold it up to a paddler's phone.
        <figure className="public-link notice" role="status" data-testid="new-share-link">
          <div className="qr" role="img" aria-label={`QR code of ${created.url}`} dangerouslySetInnerHTML={{ __html: created.qrSvg }} />
          <figcaption>
            New link:{" "}
            <a href={created.url} data-testid="share-url">
              {created.url}
            </a>{" "}
            <CopyButton value={created.url} label="Copy link" /> — copy it now, it is not shown again.
          </figcaption>
        </figure>
      ) : null}
      <FormError message={create.errors.form} />
      <div className="row">
        <button type="button" className="secondary" disabled={create.pending} onClick={() => create.submit()}>
          Create share link
        </button>
        <PublicLink resultId={resultId} />
      </div>
      {links.length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">From</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {links.map((link) => (
              <tr key={link.id}>
                <td>{link.createdAt}</td>
                <td>{link.origin === "report" ? "PDF report" : "this page"}</td>
                <td>
                  {link.revoked ? (
                    <span className="badge">revoked</span>
                  ) : (
                    <RevokeShareButton
                      shareId={link.id}
                      label={`Revoke link created ${link.createdAt}`}
                      fromReport={link.origin === "report"}
                    />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}

function RevokeShareButton({ shareId, label, fromReport }: { shareId: number; label: string; fromReport: boolean }) {
  const router = useRouter();
  return (
    <ConfirmButton
      label="Revoke"
      ariaLabel={label}
      buttonClassName="link-button"
      title="Revoke this share link?"
      statement={`Anyone opening it gets “not found” from now on${fromReport ? ", including from the PDF reports and QR codes that carry it; the next PDF gets a new link" : ""}. A revoked link cannot be restored.`}
      confirmLabel="Revoke link"
      action={() => trpc.sessions.revokeShareLink.mutate({ shareId })}
      onDone={() => router.refresh()}
    />
  );
}

/** The session's one public link (also in its PDF reports) with a copy button and its QR code. */
function PublicLink({ resultId }: { resultId: number }) {
  const router = useRouter();
  const [link, setLink] = useState<{ url: string; qrSvg: string } | null>(null);
  const show = useSubmit(
    () => trpc.sessions.publicLink.mutate({ resultId }),
    (value) => {
      setLink(value);
      router.refresh();
    },
  );
  if (!link) {
    return (
      <>
        <button type="button" className="secondary" disabled={show.pending} onClick={() => show.submit()}>
          Public link and QR code
        </button>
        <FormError message={show.errors.form} />
      </>
    );
  }
  return (
    <figure className="public-link" data-testid="public-link">
      {/* The SVG comes from the qrcode library on our server, from our own URL. */}
      <div className="qr" role="img" aria-label={`QR code of ${link.url}`} dangerouslySetInnerHTML={{ __html: link.qrSvg }} />
      <figcaption>
        <a href={link.url} data-testid="public-url">
          {link.url}
        </a>{" "}
        <CopyButton value={link.url} label="Copy link" />
        <p className="muted">The same link as in this session&apos;s PDF reports, until you revoke it.</p>
      </figcaption>
    </figure>
  );
}
