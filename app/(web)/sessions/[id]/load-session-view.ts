import { and, eq } from "drizzle-orm";
import type { SessionUser } from "@/server/users/users";
import { getDb, type Db } from "@/server/db/client";
import { athletes, resultCrew } from "@/server/db/schema";
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
  /** The heart rate, only for the person it belongs to (see heartRateFor); null otherwise or when none was recorded. */
  heartRate: SessionHeartRate | null;
}

export interface SessionHeartRate {
  /** bpm along the effort's distance, at most MAX_HEART_RATE_POINTS points. */
  points: { distance: number; bpm: number }[];
  avg: number | null;
  max: number | null;
}

/** Enough for a chart a few hundred pixels wide. */
const MAX_HEART_RATE_POINTS = 600;

export async function loadSessionView(user: SessionUser, resultId: number, splitCount: number): Promise<SessionView> {
  const db = getDb();
  const detail = await getResultDetail(db, user.id, resultId);
  const analysis = await getStoredAnalysis(db, resultId);
  const heartRate = analysis ? await heartRateFor(db, user.id, resultId, analysis) : null;
  return { user, resultId, detail, analysis, owner: detail.summary.ownerId === user.id, splitCount, heartRate };
}

/**
 * The unit pairs with one heart-rate strap, worn in the stroke seat (seat 1),
 * so a session's heart rate is the seat-1 paddler's health data. The page
 * shows it only to the account linked to that paddler's athlete record, the
 * rule the Data API and the exports follow (data-api.md "Heart rate"); the
 * session's owner or coach sees the session without it, and nothing on the
 * page says whether one was recorded (docs/web-app.md "Session page").
 */
async function heartRateFor(db: Db, userId: number, resultId: number, analysis: StoredAnalysis): Promise<SessionHeartRate | null> {
  const [strokeSeat] = await db
    .select({ linkedUserId: athletes.userId })
    .from(resultCrew)
    .innerJoin(athletes, eq(athletes.id, resultCrew.athleteId))
    .where(and(eq(resultCrew.resultId, resultId), eq(resultCrew.seat, 1)));
  if (strokeSeat?.linkedUserId !== userId) return null;
  const { distance, heart_rate: bpm } = analysis.track;
  const recorded = bpm.flatMap((b, i) => (b !== null && b > 0 && distance[i] !== undefined ? [{ distance: distance[i], bpm: b }] : []));
  if (!recorded.length) return null;
  const step = Math.max(1, Math.ceil(recorded.length / MAX_HEART_RATE_POINTS));
  const points = recorded.filter((_, i) => i % step === 0 || i === recorded.length - 1);
  return { points, avg: analysis.summary.avg_heart_rate, max: analysis.summary.max_heart_rate };
}

/** "Ana García", or the typed name of an external paddler with "(external)". */
export function crewMemberName(c: ResultDetail["crew"][number]): string {
  const name = `${(c.athleteId !== null ? c.athleteName : c.externalName) ?? ""} ${(c.athleteId !== null ? c.athleteSurname : c.externalSurname) ?? ""}`.trim();
  return c.athleteId === null ? `${name} (external)` : name;
}
