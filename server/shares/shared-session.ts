import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { results, resultStrokes, tracks, vessels } from "../db/schema";
import { sessionFigures, speedRange, speedRangeSentence } from "../results/figures";
import { getStoredAnalysis } from "../results/result-analysis";
import { computeSplits } from "../svc/process/track";
import { resolveShareToken } from "./share-links";

/**
 * What a public share link shows: boat, course, date, distance, time, splits
 * and the stroke curves. No crew names, owner, device, weather, notes or
 * health data (docs/access.md "Share links").
 */
export async function getSharedSessionView(db: Db, token: string) {
  const resultId = await resolveShareToken(db, token);
  if (resultId === null) return null;
  const [row] = await db
    .select({
      date: results.date,
      timeOfDay: results.timeOfDay,
      distanceM: results.distanceM,
      durationMs: results.durationMs,
      vesselType: vessels.type,
      trackName: tracks.name,
    })
    .from(results)
    .innerJoin(vessels, eq(vessels.id, results.vesselId))
    .innerJoin(tracks, eq(tracks.id, results.trackId))
    .where(eq(results.id, resultId));
  if (!row) return null;
  const strokes = await db
    .select({
      distance: resultStrokes.distanceM,
      speed: resultStrokes.filteredSpeedMS,
      rate: resultStrokes.rateSpm,
      strokeDistance: resultStrokes.strokeDistanceM,
      left: resultStrokes.leftStrokeDistanceM,
      right: resultStrokes.rightStrokeDistanceM,
      catchS: resultStrokes.catchS,
    })
    .from(resultStrokes)
    .where(eq(resultStrokes.resultId, resultId))
    .orderBy(asc(resultStrokes.strokeIndex));
  const analysis = await getStoredAnalysis(db, resultId);
  const splits =
    analysis && strokes.length
      ? computeSplits(
          analysis.track,
          strokes.map((s) => ({ distance: s.distance ?? 0, rate: s.rate ?? 0 })),
          4,
        )
      : [];
  // The effort's figures as every other surface reads them (no heart rate: a share link carries no health data).
  const figures = analysis ? sessionFigures(analysis.summary) : null;
  const range = analysis && figures ? speedRange(analysis.track, figures) : null;
  return {
    ...row,
    resultId,
    figures,
    speedSentence: range ? speedRangeSentence(range) : null,
    splits,
    points: strokes.map((s) => ({
      distance: s.distance ?? 0,
      speed: s.speed,
      rate: s.rate,
      strokeDistance: s.strokeDistance ?? s.left ?? s.right,
    })),
  };
}
