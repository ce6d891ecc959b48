import { formatDuration } from "@/app/_lib/format";
import { ExportMenu } from "./export-menu";
import { crewMemberName, type SessionView } from "./load-session-view";
import { SessionActions } from "./session-actions";
import { SessionActionsMenu } from "./session-actions-menu";
import { SessionCorrection } from "./session-correction";
import { SessionReports } from "./session-reports";

/** Title (boat, distance, time) and the Actions menu: export, PDF report, correction and, last, deletion. */
export function SessionHeader({ view }: { view: SessionView }) {
  const s = view.detail.summary;
  return (
    <div className="page-header">
      <div>
        <h1>
          {s.vesselType} · {s.distanceM} m · {formatDuration(s.durationMs)}
        </h1>
        {/* When and who in one line: the context card with the rest of it comes after the data. */}
        <p className="muted page-subtitle" data-testid="session-subtitle">
          {s.date} {s.timeOfDay.slice(0, 5)} · {s.trackName} · {view.detail.crew.map(crewMemberName).join(", ")}
        </p>
      </div>
      <SessionActionsMenu>
        <ExportMenu sessionId={view.resultId} userId={view.user.id} />
        <SessionReports view={view} />
        <SessionCorrection view={view} />
        <SessionActions resultId={view.resultId} canDelete={view.user.canDeleteSessions && view.owner} />
      </SessionActionsMenu>
    </div>
  );
}
