import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { athletes, resultCrew } from "../db/schema";
import type { EffortTrack } from "../svc/process/types";
import type { StoredAnalysis } from "./result-analysis";

/** The heart rate of a session as the web page shows it to the person it belongs to. */
export interface SessionHeartRate {
  /** bpm along the effort's distance, at most MAX_HEART_RATE_POINTS points. */
  points: { distance: number; bpm: number }[];
  avg: number | null;
  max: number | null;
}

/** Enough for a chart a few hundred pixels wide. */
export const MAX_HEART_RATE_POINTS = 600;

/**
 * The unit pairs with one heart-rate strap, worn in the stroke seat (seat 1),
 * so a session's heart rate is the seat-1 paddler's health data. It is given
 * only to the account linked to that paddler's athlete record, the rule the
 * Data API and the exports follow (data-api.md "Heart rate"); the session's
 * owner, coaches and crew mates get null, the same as for a session without
 * heart rate (docs/web-app.md "Session page").
 */
export async function sessionHeartRateFor(db: Db, userId: number, resultId: number, analysis: StoredAnalysis): Promise<SessionHeartRate | null> {
  const [strokeSeat] = await db
    .select({ linkedUserId: athletes.userId })
    .from(resultCrew)
    .innerJoin(athletes, eq(athletes.id, resultCrew.athleteId))
    .where(and(eq(resultCrew.resultId, resultId), eq(resultCrew.seat, 1)));
  if (strokeSeat?.linkedUserId !== userId) return null;
  const points = heartRateAlongDistance(analysis.track);
  return points.length ? { points, avg: analysis.summary.avg_heart_rate, max: analysis.summary.max_heart_rate } : null;
}

/** The recorded readings of the 10 Hz track (gaps and strap drop-outs left out), evenly thinned, the last one kept. */
export function heartRateAlongDistance(track: Pick<EffortTrack, "distance" | "heart_rate">, maxPoints = MAX_HEART_RATE_POINTS): { distance: number; bpm: number }[] {
  const recorded = track.heart_rate.flatMap((bpm, i) => (bpm !== null && bpm > 0 && track.distance[i] !== undefined ? [{ distance: track.distance[i], bpm }] : []));
  const step = Math.max(1, Math.ceil(recorded.length / maxPoints));
  return recorded.filter((_, i) => i % step === 0 || i === recorded.length - 1);
}
