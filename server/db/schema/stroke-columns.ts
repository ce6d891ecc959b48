import { integer, real, text } from "drizzle-orm/pg-core";

/**
 * The columns of one stroke, declared once for every table that stores
 * strokes (result_strokes, training_set_strokes): a function, so each table
 * gets builders of its own. Each table adds its owner's key before these.
 */
export function strokeColumns() {
  return {
    /** 0-based order within the effort (or the set). */
    strokeIndex: integer("stroke_index").notNull(),
    /** Catch time, seconds from the file's first IMU sample. */
    catchS: real("catch_s").notNull(),
    /** left | right for kayaks; null for canoes. */
    side: text("side", { enum: ["left", "right"] }),
    /** Position at the catch, metres from the start of the effort (or the set). */
    distanceM: real("distance_m"),
    /** Filtered boat speed over the stroke, m/s. */
    filteredSpeedMS: real("filtered_speed_m_s"),
    /** Stroke rate, strokes per minute. */
    rateSpm: real("rate_spm"),
    /** Metres per stroke (canoes). */
    strokeDistanceM: real("stroke_distance_m"),
    /** Metres per stroke by side (kayaks): only the stroke's own side is set. */
    leftStrokeDistanceM: real("left_stroke_distance_m"),
    rightStrokeDistanceM: real("right_stroke_distance_m"),
    /** Peak and lowest surge acceleration, m/s², gravity removed. */
    maxAccelXMS2: real("max_accel_x_m_s2"),
    minAccelXMS2: real("min_accel_x_m_s2"),
    /** Peak pitch and roll magnitude within the stroke, degrees. */
    maxPitchDeg: real("max_pitch_deg"),
    maxRollDeg: real("max_roll_deg"),
  };
}
