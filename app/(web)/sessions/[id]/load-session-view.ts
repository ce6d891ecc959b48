import type { SessionUser } from "@/server/users/users";
import { getDb } from "@/server/db/client";
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
  /** The heart rate, only for the seat-1 paddler it belongs to; null otherwise or when none was recorded. */
  heartRate: SessionHeartRate | null;
  /** External paddlers' typed weights by seat: the owner's only (they typed them). */
  typedWeights: ViewerSession["typedWeights"];
}

export async function loadSessionView(user: SessionUser, resultId: number, splitCount: number): Promise<SessionView> {
  const session = await loadViewerSession(getDb(), user.id, resultId);
  return {
    user,
    resultId,
    detail: session.detail,
    analysis: session.analysis,
    owner: session.detail.summary.ownerId === user.id,
    splitCount,
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
