import { formatDuration } from "@/app/_lib/format";
import type { SessionView } from "./load-session-view";
import { SessionActions } from "./session-actions";

/** Title (boat, distance, time) and the owner's session actions. */
export function SessionHeader({ view }: { view: SessionView }) {
  const s = view.detail.summary;
  return (
    <div className="page-header">
      <h1>
        {s.vesselType} · {s.distanceM} m · {formatDuration(s.durationMs)}
      </h1>
      <SessionActions resultId={view.resultId} canDelete={view.user.canDeleteSessions && view.owner} />
    </div>
  );
}
