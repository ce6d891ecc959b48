import type { Db } from "../db/client";
import { resultStrokes } from "../db/schema";
import type { ProcessedStroke } from "../svc/process/types";

/** The stroke columns shared by result_strokes and training_set_strokes, from a processed stroke. */
export function strokeColumns(s: ProcessedStroke, strokeIndex: number) {
  return {
    strokeIndex,
    catchS: s.catch_s,
    side: s.side,
    distanceM: s.distance,
    filteredSpeedMS: s.filtered_speed,
    rateSpm: s.rate,
    strokeDistanceM: s.stroke_distance ?? null,
    leftStrokeDistanceM: s.left_stroke_distance ?? null,
    rightStrokeDistanceM: s.right_stroke_distance ?? null,
    maxAccelXMS2: s.max_accel_x,
    minAccelXMS2: s.min_accel_x,
    maxPitchDeg: s.max_pitch,
    maxRollDeg: s.max_roll,
  };
}

/** Rows per insert: a two-hour recording has tens of thousands of strokes, and a statement's parameters are bounded. */
export const STROKE_ROWS_PER_INSERT = 500;

/** Stores a result's processed strokes, in order (upload, corrections and the benchmarks write them alike). */
export async function insertStrokeRows(tx: Db, resultId: number, strokes: ProcessedStroke[]) {
  const rows = strokes.map((s, index) => ({ resultId, ...strokeColumns(s, index) }));
  for (let k = 0; k < rows.length; k += STROKE_ROWS_PER_INSERT)
    await tx.insert(resultStrokes).values(rows.slice(k, k + STROKE_ROWS_PER_INSERT));
}
