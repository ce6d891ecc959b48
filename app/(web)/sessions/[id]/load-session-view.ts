import type { SessionUser } from "@/server/users/users";
import { getDb } from "@/server/db/client";
import { getStoredAnalysis, type StoredAnalysis } from "@/server/results/result-analysis";
import { getResultDetail, type ResultDetail } from "@/server/results/result-detail";
import { sessionHeartRateFor, type SessionHeartRate } from "@/server/results/session-heart-rate";

/**
 * Everything the session page's sections share, loaded once. Each section is
 * its own component in this folder taking `{ view }`, so a feature adds one
 * line to page.tsx.
 */
export interface SessionView {
  user: SessionUser;
  resultId: number;
  detail: ResultDetail;
  analysis: StoredAnalysis | null;
  /** The signed-in user owns the session (corrections, equipment, deletion). */
  owner: boolean;
  /** Equal-distance splits asked for in the URL (?splits=). */
  splitCount: number;
  /** The heart rate, only for the seat-1 paddler it belongs to (server/results/session-heart-rate.ts); null otherwise or when none was recorded. */
  heartRate: SessionHeartRate | null;
}

export async function loadSessionView(user: SessionUser, resultId: number, splitCount: number): Promise<SessionView> {
  const db = getDb();
  const detail = await getResultDetail(db, user.id, resultId);
  const analysis = await getStoredAnalysis(db, resultId);
  const heartRate = analysis ? await sessionHeartRateFor(db, user.id, resultId, analysis) : null;
  return { user, resultId, detail, analysis, owner: detail.summary.ownerId === user.id, splitCount, heartRate };
}

/** "Ana García", or the typed name of an external paddler with "(external)". */
export function crewMemberName(c: ResultDetail["crew"][number]): string {
  const name = `${(c.athleteId !== null ? c.athleteName : c.externalName) ?? ""} ${(c.athleteId !== null ? c.athleteSurname : c.externalSurname) ?? ""}`.trim();
  return c.athleteId === null ? `${name} (external)` : name;
}
