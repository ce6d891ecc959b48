import { z } from "zod";
import { dateParam, dateTimeParam, enumParam, idParam, intParam, textParam } from "../kernel/params";
import { ZPageQuery } from "./pagination";
import { INT4_MAX } from "../../contract/values";
import { SPLIT_COUNT } from "../../svc/process/track";

/**
 * The results API contract: request and response schemas of every operation,
 * in one place. The operations (operations/*.ts) declare them, serializers are
 * typed by the response schemas, and the OpenAPI document is generated from
 * the declarations, so the three cannot drift apart.
 */
const Ref = z.object({ id: z.number().int(), name: z.string() });

export const ZVessel = z.object({ id: z.number().int(), type: z.string(), npeople: z.number().int().describe("crew size") });
export const ZNamed = Ref;
export const ZAthlete = z.object({
  id: z.number().int(),
  name: z.string().describe("full name"),
  date_of_birth: z.string().nullable().describe("YYYY-MM-DD"),
  modality: z.string(),
});

export const ZResultListItem = z.object({
  id: z.number().int(),
  dist: z.number().int().describe("distance of the effort, metres"),
  date: z.string().describe("local date of the effort start, YYYY-MM-DD"),
  time_of_day: z.string().describe("local time of the effort start with its UTC offset, HH:MM:SS+hh:mm"),
  competition: z.string(),
  description: z.string(),
  duration: z.number().describe("duration of the effort, milliseconds"),
  creation_date: z.string().describe("YYYY-MM-DD"),
  software_version: z.string().describe("firmware of the unit"),
  hardware: z.string().describe("model of the unit"),
  owner: Ref,
  track: Ref,
  category: Ref,
  vessel: ZVessel,
  pace: Ref,
  athletes: z.array(z.object({ id: z.number().int(), full_name: z.string() })).describe("internal athletes in boat order"),
});

const nullableNumber = z.number().nullable();
export const ZStroke = z.object({
  distance: nullableNumber.describe("position along the effort at the catch, metres"),
  filtered_speed: nullableNumber.describe("m/s"),
  rate: nullableNumber.describe("strokes per minute"),
  stroke_distance: nullableNumber.describe("metres per stroke (canoes)"),
  left_stroke_distance: nullableNumber.describe("metres per stroke, left blade (kayaks)"),
  right_stroke_distance: nullableNumber.describe("metres per stroke, right blade (kayaks)"),
  max_accel_x: nullableNumber.describe("m/s², gravity removed"),
  min_accel_x: nullableNumber.describe("m/s², gravity removed"),
  max_pitch: nullableNumber.describe("degrees"),
  max_roll: nullableNumber.describe("degrees"),
});

export const ZResultDetail = ZResultListItem.extend({
  data_strokes: z.object({ stroke_count: z.number().int(), strokes: z.array(ZStroke) }).nullable(),
  external_athletes: z
    .object({
      athletes: z.array(z.object({ seat: z.number().int(), name: z.string().nullable(), surname: z.string(), weight: nullableNumber })),
    })
    .nullable(),
  meteo: z
    .object({
      wind_speed: nullableNumber,
      wind_direction: nullableNumber,
      air_temperature: nullableNumber,
      water_temperature: nullableNumber,
    })
    .nullable(),
  athletes_detail: z
    .object({
      seats: z.array(
        z.object({
          seat: z.number().int(),
          id: z.number().int().nullable(),
          name: z.string().nullable(),
          surname: z.string(),
          external: z.boolean(),
        }),
      ),
    })
    .nullable(),
});

export const ZUploadResponse = z.object({
  id: z.number().int(),
  dist: z.number().int(),
  date: z.string(),
  time_of_day: z.string(),
  duration: z.number().describe("milliseconds"),
  software_version: z.string(),
  vessel: ZVessel,
  track: Ref,
  athletes_count: z.number().int(),
});

export const ZDeleteResponse = z.object({ id: z.number().int(), deleted: z.literal(true) });

/** Filters and sort of GET /results (docs/results-api.md); every integer is an int4 column. */
export const ZResultFilters = z.object({
  start_date: dateParam("start_date").optional().describe("from this local date, inclusive"),
  end_date: dateParam("end_date").optional().describe("until this local date, inclusive"),
  start_datetime: dateTimeParam("start_datetime")
    .optional()
    .describe("from this date-time: without an offset the session's local time, with Z or ±hh:mm an instant"),
  end_datetime: dateTimeParam("end_datetime").optional().describe("until this date-time, as start_datetime"),
  vessel_id: idParam("vessel_id").optional(),
  track_id: idParam("track_id").optional(),
  category_id: idParam("category_id").optional(),
  pace_id: idParam("pace_id").optional(),
  hardware_id: idParam("hardware_id").optional().describe("the recording unit's device id"),
  athlete_id: idParam("athlete_id").optional().describe("the result's crew includes this athlete"),
  dist: intParam("dist", 0, INT4_MAX).optional().describe("distance covered, metres"),
  competition: textParam("competition").optional().describe("part of the competition name, case-insensitive"),
  description: textParam("description").optional().describe("part of the description, case-insensitive"),
  sort: enumParam("sort", ["date", "dist", "time", "creation_date"] as const).default("date"),
  order: z.enum(["asc", "desc"], { error: "order must be asc or desc" }).default("desc"),
});

export const ZResultsQuery = ZPageQuery.extend(ZResultFilters.shape);
export const ZAthletesQuery = z.object({
  modality: textParam("modality").optional().describe("part of the athlete's modality, case-insensitive"),
});
export const ZPdfQuery = z.object({
  splits: intParam("splits", SPLIT_COUNT.min, SPLIT_COUNT.max)
    .optional()
    .default(SPLIT_COUNT.default)
    .describe(`number of equal-distance splits, ${SPLIT_COUNT.min} to ${SPLIT_COUNT.max} (default ${SPLIT_COUNT.default})`),
  lang: z.enum(["en", "es"], { error: "lang must be en or es" }).optional().default("en"),
});

/** The upload's metadata part, for the document (validated by hand in server/results/upload-metadata.ts for precise messages). */
export const ZUploadMetadataDoc = z.object({
  distance: z.number().int().min(50).max(1000).optional().describe("race distance, metres; exactly one of distance and duration_ms"),
  duration_ms: z.number().int().min(1).max(300000).optional().describe("race duration, milliseconds"),
  vessel_id: z.number().int(),
  track_id: z.number().int(),
  category_id: z.number().int(),
  pace_id: z.number().int(),
  athletes: z
    .array(
      z.union([
        z.number().int().describe("internal athlete id"),
        z.object({ id: z.number().int() }),
        z.object({
          id: z.literal(-1).optional(),
          name: z.string().max(128),
          surname: z.string().optional(),
          weight: z.number().min(0).max(150).optional(),
        }),
      ]),
    )
    .describe("one entry per seat in boat order"),
  competition: z.string().max(64).optional(),
  description: z.string().max(64).optional(),
  important: z.boolean().optional(),
  meteo: z
    .object({
      wind_speed: z.number().min(0).max(20).optional(),
      wind_direction: z.number().min(0).max(359).optional(),
      air_temperature: z.number().min(-20).max(50).optional(),
      water_temperature: z.number().min(0).max(40).optional(),
    })
    .optional(),
});
