import Link from "next/link";
import { formatDuration } from "@/app/_lib/format";
import { ExportMenu } from "./export-menu";
import type { SessionView } from "./load-session-view";
import { SessionActions } from "./session-actions";

/** Title (boat, distance, time), the owner's session actions, the export menu and the way to the analyses. */
export function SessionHeader({ view }: { view: SessionView }) {
  const s = view.detail.summary;
  return (
    <div className="page-header">
      <h1>
        {s.vesselType} · {s.distanceM} m · {formatDuration(s.durationMs)}
      </h1>
      <SessionActions resultId={view.resultId} canDelete={view.user.canDeleteSessions && view.owner} />
      <ExportMenu sessionId={view.resultId} seats={view.detail.crew.length} />
      <p className="page-header-link">
        <Link href={`/sessions/${view.resultId}/analysis`}>Analysis: pacing, start, finish, side balance and more</Link>
      </p>
    </div>
  );
}
