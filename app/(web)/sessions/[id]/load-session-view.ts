import type { SessionUser } from "@/server/users/users";
import { getDb } from "@/server/db/client";
import { getStoredAnalysis, type StoredAnalysis } from "@/server/results/result-analysis";
import { getResultDetail, type ResultDetail } from "@/server/results/result-detail";

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
}

export async function loadSessionView(user: SessionUser, resultId: number, splitCount: number): Promise<SessionView> {
  const db = getDb();
  const detail = await getResultDetail(db, user.id, resultId);
  const analysis = await getStoredAnalysis(db, resultId);
  return { user, resultId, detail, analysis, owner: detail.summary.ownerId === user.id, splitCount };
}

/** "Ana García", or the typed name of an external paddler with "(external)". */
export function crewMemberName(c: ResultDetail["crew"][number]): string {
  const name = `${(c.athleteId !== null ? c.athleteName : c.externalName) ?? ""} ${(c.athleteId !== null ? c.athleteSurname : c.externalSurname) ?? ""}`.trim();
  return c.athleteId === null ? `${name} (external)` : name;
}
