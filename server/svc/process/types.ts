import type { VesselType } from "../types";

/** What processing needs besides the file (docs/processing.md). Exactly one of distance and duration. */
export interface ProcessingMeta {
  vessel: VesselType;
  distanceM?: number;
  durationMs?: number;
}

export interface ProcessedStroke {
  /** Catch time, seconds from the file's first IMU sample. */
  catch_s: number;
  side: "left" | "right" | null;
  /** Metres from the effort start at the catch. */
  distance: number;
  /** Mean speed from this catch to the next, m/s. */
  filtered_speed: number;
  /** Strokes per minute, from this catch to the next. */
  rate: number;
  /** Metres from this catch to the next: `stroke_distance` for canoes, the side's member for kayaks. */
  stroke_distance?: number;
  left_stroke_distance?: number | null;
  right_stroke_distance?: number | null;
  /** Surge acceleration extremes within the stroke, m/s², gravity removed. */
  max_accel_x: number;
  min_accel_x: number;
  /** Largest pitch and roll magnitudes within the stroke, degrees. */
  max_pitch: number;
  max_roll: number;
}

export interface Split {
  /** Distance from the start at the split's end, m. */
  distance_m: number;
  /** Elapsed time from the effort start to the split's end, s. */
  time_s: number;
  /** This split's own time, s. */
  split_time_s: number;
  /** Mean speed over the split, m/s. */
  speed: number;
  /** Mean stroke rate of the strokes caught within the split, spm (null without strokes). */
  rate: number | null;
  /** 95 % uncertainty of `time_s`, s (null for a track stored before it was estimated). */
  time_uncertainty_s: number | null;
  /** 95 % uncertainty of `split_time_s`, s. */
  split_uncertainty_s: number | null;
}

/** What the split uncertainty needs from the recording (docs/processing.md "Split uncertainty"), stored with the track. */
export interface EffortUncertainty {
  /** GNSS Doppler speed noise measured on the file, m/s. */
  speed_noise_ms: number;
  /** Spacing of GNSS fixes, s. */
  fix_interval_s: number;
  /** How fast the IMU speed offset wanders, (m/s)²/s. */
  drift_rate: number;
  /** The start's own timing error, s (one standard deviation). */
  start_sd_s: number;
  /** "distance": the end is where the distance is reached; "time": the end is fixed in time (duration, detected set end). */
  ends_at: "distance" | "time";
  /** GNSS outages within the effort: [from, to] seconds from the start, and the offset's wander over the outage's length, (m/s)². */
  outages: [number, number, number][];
}

/** A compact, stored picture of the effort from which splits and series are rebuilt without the raw file. */
export interface EffortTrack {
  /** Sample spacing, s. */
  step_s: number;
  /** Seconds from the effort start. The last sample is the effort's end exactly. */
  t: number[];
  /** Metres from the effort start. */
  distance: number[];
  /** Smoothed speed, m/s. */
  speed: number[];
  /** Heart rate, bpm, or null where not recorded. */
  heart_rate: (number | null)[];
  /** Downsampled route, [lat, lon] in degrees, about one point per second (may be empty without fixes). */
  route: [number, number][];
  /** Absent on tracks stored before core version 3. */
  uncertainty?: EffortUncertainty;
}

export interface SessionSummary {
  distance_m: number;
  duration_ms: number;
  avg_speed: number;
  max_speed: number;
  stroke_count: number;
  avg_rate: number | null;
  max_rate: number | null;
  avg_stroke_distance: number | null;
  /** Kayaks only: per-side counts and mean distance per stroke. */
  left: { strokes: number; avg_stroke_distance: number | null } | null;
  right: { strokes: number; avg_stroke_distance: number | null } | null;
  avg_heart_rate: number | null;
  max_heart_rate: number | null;
}

export interface DataQuality {
  imu_samples: number;
  imu_lost_samples: number;
  imu_gaps: number;
  longest_imu_gap_ms: number;
  gnss_fixes: number;
  gnss_missing_fixes: number;
  /** Fix losses overlapping the effort: count and total seconds. */
  effort_fix_gaps: number;
  effort_fix_gap_s: number;
  satellites_min: number | null;
  satellites_mean: number | null;
  hdop_mean: number | null;
  hdop_max: number | null;
  heart_rate_coverage: number;
  /** Human-readable notes, e.g. "GNSS lost for 2.1 s at 312 m". */
  warnings: string[];
}

export interface ReplayArtifact {
  schema: 1;
  frame_count: number;
  model_class: string;
  quantization: { position_m: number; orientation_deg: number };
  /** [x, 0, 0, roll, pitch, yaw, paddle_phase] at 30 Hz; x and angles in quanta, phase 0–1 (canoe) or 0–2 (kayak: left then right). */
  frames: number[][];
}

export interface ProcessedSession {
  effort: { start_s: number; end_s: number; dist: number; duration_ms: number };
  /** Local date and time of the effort start from the device clock. */
  date: string;
  time_of_day: string;
  /** Instant of the effort start, ms since the epoch. */
  start_unix_ms: number;
  /** Device clock offset from UTC, minutes. */
  utc_offset_min: number;
  device: { hardware_model: number; hardware: string; firmware: string; serial: string; key_id: number };
  strokes: ProcessedStroke[];
  summary: SessionSummary;
  data_quality: DataQuality;
  track: EffortTrack;
  /** Heart rate during the effort, one reading per recorded period: [seconds from start, bpm]. */
  heart_rate: [number, number][];
  replay: ReplayArtifact;
}
