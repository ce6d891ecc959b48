import { formatDuration } from "@/app/_lib/format";
import { ExportMenu } from "./export-menu";
import type { SessionView } from "./load-session-view";
import { SessionActions } from "./session-actions";
import { SessionActionsMenu } from "./session-actions-menu";
import { SessionCorrection } from "./session-correction";
import { SessionReports } from "./session-reports";

/** Title (boat, distance, time) and the Actions menu: export, PDF report, correction and, last, deletion. */
export function SessionHeader({ view }: { view: SessionView }) {
  const s = view.detail.summary;
  return (
    <div className="page-header">
      <h1>
        {s.vesselType} · {s.distanceM} m · {formatDuration(s.durationMs)}
      </h1>
      <SessionActionsMenu>
        <ExportMenu sessionId={view.resultId} seats={view.detail.crew.length} />
        <SessionReports view={view} />
        <SessionCorrection view={view} />
        <SessionActions resultId={view.resultId} canDelete={view.user.canDeleteSessions && view.owner} />
      </SessionActionsMenu>
    </div>
  );
}
