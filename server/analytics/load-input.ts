import { heartRateReadableBy } from "../health/heart-rate-share";
import type { Db } from "../db/client";
import { sessionHeartRateOwner } from "../health/health-projection";
import type { StoredAnalysis } from "../results/result-analysis";
import { getSessionStrokes } from "../sessions/read-session";
import type { ProcessedSession } from "../svc/process/types";
import type { AnalysisInput, AnalysisStroke } from "./input";

/** The analyses' input from a session's stored strokes and derived data. */
export async function loadAnalysisInput(
  db: Db,
  sessionId: number,
  stored: StoredAnalysis,
  heartRateAllowed: boolean,
): Promise<AnalysisInput> {
  const rows = await getSessionStrokes(db, sessionId);
  const strokes: AnalysisStroke[] = rows.map((s) => ({
    index: s.index,
    t_s: s.catchS - stored.effortStartS,
    side: s.side === "left" || s.side === "right" ? s.side : null,
    distance_m: s.distanceM ?? 0,
    speed_m_s: s.speedMS ?? 0,
    rate_spm: s.rateSpm ?? 0,
    stroke_distance_m: s.strokeDistanceM ?? s.leftStrokeDistanceM ?? s.rightStrokeDistanceM ?? null,
    peak_accel_m_s2: s.maxAccelXMS2 ?? 0,
    check_accel_m_s2: s.minAccelXMS2 ?? 0,
    pitch_deg: s.maxPitchDeg ?? 0,
    roll_deg: s.maxRollDeg ?? 0,
  }));
  return { strokes, track: stored.track, dataQuality: stored.dataQuality, heartRateAllowed };
}

/**
 * The analyses' input for one person (the web app's analysis page): the
 * heart-rate facts (coverage) only when the heart rate is theirs, and
 * otherwise no heart-rate reading in the input at all (docs/access.md
 * "Health data in every view").
 */
export async function loadAnalysisInputFor(db: Db, viewerId: number, sessionId: number, stored: StoredAnalysis): Promise<AnalysisInput> {
  const own = await heartRateReadableBy(db, await sessionHeartRateOwner(db, sessionId), viewerId);
  const input = await loadAnalysisInput(db, sessionId, stored, own);
  return own ? input : { ...input, track: { ...input.track, heart_rate: input.track.heart_rate.map(() => null) } };
}

/** The same input straight from the processing core (the CLI, tests). */
export function analysisInputFromProcessed(processed: ProcessedSession, heartRateAllowed: boolean): AnalysisInput {
  return {
    strokes: processed.strokes.map((s, index) => ({
      index,
      t_s: s.catch_s - processed.effort.start_s,
      side: s.side,
      distance_m: s.distance,
      speed_m_s: s.filtered_speed,
      rate_spm: s.rate,
      stroke_distance_m: s.stroke_distance ?? s.left_stroke_distance ?? s.right_stroke_distance ?? null,
      peak_accel_m_s2: s.max_accel_x,
      check_accel_m_s2: s.min_accel_x,
      pitch_deg: s.max_pitch,
      roll_deg: s.max_roll,
    })),
    track: processed.track,
    dataQuality: processed.data_quality,
    heartRateAllowed,
  };
}
