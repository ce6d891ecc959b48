import { z } from "zod";
import { ZResultFilters } from "../../results/query-results";
import { ZPageQuery } from "./pagination";

/**
 * The results API contract: request and response schemas of every operation,
 * in one place. Handlers parse with the request schemas, serializers are typed
 * by the response schemas, and the OpenAPI document (openapi.ts) is generated
 * from both, so the three cannot drift apart.
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
    .object({ athletes: z.array(z.object({ seat: z.number().int(), name: z.string().nullable(), surname: z.string(), weight: nullableNumber })) })
    .nullable(),
  meteo: z
    .object({ wind_speed: nullableNumber, wind_direction: nullableNumber, air_temperature: nullableNumber, water_temperature: nullableNumber })
    .nullable(),
  athletes_detail: z
    .object({
      seats: z.array(z.object({ seat: z.number().int(), id: z.number().int().nullable(), name: z.string().nullable(), surname: z.string(), external: z.boolean() })),
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
export const ZHealth = z.object({ status: z.literal("ok"), data: z.object({ status: z.literal("ok") }).describe("the same, in the Data API envelope") });
export const ZError = z.object({ error: z.string().describe("machine-readable code"), message: z.string().describe("the exact problem") });

export const ZPagination = z.object({
  page: z.number().int(),
  per_page: z.number().int(),
  total: z.number().int(),
  pages: z.number().int(),
  has_next: z.boolean(),
  has_prev: z.boolean(),
});
export const pagedOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), pagination: ZPagination });
export const single = <T extends z.ZodType>(item: T) => z.object({ data: item });

export const ZResultsQuery = ZPageQuery.extend(ZResultFilters.shape);
export const ZAthletesQuery = ZPageQuery.extend({ modality: z.string().max(64, "at most 64 characters").optional() });
export const ZPdfQuery = z.object({
  splits: z
    .string()
    .regex(/^\d+$/, "splits must be an integer from 1 to 20")
    .transform(Number)
    .refine((n) => n >= 1 && n <= 20, "splits must be an integer from 1 to 20")
    .optional()
    .default(4),
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
        z.object({ id: z.literal(-1).optional(), name: z.string().max(128), surname: z.string().optional(), weight: z.number().min(0).max(150).optional() }),
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
