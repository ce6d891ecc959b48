import type { Metadata } from "next";
import Link from "next/link";
import { requireUser } from "@/server/auth/current-user";
import { getDb } from "@/server/db/client";
import { listWebExports } from "@/server/exports/export-list";

export const metadata: Metadata = { title: "Exports" };

const STATE_LABEL = { queued: "queued", running: "building", succeeded: "ready", failed: "failed", expired: "expired" } as const;
const size = (bytes: number | null) =>
  bytes === null ? "" : bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The person's web exports (docs/web-app.md "Exports"), newest first, with a download link while the file is kept. */
export default async function ExportsPage() {
  const user = await requireUser();
  const items = await listWebExports(getDb(), user.id);
  return (
    <>
      <div className="page-header">
        <h1>Exports</h1>
      </div>
      <p className="muted">Files you asked for from a session or training page. A finished file stays downloadable for 24 hours.</p>
      {items.length ? (
        <ul className="export-list" data-testid="export-list">
          {items.map((e) => (
            <li key={e.publicId} className="card" data-state={e.state}>
              <div>
                <strong>{e.format.toUpperCase()}</strong>{" "}
                {e.sourceLabel ? (
                  <Link href={`/${e.sourceKind === "session" ? "sessions" : "trainings"}/${e.sourceId}`}>{e.sourceLabel}</Link>
                ) : (
                  <span className="muted">deleted {e.sourceKind}</span>
                )}
              </div>
              <div className="muted">
                asked {e.createdAt} UTC{e.state === "succeeded" && e.expiresAt ? ` · kept until ${e.expiresAt} UTC` : ""}
              </div>
              <div>
                <span className={e.state === "failed" ? "badge warn" : "badge"}>{STATE_LABEL[e.state]}</span>{" "}
                {e.state === "succeeded" ? (
                  <a
                    href={`/exports/${e.publicId}/download`}
                    download
                    aria-label={`Download the ${e.format.toUpperCase()} of ${e.sourceLabel ?? e.sourceKind}`}
                  >
                    Download {size(e.byteSize)}
                  </a>
                ) : e.state === "failed" ? (
                  <span>{e.error ?? "The export failed."}</span>
                ) : e.state === "expired" ? (
                  <span className="muted">Ask for it again on its page.</span>
                ) : (
                  <span className="muted">Reload in a moment.</span>
                )}
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <div className="card empty" data-testid="exports-empty">
          <h2>No exports yet</h2>
          <p>
            Open a session or a training and choose a format under Export: the file appears here while it is built, then stays for 24 hours.
          </p>
        </div>
      )}
    </>
  );
}
