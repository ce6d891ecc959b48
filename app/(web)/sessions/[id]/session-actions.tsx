"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { CopyButton } from "@/app/_components/copy-button";
import { FormError, useSubmit } from "@/app/_components/form";
import { trpc } from "@/app/_lib/trpc";

export function SessionActions({ resultId, canDelete }: { resultId: number; canDelete: boolean }) {
  const router = useRouter();
  const { pending, errors, submit } = useSubmit(
    () => trpc.sessions.delete.mutate({ resultId }),
    () => {
      router.push("/");
      router.refresh();
    },
  );
  if (!canDelete) return null;
  return (
    <div>
      <button type="button" className="danger" disabled={pending} onClick={() => window.confirm("Delete this session and its data?") && submit()}>
        Delete session
      </button>
      <FormError message={errors.form} />
    </div>
  );
}

export function ShareLinks({ resultId, links }: { resultId: number; links: { id: number; origin: string; createdAt: string; revoked: boolean }[] }) {
  const router = useRouter();
  const [created, setCreated] = useState<string | null>(null);
  const create = useSubmit(
    () => trpc.sessions.createShareLink.mutate({ resultId }),
    (link) => {
      setCreated(link.url);
      router.refresh();
    },
  );
  return (
    <div className="card stack">
      <p className="muted">A share link opens a read-only view of this session (no names, no device data) for anyone who has it, until you revoke it.</p>
      {created ? (
        <p className="notice" role="status">
          New link: <a href={created} data-testid="share-url">{created}</a> <CopyButton value={created} label="Copy link" /> — copy it now, it is not shown again.
        </p>
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
                    <RevokeShareButton shareId={link.id} label={`Revoke link created ${link.createdAt}`} />
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

function RevokeShareButton({ shareId, label }: { shareId: number; label: string }) {
  const router = useRouter();
  const { pending, errors, submit } = useSubmit(
    () => trpc.sessions.revokeShareLink.mutate({ shareId }),
    () => router.refresh(),
  );
  return (
    <>
      <button type="button" className="link-button" disabled={pending} aria-label={label} onClick={() => submit()}>
        Revoke
      </button>
      {errors.form ? <span className="field-error"> {errors.form}</span> : null}
    </>
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
