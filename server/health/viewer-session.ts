import { heartRateReadableBy } from "./heart-rate-share";
import type { Db } from "../db/client";
import { getStoredAnalysis } from "../results/result-analysis";
import { getResultDetail, type ResultDetail } from "../results/result-detail";
import type { EffortTrack } from "../svc/process/types";
import {
  effortFigures,
  mayReadTypedCrewWeight,
  sessionHeartRateOwner,
  viewerDataQuality,
  viewerTrack,
  type EffortFigures,
  type ViewerDataQuality,
  type ViewerTrack,
} from "./health-projection";

/** The heart rate of a session as the web page shows it to the person it belongs to. */
export interface SessionHeartRate {
  /** bpm along the effort's distance, at most MAX_HEART_RATE_POINTS points. */
  points: { distance: number; bpm: number }[];
  avg: number | null;
  max: number | null;
  /** Share of the effort with readings, 0–1. */
  coverage: number;
  /** True when the paddler shares it with the viewer, their coach (not the viewer's own). */
  shared: boolean;
}

/** Enough for a chart a few hundred pixels wide. */
export const MAX_HEART_RATE_POINTS = 600;

/** A crew seat as any viewer of the session may read it: no typed weight. */
export type ViewerCrewSeat = Omit<ResultDetail["crew"][number], "externalWeightKg">;

/** The stored derived data without heart rate (docs/access.md "Health data in every view"). */
export interface ViewerSessionAnalysis {
  effortStartS: number;
  summary: EffortFigures;
  dataQuality: ViewerDataQuality;
  track: ViewerTrack;
}

/** A session as the web pages show it to one viewer: the health projection already applied. */
export interface ViewerSession {
  detail: Omit<ResultDetail, "crew"> & { crew: ViewerCrewSeat[] };
  analysis: ViewerSessionAnalysis | null;
  /** The seat-1 paddler's heart rate, present only when the viewer is that paddler (and readings exist). */
  ownHeartRate: SessionHeartRate | null;
  /** External paddlers' typed weights by seat, only for the session's owner, who typed them. */
  typedWeights: Record<number, number | null> | null;
}

/**
 * Loads one session the viewer may open (else the 404 of getResultDetail) and
 * applies the health rules: the unit's one heart-rate strap is worn in seat 1,
 * so the heart rate is the seat-1 paddler's and reaches only the account
 * linked to that athlete record; the owner, coaches and crew mates get the
 * session without it and without any sign that it was recorded.
 */
export async function loadViewerSession(db: Db, viewerId: number, resultId: number): Promise<ViewerSession> {
  const detail = await getResultDetail(db, viewerId, resultId);
  const stored = await getStoredAnalysis(db, resultId);
  // Theirs, or shared with them as the paddler's coach (server/health/heart-rate-share.ts).
  const heartRateOwner = stored !== null ? await sessionHeartRateOwner(db, resultId) : null;
  const heartRateIsViewers = stored !== null && (await heartRateReadableBy(db, heartRateOwner, viewerId));
  const points = heartRateIsViewers ? heartRateAlongDistance(stored.track) : [];
  const owner = mayReadTypedCrewWeight(detail.summary, viewerId);
  return {
    detail: { ...detail, crew: detail.crew.map(viewerCrewSeat) },
    analysis: stored
      ? {
          effortStartS: stored.effortStartS,
          summary: effortFigures(stored.summary),
          dataQuality: viewerDataQuality(stored.dataQuality),
          track: viewerTrack(stored.track),
        }
      : null,
    ownHeartRate:
      heartRateIsViewers && points.length
        ? {
            points,
            avg: stored.summary.avg_heart_rate,
            max: stored.summary.max_heart_rate,
            coverage: stored.dataQuality.heart_rate_coverage,
            shared: heartRateOwner !== viewerId,
          }
        : null,
    typedWeights: owner
      ? Object.fromEntries(detail.crew.filter((c) => c.athleteId === null).map((c) => [c.seat, c.externalWeightKg]))
      : null,
  };
}

const viewerCrewSeat = (c: ResultDetail["crew"][number]): ViewerCrewSeat => ({
  seat: c.seat,
  athleteId: c.athleteId,
  athleteName: c.athleteName,
  athleteSurname: c.athleteSurname,
  externalName: c.externalName,
  externalSurname: c.externalSurname,
});

/** The recorded readings of the 10 Hz track (gaps and strap drop-outs left out), evenly thinned, the last one kept. */
export function heartRateAlongDistance(
  track: Pick<EffortTrack, "distance" | "heart_rate">,
  maxPoints = MAX_HEART_RATE_POINTS,
): { distance: number; bpm: number }[] {
  const recorded = track.heart_rate.flatMap((bpm, i) =>
    bpm !== null && bpm > 0 && track.distance[i] !== undefined ? [{ distance: track.distance[i], bpm }] : [],
  );
  const step = Math.max(1, Math.ceil(recorded.length / maxPoints));
  return recorded.filter((_, i) => i % step === 0 || i === recorded.length - 1);
}
