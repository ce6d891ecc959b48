import type { ResultSummaryRow } from "../../results/query-results";
import type { ResultDetail } from "../../results/result-detail";
import type { z } from "zod";
import type { ZAthlete, ZNamed, ZResultDetail, ZResultListItem, ZVessel } from "./contract";

/**
 * The only producers of results API output: each names every field that
 * may leave (docs/results-api.md). Handlers never return database rows.
 */
export const serializeVessel = (v: { id: number; type: string; npeople: number }): z.output<typeof ZVessel> => ({
  id: v.id,
  type: v.type,
  npeople: v.npeople,
});
export const serializeNamed = (r: { id: number; name: string }): z.output<typeof ZNamed> => ({ id: r.id, name: r.name });
export const serializeAthlete = (a: {
  id: number;
  name: string;
  surname: string;
  dateOfBirth: string | null;
  modality: string;
}): z.output<typeof ZAthlete> => ({
  id: a.id,
  name: `${a.name} ${a.surname}`.trim(),
  date_of_birth: a.dateOfBirth,
  modality: a.modality,
});

/** Result list item (docs/results-api.md "Result (list item)"). `duration` is in milliseconds, like the upload input. */
export function serializeResultListItem(r: ResultSummaryRow): z.output<typeof ZResultListItem> {
  return {
    id: r.id,
    dist: r.distanceM,
    date: r.date,
    time_of_day: r.timeOfDay,
    competition: r.competition,
    description: r.description,
    duration: r.durationMs,
    creation_date: r.createdAt.toISOString().slice(0, 10),
    software_version: r.softwareVersion,
    hardware: r.hardware,
    owner: { id: r.ownerId, name: r.ownerName },
    track: { id: r.trackId, name: r.trackName },
    category: { id: r.categoryId, name: r.categoryName },
    vessel: { id: r.vesselId, type: r.vesselType, npeople: r.vesselNpeople },
    pace: { id: r.paceId, name: r.paceName },
    athletes: r.athletes.map((a) => ({ id: a.id, full_name: a.full_name })),
  };
}

const round = (value: number | null, digits: number) => (value === null ? null : Number(value.toFixed(digits)));

/**
 * Result detail: the list fields plus strokes, crew and weather. The crew
 * objects are our choice where the spec says "not shown" (docs/results-api.md).
 */
export function serializeResultDetail(detail: ResultDetail): z.output<typeof ZResultDetail> {
  const { summary, crew, weather, strokes } = detail;
  const externals = crew.filter((seat) => seat.athleteId === null);
  return {
    ...serializeResultListItem(summary),
    data_strokes: strokes.length
      ? {
          stroke_count: strokes.length,
          strokes: strokes.map((s) => ({
            distance: round(s.distanceM, 2),
            filtered_speed: round(s.filteredSpeedMS, 3),
            rate: round(s.rateSpm, 1),
            stroke_distance: round(s.strokeDistanceM, 2),
            left_stroke_distance: round(s.leftStrokeDistanceM, 2),
            right_stroke_distance: round(s.rightStrokeDistanceM, 2),
            max_accel_x: round(s.maxAccelXMS2, 2),
            min_accel_x: round(s.minAccelXMS2, 2),
            max_pitch: round(s.maxPitchDeg, 2),
            max_roll: round(s.maxRollDeg, 2),
          })),
        }
      : null,
    external_athletes: externals.length
      ? {
          athletes: externals.map((e) => ({
            seat: e.seat,
            name: e.externalName,
            surname: e.externalSurname ?? "",
            weight: e.externalWeightKg,
          })),
        }
      : null,
    meteo: weather
      ? {
          wind_speed: weather.windSpeedMS,
          wind_direction: weather.windDirectionDeg,
          air_temperature: weather.airTemperatureC,
          water_temperature: weather.waterTemperatureC,
        }
      : null,
    athletes_detail: crew.length
      ? {
          seats: crew.map((c) => ({
            seat: c.seat,
            id: c.athleteId,
            name: c.athleteId !== null ? c.athleteName : c.externalName,
            surname: (c.athleteId !== null ? c.athleteSurname : c.externalSurname) ?? "",
            external: c.athleteId === null,
          })),
        }
      : null,
  };
}
