import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { resultDerived } from "../db/schema";
import type { ProcessedStroke, DataQuality, EffortTrack, SessionSummary } from "../svc/process/types";
import { computeSplits } from "../svc/process/track";
import type { ResultDetail } from "./result-detail";

/** The stored derived data of a result, typed (written by uploadResult from ProcessedSession). */
export interface StoredAnalysis {
  effortStartS: number;
  summary: SessionSummary;
  dataQuality: DataQuality;
  track: EffortTrack;
  heartRate: [number, number][];
  replayBlobKey: string | null;
}

export async function getStoredAnalysis(db: Db, resultId: number): Promise<StoredAnalysis | null> {
  const [row] = await db.select().from(resultDerived).where(eq(resultDerived.resultId, resultId));
  if (!row) return null;
  return {
    effortStartS: row.effortStartS,
    summary: row.summary as SessionSummary,
    dataQuality: row.dataQuality as DataQuality,
    track: row.track as EffortTrack,
    heartRate: row.heartRate as [number, number][],
    replayBlobKey: row.replayBlobKey,
  };
}

type StoredStroke = {
  catchS: number;
  distanceM: number | null;
  rateSpm: number | null;
  strokeDistanceM: number | null;
  leftStrokeDistanceM: number | null;
  rightStrokeDistanceM: number | null;
};

/** A stored stroke row in the shape the processing helpers (splits, series) take. */
export function toProcessingStroke(
  s: StoredStroke,
): Pick<ProcessedStroke, "catch_s" | "distance" | "rate" | "stroke_distance" | "left_stroke_distance" | "right_stroke_distance"> {
  return {
    catch_s: s.catchS,
    distance: s.distanceM ?? 0,
    rate: s.rateSpm ?? 0,
    stroke_distance: s.strokeDistanceM ?? undefined,
    left_stroke_distance: s.leftStrokeDistanceM,
    right_stroke_distance: s.rightStrokeDistanceM,
  };
}

export const strokesForAnalysis = (detail: Pick<ResultDetail, "strokes">) => detail.strokes.map(toProcessingStroke);

export function splitsOf(analysis: { track: Pick<EffortTrack, "t" | "distance"> }, detail: Pick<ResultDetail, "strokes">, count: number) {
  return computeSplits(analysis.track, strokesForAnalysis(detail), count);
}
