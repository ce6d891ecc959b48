import type { SessionUser } from "@/server/users/users";
import { getDb } from "@/server/db/client";
import { splitsOf } from "@/server/results/result-analysis";
import { sessionTimeline, type SessionTimeline } from "@/server/results/session-timeline";
import type { Split } from "@/server/svc/process/types";
import {
  loadViewerSession,
  type SessionHeartRate,
  type ViewerCrewSeat,
  type ViewerSession,
  type ViewerSessionAnalysis,
} from "@/server/health/viewer-session";

/**
 * Everything the session page's sections share, loaded once. Each section is
 * its own component in this folder taking `{ view }`, so a feature adds one
 * line to page.tsx. Health data is already projected for the viewer
 * (server/health/viewer-session.ts): no section decides who sees it.
 */
export interface SessionView {
  user: SessionUser;
  resultId: number;
  detail: ViewerSession["detail"];
  analysis: ViewerSessionAnalysis | null;
  /** The signed-in user owns the session (corrections, equipment, deletion). */
  owner: boolean;
  /** Equal-distance splits asked for in the URL (?splits=). */
  splitCount: number;
  /** Those splits, computed once for every section (table, charts, course, analysis); empty without processed strokes. */
  splits: Split[];
  /** The page's one cursor: replay time ↔ distance, and what the player shows live (null without a track). */
  timeline: SessionTimeline | null;
  /** The heart rate, only for the seat-1 paddler it belongs to; null otherwise or when none was recorded. */
  heartRate: SessionHeartRate | null;
  /** External paddlers' typed weights by seat: the owner's only (they typed them). */
  typedWeights: ViewerSession["typedWeights"];
}

export async function loadSessionView(user: SessionUser, resultId: number, splitCount: number): Promise<SessionView> {
  const session = await loadViewerSession(getDb(), user.id, resultId);
  const { analysis, detail } = session;
  const splits = analysis && detail.strokes.length ? splitsOf(analysis, detail, splitCount) : [];
  const timeline = analysis
    ? sessionTimeline(
        analysis.track,
        detail.strokes.map((s) => ({ distance: s.distanceM ?? 0, rate: s.rateSpm })),
        splits,
      )
    : null;
  return {
    user,
    resultId,
    detail: session.detail,
    analysis: session.analysis,
    owner: session.detail.summary.ownerId === user.id,
    splitCount,
    splits,
    timeline,
    heartRate: session.ownHeartRate,
    typedWeights: session.typedWeights,
  };
}

/** "Ana García", or the typed name of an external paddler with "(external)". */
export function crewMemberName(c: ViewerCrewSeat): string {
  const name =
    `${(c.athleteId !== null ? c.athleteName : c.externalName) ?? ""} ${(c.athleteId !== null ? c.athleteSurname : c.externalSurname) ?? ""}`.trim();
  return c.athleteId === null ? `${name} (external)` : name;
}
