import Link from "next/link";
import { waitingCount, type Waiting } from "@/server/home/waiting";

/**
 * What is waiting (docs/web-app.md "Squad views"): failed uploads to correct or delete, uploads still
 * processing, trainings flagged for a look at their corrected sets, exports being built; each links
 * where to act.
 */
export function WaitingPanel({ waiting }: { waiting: Waiting }) {
  const count = waitingCount(waiting);
  return (
    <section aria-labelledby="waiting-heading">
      <h2 id="waiting-heading">Waiting {count ? <span className="badge warn">{count}</span> : null}</h2>
      {count ? (
        <ul className="card plain-list" data-testid="waiting">
          {waiting.failedSessions.map((s) => (
            <li key={`s${s.id}`}>
              <span className="badge warn">failed</span> <Link href={`/sessions/${s.id}`}>Session {s.date}</Link>{" "}
              <span className="muted">{s.label}</span>
            </li>
          ))}
          {waiting.failedTrainings.map((t) => (
            <li key={`t${t.id}`}>
              <span className="badge warn">failed</span> <Link href={`/trainings/${t.id}`}>Training {t.date ?? ""}</Link>{" "}
              <span className="muted">{t.label}</span>
            </li>
          ))}
          {waiting.flaggedTrainings.map((t) => (
            <li key={`f${t.id}`} data-testid="waiting-flagged">
              <span className="badge warn">review</span> <Link href={`/trainings/${t.id}`}>{t.label}</Link>{" "}
              <span className="muted">{t.date ? `${t.date} · ` : ""}corrected sets to check</span>
            </li>
          ))}
          {waiting.processing.map((p) => (
            <li key={`p${p.kind}${p.id}`} data-testid="waiting-processing">
              <span className="badge">processing</span>{" "}
              <Link href={p.kind === "session" ? `/sessions/${p.id}` : `/trainings/${p.id}`}>
                {p.kind === "session" ? "Session" : "Training"} {p.label}
              </Link>{" "}
              <span className="muted">uploaded {p.uploadedAt} UTC</span>
            </li>
          ))}
          {waiting.pendingExports.map((e) => (
            <li key={e.publicId}>
              <span className="badge">{e.state}</span> <Link href="/exports">{e.format.toUpperCase()} export</Link>{" "}
              <span className="muted">asked {e.createdAt} UTC</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted" data-testid="nothing-waiting">
          Nothing waiting: every upload is processed, no training needs a look and no export is pending.
        </p>
      )}
      <p>
        <Link href="/trainings">Trainings</Link> · <Link href="/exports">Your exports</Link>
      </p>
    </section>
  );
}
