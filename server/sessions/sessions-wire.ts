import { z } from "zod";
import type { SessionRow } from "./list-sessions";
import type { CrewSeat, StrokeRow } from "./read-session";
import type { DataQuality, SessionSummary, Split } from "../svc/process/types";

/**
 * Allowlisted serializers of sessions (data-api.md "Privacy projection"):
 * each schema names every field that may leave; the functions build exactly
 * those from domain rows. No owner, device, serial, raw sample or full-rate
 * channel appears here.
 */
const Ref = z.object({ id: z.number().int(), name: z.string() });
const nullableNumber = z.number().nullable();

export const ZSessionListItem = z.object({
  id: z.number().int(),
  distance_m: z.number().int().describe("metres covered by the effort"),
  duration_ms: z.number().int().describe("effort duration, milliseconds"),
  date: z.string().describe("local date of the effort start, YYYY-MM-DD"),
  time_of_day: z.string().describe("local time of the effort start with its UTC offset, HH:MM:SS+hh:mm"),
  start_at: z.string().describe("instant of the effort start, ISO 8601 UTC"),
  target: z
    .object({ distance_m: z.number().int().nullable(), duration_ms: z.number().int().nullable() })
    .describe("what was timed: a distance or a duration"),
  boat_class: z.object({ id: z.number().int(), type: z.string().describe("K1 … C4"), crew_size: z.number().int() }),
  track: Ref,
  category: Ref,
  pace: Ref,
  competition: z.string(),
  description: z.string(),
  important: z.boolean(),
  status: z.enum(["pending", "processing", "processed", "failed"]),
  created_at: z.string().describe("when the session was stored, ISO 8601"),
});
export type SessionListItem = z.output<typeof ZSessionListItem>;

export function serializeSessionListItem(row: SessionRow): SessionListItem {
  return {
    id: row.id,
    distance_m: row.distanceM,
    duration_ms: row.durationMs,
    date: row.date,
    time_of_day: row.timeOfDay,
    start_at: row.startAt.toISOString(),
    target: { distance_m: row.targetDistanceM, duration_ms: row.targetDurationMs },
    boat_class: { id: row.boatClassId, type: row.boatClass, crew_size: row.crewSize },
    track: { id: row.trackId, name: row.trackName },
    category: { id: row.categoryId, name: row.categoryName },
    pace: { id: row.paceId, name: row.paceName },
    competition: row.competition,
    description: row.description,
    important: row.important,
    status: row.status,
    created_at: row.createdAt.toISOString(),
  };
}

export const ZCrewSeat = z.object({
  seat: z.number().int().describe("1-based seat from the bow"),
  athlete: Ref.nullable().describe("null for a paddler the subject may not see"),
  is_subject: z.boolean().describe("the authorizing person's own seat"),
});

export const ZSessionDetail = ZSessionListItem.extend({
  subject_seat: z.number().int().nullable().describe("the seat of the authorizing person, null when they did not paddle in it"),
  crew: z.array(ZCrewSeat),
  weather: z
    .object({
      wind_speed_m_s: nullableNumber,
      wind_direction_deg: nullableNumber,
      air_temperature_c: nullableNumber,
      water_temperature_c: nullableNumber,
    })
    .nullable(),
  equipment: z
    .object({
      vessel: z.object({ id: z.number().int(), name: z.string(), boat_class: z.string() }).nullable(),
      paddle: z.object({ id: z.number().int(), name: z.string(), kind: z.enum(["kayak", "canoe"]) }).nullable(),
    })
    .nullable()
    .describe("the subject's own boat and paddle used; null without equipment:read"),
  health: z
    .object({ avg_heart_rate_bpm: nullableNumber, max_heart_rate_bpm: nullableNumber })
    .nullable()
    .describe("the subject's own heart rate from the unit; null without health:read or when the heart rate is not theirs"),
});

export interface SessionDetailParts {
  row: SessionRow;
  crew: CrewSeat[];
  weather: {
    windSpeedMS: number | null;
    windDirectionDeg: number | null;
    airTemperatureC: number | null;
    waterTemperatureC: number | null;
  } | null;
  equipment: {
    vessel: { id: number; name: string; boatClass: string } | null;
    paddle: { id: number; name: string; kind: "kayak" | "canoe" } | null;
  } | null;
  heartRate: { avg: number | null; max: number | null } | null;
}

export const serializeCrewSeat = (seat: CrewSeat): z.output<typeof ZCrewSeat> => ({
  seat: seat.seat,
  athlete: seat.athlete ? { id: seat.athlete.id, name: seat.athlete.name } : null,
  is_subject: seat.isSubject,
});

export function serializeSessionDetail(parts: SessionDetailParts): z.output<typeof ZSessionDetail> {
  const { row, crew, weather, equipment, heartRate } = parts;
  return {
    ...serializeSessionListItem(row),
    subject_seat: crew.find((s) => s.isSubject)?.seat ?? null,
    crew: crew.map(serializeCrewSeat),
    weather: weather
      ? {
          wind_speed_m_s: weather.windSpeedMS,
          wind_direction_deg: weather.windDirectionDeg,
          air_temperature_c: weather.airTemperatureC,
          water_temperature_c: weather.waterTemperatureC,
        }
      : null,
    equipment: equipment
      ? {
          vessel: equipment.vessel
            ? { id: equipment.vessel.id, name: equipment.vessel.name, boat_class: equipment.vessel.boatClass }
            : null,
          paddle: equipment.paddle ? { id: equipment.paddle.id, name: equipment.paddle.name, kind: equipment.paddle.kind } : null,
        }
      : null,
    health: heartRate ? { avg_heart_rate_bpm: heartRate.avg, max_heart_rate_bpm: heartRate.max } : null,
  };
}

const ZSide = z.object({ strokes: z.number().int(), avg_stroke_distance_m: nullableNumber });
export const ZSessionSummary = z.object({
  session_id: z.number().int(),
  distance_m: z.number(),
  duration_ms: z.number().int(),
  duration_uncertainty_s: nullableNumber.describe(
    "95 % uncertainty of the final time (duration_ms), seconds: the last split's elapsed_uncertainty_s; 0 for an effort timed to a duration; null where none was estimated (processed before it was, or a whole training)",
  ),
  avg_speed_m_s: z.number(),
  max_speed_m_s: z.number(),
  stroke_count: z.number().int(),
  avg_rate_spm: nullableNumber,
  max_rate_spm: nullableNumber,
  avg_stroke_distance_m: nullableNumber,
  left: ZSide.nullable().describe("kayaks: strokes on the left blade"),
  right: ZSide.nullable().describe("kayaks: strokes on the right blade"),
  heart_rate: z
    .object({ avg_bpm: nullableNumber, max_bpm: nullableNumber })
    .nullable()
    .describe("only the subject's own, with health:read"),
  data_quality: z.object({
    imu_samples: z.number().int(),
    imu_lost_samples: z.number().int(),
    imu_gaps: z.number().int(),
    longest_imu_gap_ms: z.number(),
    gnss_fixes: z.number().int(),
    gnss_missing_fixes: z.number().int(),
    effort_fix_gaps: z.number().int(),
    effort_fix_gap_s: z.number(),
    satellites_min: nullableNumber,
    satellites_mean: nullableNumber,
    hdop_mean: nullableNumber,
    hdop_max: nullableNumber,
    heart_rate_coverage: z
      .number()
      .nullable()
      .describe(
        "share of the effort with heart-rate readings, 0 to 1; like heart_rate, only for the subject's own heart rate with health:read, else null",
      ),
    warnings: z.array(z.string()),
  }),
});

/**
 * `heartRateAllowed`: the token holds health:read and the heart rate is the
 * subject's own. It governs every field derived from heart-rate readings, not
 * only the values: whether readings exist, and how many, is health data too
 * (issue 14, defect 7).
 */
/** A summary's effort figures, shared by sessions and training sets (each adds its own ids). */
export function summaryFigures(summary: SessionSummary, heartRateAllowed: boolean, durationUncertaintyS: number | null) {
  const side = (s: SessionSummary["left"]) => (s ? { strokes: s.strokes, avg_stroke_distance_m: s.avg_stroke_distance } : null);
  return {
    distance_m: summary.distance_m,
    duration_ms: summary.duration_ms,
    duration_uncertainty_s: durationUncertaintyS,
    avg_speed_m_s: summary.avg_speed,
    max_speed_m_s: summary.max_speed,
    stroke_count: summary.stroke_count,
    avg_rate_spm: summary.avg_rate,
    max_rate_spm: summary.max_rate,
    avg_stroke_distance_m: summary.avg_stroke_distance,
    left: side(summary.left),
    right: side(summary.right),
    heart_rate: heartRateAllowed ? { avg_bpm: summary.avg_heart_rate, max_bpm: summary.max_heart_rate } : null,
  };
}

/** `durationUncertaintyS`: the final time's 95 % uncertainty (finalTimeUncertainty of the stored track), null where there is none. */
export function serializeSessionSummary(
  sessionId: number,
  summary: SessionSummary,
  quality: DataQuality,
  heartRateAllowed: boolean,
  durationUncertaintyS: number | null,
): z.output<typeof ZSessionSummary> {
  return {
    session_id: sessionId,
    ...summaryFigures(summary, heartRateAllowed, durationUncertaintyS),
    data_quality: {
      imu_samples: quality.imu_samples,
      imu_lost_samples: quality.imu_lost_samples,
      imu_gaps: quality.imu_gaps,
      longest_imu_gap_ms: quality.longest_imu_gap_ms,
      gnss_fixes: quality.gnss_fixes,
      gnss_missing_fixes: quality.gnss_missing_fixes,
      effort_fix_gaps: quality.effort_fix_gaps,
      effort_fix_gap_s: quality.effort_fix_gap_s,
      satellites_min: quality.satellites_min,
      satellites_mean: quality.satellites_mean,
      hdop_mean: quality.hdop_mean,
      hdop_max: quality.hdop_max,
      heart_rate_coverage: heartRateAllowed ? quality.heart_rate_coverage : null,
      warnings: [...quality.warnings],
    },
  };
}

export const ZStroke = z.object({
  index: z.number().int().describe("0-based order within the effort"),
  time_s: z.number().describe("catch time, seconds from the effort start"),
  side: z.enum(["left", "right"]).nullable().describe("kayaks: the blade; canoes: null"),
  distance_m: nullableNumber.describe("position along the effort at the catch"),
  speed_m_s: nullableNumber,
  rate_spm: nullableNumber,
  stroke_distance_m: nullableNumber.describe("metres the boat travelled during the stroke"),
  max_accel_x_m_s2: nullableNumber.describe("peak surge acceleration, gravity removed"),
  min_accel_x_m_s2: nullableNumber,
  max_pitch_deg: nullableNumber,
  max_roll_deg: nullableNumber,
});

const r3 = (v: number | null) => (v === null ? null : Math.round(v * 1000) / 1000);
export function serializeStroke(row: StrokeRow, effortStartS: number): z.output<typeof ZStroke> {
  return {
    index: row.index,
    time_s: Math.round((row.catchS - effortStartS) * 1000) / 1000,
    side: row.side,
    distance_m: r3(row.distanceM),
    speed_m_s: r3(row.speedMS),
    rate_spm: r3(row.rateSpm),
    stroke_distance_m: r3(row.strokeDistanceM ?? row.leftStrokeDistanceM ?? row.rightStrokeDistanceM),
    max_accel_x_m_s2: r3(row.maxAccelXMS2),
    min_accel_x_m_s2: r3(row.minAccelXMS2),
    max_pitch_deg: r3(row.maxPitchDeg),
    max_roll_deg: r3(row.maxRollDeg),
  };
}

export const ZSplit = z.object({
  index: z.number().int().describe("1-based"),
  distance_m: z.number().describe("distance from the start at the split's end"),
  elapsed_s: z.number().describe("time from the start to the split's end"),
  split_s: z.number().describe("this split's own time"),
  speed_m_s: z.number(),
  rate_spm: nullableNumber,
  elapsed_uncertainty_s: nullableNumber.describe(
    "95 % uncertainty of elapsed_s, seconds: the true time lies within elapsed_s ± this in 95 % of splits (null for an effort processed before it was estimated; 0 for a timed effort's end)",
  ),
  split_uncertainty_s: nullableNumber.describe(
    "95 % uncertainty of split_s, seconds (smaller: the error accumulated before the split cancels)",
  ),
});
export const ZSplits = z.object({ session_id: z.number().int(), count: z.number().int(), splits: z.array(ZSplit) });

/** A split list's items, shared by sessions and training sets. */
export const splitItems = (splits: Split[]): z.output<typeof ZSplit>[] =>
  splits.map((s, i) => ({
    index: i + 1,
    distance_m: s.distance_m,
    elapsed_s: s.time_s,
    split_s: s.split_time_s,
    speed_m_s: s.speed,
    rate_spm: s.rate,
    elapsed_uncertainty_s: s.time_uncertainty_s,
    split_uncertainty_s: s.split_uncertainty_s,
  }));

export function serializeSplits(sessionId: number, splits: Split[]): z.output<typeof ZSplits> {
  return { session_id: sessionId, count: splits.length, splits: splitItems(splits) };
}

/** The series members, shared by sessions and training sets; `origin` is what `t_s` counts from. */
export const seriesShape = (origin: string) => ({
  points: z.number().int().describe("number of points, at most 1000"),
  t_s: z.array(z.number()).describe(`seconds from ${origin}`),
  distance_m: z.array(nullableNumber).optional(),
  speed_m_s: z.array(nullableNumber).optional(),
  rate_spm: z.array(nullableNumber).optional(),
  stroke_distance_m: z.array(nullableNumber).optional(),
  heart_rate_bpm: z.array(nullableNumber).optional().describe("only the subject's own, with health:read"),
  route: z
    .array(z.tuple([z.number(), z.number()]))
    .optional()
    .describe("downsampled [latitude, longitude] in degrees, at most max_points points"),
});
export const ZSeries = z.object({ session_id: z.number().int(), ...seriesShape("the effort start") });

const SERIES_NAMES = {
  distance: "distance_m",
  speed: "speed_m_s",
  rate: "rate_spm",
  stroke_distance: "stroke_distance_m",
  heart_rate: "heart_rate_bpm",
} as const;

/** The series asked for (absent ones are left out) and the route when asked for. */
export function seriesMembers(
  series: Record<string, (number | null)[]>,
  route: [number, number][] | null,
): Omit<z.output<typeof ZSeries>, "session_id"> {
  const out: Omit<z.output<typeof ZSeries>, "session_id"> = { points: series.t.length, t_s: series.t as number[] };
  for (const [field, name] of Object.entries(SERIES_NAMES)) if (series[field]) out[name] = series[field];
  if (route) out.route = route;
  return out;
}

export function serializeSeries(
  sessionId: number,
  series: Record<string, (number | null)[]>,
  route: [number, number][] | null,
): z.output<typeof ZSeries> {
  return { session_id: sessionId, ...seriesMembers(series, route) };
}
