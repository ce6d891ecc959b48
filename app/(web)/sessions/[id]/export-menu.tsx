import { getDb } from "@/server/db/client";
import { listExportableSeats } from "@/server/exports/request-session-export";
import { ExportForm } from "./export-form";

/**
 * The session page's Export section. It offers only the seats the person may
 * export (their own, an athlete's they manage or coach), the same list the
 * export request accepts, so a seat offered is never "Seat not found"; a
 * person with no such seat (a crew mate's session read through a share) is
 * told so instead of being offered a form.
 */
export async function ExportMenu({ sessionId, userId }: { sessionId: number; userId: number }) {
  // The web app reads what the person may read anywhere: the data surface's boundary (server/trpc/routers/exports.ts).
  const seats = await listExportableSeats(getDb(), { subjectId: userId, surface: "data", applicationId: 0 }, sessionId);
  if (seats.length === 0)
    return (
      <section className="card stack" aria-labelledby="export-heading">
        <h2 id="export-heading">Export</h2>
        <p className="muted">No seat of this crew is yours to export.</p>
      </section>
    );
  return <ExportForm sessionId={sessionId} seats={seats} />;
}
